import type { Handler } from '@shared/bus/bus-server';
import { tenantOf } from '@shared/bus/call-context';
import type { vaultCredentialSubjects } from '@shared/bus/subjects/vaults';
import { findVaultCredential } from '../db/credentials';
import { foundVaultCredential } from '../domain/not-found';
import { presentCredential } from '../domain/present';
import type { VaultsDeps } from '../deps';

type S = typeof vaultCredentialSubjects.get;

export const getCredential =
  (deps: VaultsDeps): Handler<S> =>
  async ({ vault_id, credential_id }, ctx) => {
    const found = await findVaultCredential(deps.db, tenantOf(ctx), vault_id, credential_id);
    return presentCredential(foundVaultCredential(found, vault_id, credential_id).credential);
  };
