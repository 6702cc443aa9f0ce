import type { BusClient } from '@shared/bus/bus-client';
import type { CallContext } from '@shared/bus/call-context';
import { vaultCredentialSubjects } from '@shared/bus/subjects/vaults';
import type { ResolveCredentialsReply, VaultCredential } from '@shared/schema/vault-credential';
import type { RefreshCredentialReply, RefreshCredentialRequest } from '@shared/schema/vault-credential-validation';

/**
 * A session's vault credentials, decrypted by the vaults service, for the runtime's MCP
 * connections. Asked each time they are needed, never kept: a credential rotated or archived
 * takes effect at the next listing or call, and no secret outlives the step that used it.
 */
export interface VaultCredentials {
  resolve(ctx: CallContext, vaultIds: readonly string[]): Promise<ResolveCredentialsReply['vaults']>;
  /** One credential as the API shows it (no secret): its kind and state, or the vaults service's 404. */
  get(ctx: CallContext, ids: { vault_id: string; credential_id: string }): Promise<VaultCredential>;
  /** An `mcp_oauth` credential's refresh-token exchange, done and stored by the vaults service. */
  refresh(ctx: CallContext, request: RefreshCredentialRequest): Promise<RefreshCredentialReply>;
}

export function vaultCredentials(bus: Pick<BusClient, 'call'>): VaultCredentials {
  return {
    resolve: async (ctx, vaultIds) =>
      vaultIds.length === 0 ? [] : (await bus.call(vaultCredentialSubjects.resolve, ctx, { vault_ids: [...vaultIds] })).vaults,
    get: (ctx, ids) => bus.call(vaultCredentialSubjects.get, ctx, ids),
    refresh: (ctx, request) => bus.call(vaultCredentialSubjects.refresh, ctx, request),
  };
}
