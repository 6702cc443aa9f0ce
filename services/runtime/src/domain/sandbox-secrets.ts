import type { SandboxSecret } from '@shared/schema/sandbox-policy';
import type { CloudNetworking } from '@shared/schema/environment';
import type { RuntimeEventBody } from '@shared/schema/session-event';
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

/**
 * The SDK's `credential_host_unreachable_error`: an environment_variable credential whose
 * `allowed_hosts` name a host the environment's `limited` networking does not let out (its
 * `allowed_hosts`, exactly or by `*.` suffix); the session runs on, its requests to that host
 * refused by the sandbox's proxy. Under `unrestricted` every host is reachable.
 */
export function unreachableCredentialHosts(vaults: ResolveCredentialsReply['vaults'], networking: CloudNetworking): RuntimeEventBody[] {
  if (networking.type !== 'limited') return [];
  const allowed = (host: string) =>
    networking.allowed_hosts.some((entry) => (entry.startsWith('*.') ? host.toLowerCase().endsWith(entry.slice(1).toLowerCase()) : entry.toLowerCase() === host.toLowerCase()));
  const errors: RuntimeEventBody[] = [];
  for (const vault of vaults) {
    if (vault.state !== 'ok') continue;
    for (const credential of vault.credentials) {
      const auth = credential.auth;
      if (auth.type !== 'environment_variable' || auth.networking.type !== 'limited') continue;
      const unreachable = auth.networking.allowed_hosts.filter((host) => !allowed(host));
      if (unreachable.length === 0) continue;
      const message = `credential ${credential.id} (${auth.secret_name}) is for ${unreachable.join(', ')}, which this environment's networking does not let out`;
      errors.push({ type: 'session.error', error: { type: 'credential_host_unreachable_error', message, credential_id: credential.id, retry_status: { type: 'retrying' } } });
    }
  }
  return errors;
}
