import type { Handler } from '@shared/bus/bus-server';
import type { vaultSubjects } from '@shared/bus/subjects/vaults';
import { invalidRequest } from '@shared/errors/api-error';
import { changeVault } from './locked-change';
import { vaultWrites } from '../db/vaults';
import { applyMetadataPatch } from '@shared/metadata/apply-metadata-patch';
import { presentVault } from '../domain/present';
import type { VaultsDeps } from '../deps';

type S = typeof vaultSubjects.update;

/** Omitted or null fields stay; metadata is patched. An archived vault is frozen. */
export const updateVault =
  (deps: VaultsDeps): Handler<S> =>
  ({ vault_id, update }, ctx) =>
    changeVault(deps, ctx, vault_id, async (tx, row) => {
      if (row.archivedAt) throw invalidRequest(`vault ${vault_id} is archived and cannot be changed`);
      const next = {
        ...row,
        displayName: update.display_name ?? row.displayName,
        metadata: applyMetadataPatch(row.metadata, update.metadata),
        updatedAt: deps.clock.now(),
      };
      await vaultWrites.update(tx, vault_id, {
        displayName: next.displayName,
        metadata: next.metadata,
        updatedAt: next.updatedAt,
      });
      return presentVault(next);
    });
