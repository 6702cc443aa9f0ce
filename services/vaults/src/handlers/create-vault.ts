import { newRowColumns } from '@shared/db/columns';
import type { Handler } from '@shared/bus/bus-server';
import { tenantOf } from '@shared/bus/call-context';
import type { vaultSubjects } from '@shared/bus/subjects/vaults';
import { generateDataKey, wrapDataKey } from '@shared/crypto/envelope';
import { newId } from '@shared/ids/ids';
import { vaultWrites } from '../db/vaults';
import { presentVault } from '../domain/present';
import type { VaultsDeps } from '../deps';

type S = typeof vaultSubjects.create;

/** A new vault gets its own data key, stored only wrapped by the active master key. */
export const createVault =
  (deps: VaultsDeps): Handler<S> =>
  async (request, ctx) => {
    const tenant = tenantOf(ctx);
    const id = newId('vault');
    const now = deps.clock.now();
    const dataKey = generateDataKey();
    const wrapped = wrapDataKey(deps.keys, dataKey, id);
    dataKey.fill(0);
    const row = {
      ...newRowColumns(id, tenant, now),
      displayName: request.display_name,
      metadata: request.metadata ?? {},
      dataKeyId: wrapped.keyId,
      wrappedDataKey: wrapped.wrapped,
    };
    await vaultWrites.insert(deps.db, row);
    return presentVault(row);
  };
