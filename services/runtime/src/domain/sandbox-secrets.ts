import type { SandboxSecret } from '@shared/schema/sandbox-policy';
import type { ResolveCredentialsReply } from '@shared/schema/vault-credential';

/**
 * A session's `environment_variable` credentials, as its sandbox substitutes them at egress: of
 * its vaults that are usable (ok), in the vaults' order; a later vault's variable of a name
 * already taken is left out (the first vault listed wins: a session's vault order is the
 * tenant's statement of priority). Where unset, both injection locations, as the vaults service
 * stores them.
 */
export function sandboxSecrets(vaults: ResolveCredentialsReply['vaults']): SandboxSecret[] {
  const secrets: SandboxSecret[] = [];
  for (const vault of vaults) {
    if (vault.state !== 'ok') continue;
    for (const credential of vault.credentials) {
      const auth = credential.auth;
      if (auth.type !== 'environment_variable' || secrets.some((s) => s.name === auth.secret_name)) continue;
      secrets.push({
        name: auth.secret_name,
        value: auth.secret_value,
        hosts: auth.networking.type === 'limited' ? auth.networking.allowed_hosts : null,
        header: auth.injection_location?.header ?? true,
        body: auth.injection_location?.body ?? true,
      });
    }
  }
  return secrets;
}
