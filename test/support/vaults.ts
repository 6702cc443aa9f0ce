/**
 * Helpers the vault tests share: building credentials over HTTP, reading the vaults
 * database raw, and asking the vaults service over the bus the way the fire path does.
 */
import { systemContext } from '@shared/bus/call-context';
import { vaultCredentialSubjects, vaultSubjects } from '@shared/bus/subjects/vaults';
import { randomBase62 } from '@shared/ids/ids';
import type { Tenant } from '@shared/schema/tenant';
import type { ApiClient } from './api';
import { expectOk } from './expect';
import type { Stack } from './stack';

/** A secret nobody could mistake for anything else, so finding it anywhere is a leak. */
export const uniqueSecret = (label: string) => `sk-${label}-${randomBase62(32)}`;

/** Creates a credential in a vault; the body is the request's (`auth`, `display_name`, ...). */
export async function createCredential(api: ApiClient, vaultId: string, body: Record<string, unknown>, what = 'create credential') {
  return expectOk(await api('POST', `/v1/vaults/${vaultId}/credentials`, { body }), what);
}

export async function createBearer(api: ApiClient, vaultId: string, token: string, url = `https://mcp-${randomBase62(6)}.example.com/sse`) {
  return createCredential(api, vaultId, { display_name: 'bearer', auth: { type: 'static_bearer', token, mcp_server_url: url } }, 'create bearer credential');
}

export async function createEnvVar(api: ApiClient, vaultId: string, name: string, value: string) {
  const networking = { type: 'limited', allowed_hosts: ['api.example.com', '*.example.org'] };
  return createCredential(
    api,
    vaultId,
    { auth: { type: 'environment_variable', secret_name: name, secret_value: value, networking } },
    'create environment variable credential',
  );
}

/** Raw rows of one vaults-database table, as the database holds them. */
export async function rawRows(stack: Stack, table: 'vaults' | 'vault_credentials'): Promise<any[]> {
  const [rows] = await stack.service('vaults').database.pool.query(`SELECT * FROM \`${table}\``);
  return rows as any[];
}

export async function resolveCredentials(stack: Stack, tenant: Tenant, vaultIds: string[]) {
  return stack
    .service('vaults')
    .client.call(vaultCredentialSubjects.resolve, systemContext(`req_${randomBase62(24)}`, tenant), { vault_ids: vaultIds });
}

export async function checkVaults(stack: Stack, tenant: Tenant, vaultIds: string[]) {
  return stack
    .service('vaults')
    .client.call(vaultSubjects.check, systemContext(`req_${randomBase62(24)}`, tenant), { vault_ids: vaultIds });
}

/** Every place a secret, or a recognisable piece of it, could show up as text. */
export function secretForms(secret: string): string[] {
  return [secret, secret.slice(-16), secret.slice(3, 19), Buffer.from(secret).toString('base64').slice(0, 20)];
}

export function expectNoSecrets(haystack: string, secrets: string[], where: string) {
  for (const secret of secrets) {
    for (const form of secretForms(secret)) {
      if (haystack.includes(form)) throw new Error(`${where} contains (part of) a secret: ${form.slice(0, 6)}...`);
    }
  }
}
