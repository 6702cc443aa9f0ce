import type { Handler } from '@shared/bus/bus-server';
import { tenantOf } from '@shared/bus/call-context';
import type { vaultSubjects } from '@shared/bus/subjects/vaults';
import { found, invalidRequest } from '@shared/errors/api-error';
import { findVault, updateVault as updateVaultRow } from '../db/vaults';
import { applyMetadataPatch } from '@shared/metadata/apply-metadata-patch';
import { presentVault } from '../domain/present';
import { vaultNotFound } from '../domain/not-found';
import type { VaultsDeps } from '../deps';

type S = typeof vaultSubjects.update;

/** Omitted or null fields stay; metadata is patched. An archived vault is frozen. */
export const updateVault =
  (deps: VaultsDeps): Handler<S> =>
  async ({ vault_id, update }, ctx) => {
    const tenant = tenantOf(ctx);
    return deps.db.transaction(async (tx) => {
      const row = found(await findVault(tx, tenant, vault_id, { lock: true }), () => vaultNotFound(vault_id));
      if (row.archivedAt) throw invalidRequest(`vault ${vault_id} is archived and cannot be changed`);
      const next = {
        ...row,
        displayName: update.display_name ?? row.displayName,
        metadata: applyMetadataPatch(row.metadata, update.metadata),
        updatedAt: deps.clock.now(),
      };
      await updateVaultRow(tx, vault_id, {
        displayName: next.displayName,
        metadata: next.metadata,
        updatedAt: next.updatedAt,
      });
      return presentVault(next);
    });
  };
