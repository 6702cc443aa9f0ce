import type { Handler } from '@shared/bus/bus-server';
import { tenantOf } from '@shared/bus/call-context';
import { found } from '@shared/errors/api-error';
import { recordEvent } from '@shared/bus/outbox';
import type { vaultSubjects } from '@shared/bus/subjects/vaults';
import { vaultEvents } from '@shared/schema/vault';
import { deleteCredentialsOfVault } from '../db/credentials';
import { outbox } from '../db/schema';
import { deleteVault as deleteVaultRow, findVault } from '../db/vaults';
import { vaultNotFound } from '../domain/not-found';
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
    await deps.db.transaction(async (tx) => {
      found(await findVault(tx, tenant, vault_id, { lock: true }), () => vaultNotFound(vault_id));
      await deleteCredentialsOfVault(tx, vault_id);
      await deleteVaultRow(tx, vault_id);
      await recordEvent(tx, outbox, vaultEvents.deleted, tenant, { vault_id, deleted_at: now.toISOString() }, now);
    });
    deps.eventsRecorded();
    return { type: 'vault_deleted' as const, id: vault_id };
  };
