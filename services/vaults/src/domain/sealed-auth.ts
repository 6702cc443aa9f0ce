import { openSecret, sealSecret } from '@shared/crypto/envelope';
import { CredentialAuthParams } from '@shared/schema/vault-credential';
import { isValid } from '@shared/validation/validate';

/** A sealed auth that authenticated but is not what its row says; messages never quote content. */
export class UnreadableCredential extends Error {
  override name = 'UnreadableCredential';
}

/** Seals a credential's whole auth under the vault's data key, bound to the credential's id. */
export const sealAuth = (dataKey: Buffer, auth: CredentialAuthParams, credentialId: string): string =>
  sealSecret(dataKey, JSON.stringify(auth), credentialId);

/** Opens a sealed auth; throws DecryptionError if it was altered or belongs to another row. */
export function openAuth(dataKey: Buffer, sealed: string, credentialId: string, kind: string): CredentialAuthParams {
  let auth: unknown;
  try {
    auth = JSON.parse(openSecret(dataKey, sealed, credentialId));
  } catch (err) {
    if (err instanceof SyntaxError) throw new UnreadableCredential('sealed auth is not JSON');
    throw err;
  }
  if (!isValid(CredentialAuthParams, auth) || auth.type !== kind) {
    throw new UnreadableCredential('sealed auth does not match the credential');
  }
  return auth;
}
