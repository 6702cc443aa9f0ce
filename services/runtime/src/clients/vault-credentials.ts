import type { BusClient } from '@shared/bus/bus-client';
import type { CallContext } from '@shared/bus/call-context';
import { vaultCredentialSubjects } from '@shared/bus/subjects/vaults';
import type { ResolveCredentialsReply } from '@shared/schema/vault-credential';

/**
 * A session's vault credentials, decrypted by the vaults service, for the runtime's MCP
 * connections. Asked each time they are needed, never kept: a credential rotated or archived
 * takes effect at the next listing or call, and no secret outlives the step that used it.
 */
export interface VaultCredentials {
  resolve(ctx: CallContext, vaultIds: readonly string[]): Promise<ResolveCredentialsReply['vaults']>;
}

export function vaultCredentials(bus: Pick<BusClient, 'call'>): VaultCredentials {
  return {
    resolve: async (ctx, vaultIds) =>
      vaultIds.length === 0 ? [] : (await bus.call(vaultCredentialSubjects.resolve, ctx, { vault_ids: [...vaultIds] })).vaults,
  };
}
