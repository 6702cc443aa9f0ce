import type { Handler } from '@shared/bus/bus-server';
import { tenantOf } from '@shared/bus/call-context';
import { recordEvent } from '@shared/bus/outbox';
import type { vaultSubjects } from '@shared/bus/subjects/vaults';
import { vaultEvents } from '@shared/schema/vault';
import { changeVault } from './locked-change';
import { deleteCredentialsOfVault } from '../db/credentials';
import { outbox } from '../db/schema';
import { vaultWrites } from '../db/vaults';
import type { VaultsDeps } from '../deps';

type S = typeof vaultSubjects.delete;

/**
 * Crypto-shredding: the vault row (with its wrapped data key) and every credential go in one
 * transaction, together with the `vaults.deleted` event, so nothing decryptable is left and
 * every consumer hears of it exactly when it happened.
 */
export const deleteVault =
  (deps: VaultsDeps): Handler<S> =>
  async ({ vault_id }, ctx) => {
    const tenant = tenantOf(ctx);
    const now = deps.clock.now();
    await changeVault(deps, ctx, vault_id, async (tx) => {
      await deleteCredentialsOfVault(tx, vault_id);
      await vaultWrites.remove(tx, vault_id);
      await recordEvent(tx, outbox, vaultEvents.deleted, tenant, { vault_id, deleted_at: now.toISOString() }, now);
    });
    deps.eventsRecorded();
    return { type: 'vault_deleted' as const, id: vault_id };
  };
