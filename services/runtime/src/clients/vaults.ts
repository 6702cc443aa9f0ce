import type { BusClient } from '@shared/bus/bus-client';
import type { CallContext } from '@shared/bus/call-context';
import { vaultCredentialSubjects } from '@shared/bus/subjects/vaults';
import type { ResolveCredentialsReply } from '@shared/schema/vault-credential';

/** What the runtime asks the vaults service: a session's vaults' credentials, decrypted (never logged, never in an event). */
export interface VaultsClient {
  resolve(ctx: CallContext, vaultIds: readonly string[]): Promise<ResolveCredentialsReply>;
}

export function vaultsClient(bus: Pick<BusClient, 'call'>): VaultsClient {
  return {
    resolve: async (ctx, vaultIds) => (vaultIds.length === 0 ? { vaults: [] } : bus.call(vaultCredentialSubjects.resolve, ctx, { vault_ids: [...vaultIds] })),
  };
}
