import type { Handler } from '@shared/bus/bus-server';
import { tenantOf } from '@shared/bus/call-context';
import type { vaultSubjects } from '@shared/bus/subjects/vaults';
import { findVaultStates } from '../db/vaults';
import type { VaultsDeps } from '../deps';

type S = typeof vaultSubjects.check;

/** One query for all ids; each answered in request order as ok, archived or not_found. */
export const checkVaults =
  (deps: VaultsDeps): Handler<S> =>
  async ({ vault_ids }, ctx) => {
    const found = await findVaultStates(deps.db, tenantOf(ctx), [...new Set(vault_ids)]);
    const byId = new Map(found.map((v) => [v.id, v]));
    return {
      vaults: vault_ids.map((id) => {
        const vault = byId.get(id);
        return { id, state: !vault ? ('not_found' as const) : vault.archivedAt ? ('archived' as const) : ('ok' as const) };
      }),
    };
  };
