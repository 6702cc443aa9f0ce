/**
 * Helpers the vault tests share: building vaults and credentials over HTTP, reading the vaults
 * database raw, and asking the vaults service over the bus the way the fire path does.
 */
import { expect } from 'bun:test';
import { systemContext } from '@shared/bus/call-context';
import { vaultCredentialSubjects, vaultSubjects } from '@shared/bus/subjects/vaults';
import { randomBase62 } from '@shared/ids/ids';
import type { Tenant } from '@shared/schema/tenant';
import type { ApiClient, ApiResponse } from '../support/api';
import type { Stack } from '../support/stack';

export function ok<T = any>(response: ApiResponse<T>, what: string): T {
  if (response.status !== 200) throw new Error(`${what}: ${response.status} ${JSON.stringify(response.body)}`);
  return response.body;
}

export function expectError(response: ApiResponse, status: number, type: string, messageContains?: string) {
  expect(response.status).toBe(status);
  expect(response.body.type).toBe('error');
  expect(response.body.error.type).toBe(type);
  if (messageContains) expect(response.body.error.message).toContain(messageContains);
}

/** A secret nobody could mistake for anything else, so finding it anywhere is a leak. */
export const uniqueSecret = (label: string) => `sk-${label}-${randomBase62(32)}`;

export async function createVault(api: ApiClient, body: Record<string, unknown> = {}) {
  return ok(await api('POST', '/v1/vaults', { body: { display_name: 'test vault', ...body } }), 'create vault');
}

export async function createBearer(api: ApiClient, vaultId: string, token: string, url = `https://mcp-${randomBase62(6)}.example.com/sse`) {
  return ok(
    await api('POST', `/v1/vaults/${vaultId}/credentials`, {
      body: { display_name: 'bearer', auth: { type: 'static_bearer', token, mcp_server_url: url } },
    }),
    'create bearer credential',
  );
}

export async function createEnvVar(api: ApiClient, vaultId: string, name: string, value: string) {
  return ok(
    await api('POST', `/v1/vaults/${vaultId}/credentials`, {
      body: {
        auth: {
          type: 'environment_variable',
          secret_name: name,
          secret_value: value,
          networking: { type: 'limited', allowed_hosts: ['api.example.com', '*.example.org'] },
        },
      },
    }),
    'create environment variable credential',
  );
}

/** Raw rows of one vaults-database table, as the database holds them. */
export async function rawRows(stack: Stack, table: 'vaults' | 'vault_credentials' | 'outbox'): Promise<any[]> {
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
