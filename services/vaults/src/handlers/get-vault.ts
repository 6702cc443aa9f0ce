import type { Handler } from '@shared/bus/bus-server';
import { tenantOf } from '@shared/bus/call-context';
import { found } from '@shared/errors/api-error';
import type { vaultSubjects } from '@shared/bus/subjects/vaults';
import { findVault } from '../db/vaults';
import { presentVault } from '../domain/present';
import { vaultNotFound } from '../domain/not-found';
import type { VaultsDeps } from '../deps';

type S = typeof vaultSubjects.get;

export const getVault =
  (deps: VaultsDeps): Handler<S> =>
  async ({ vault_id }, ctx) => {
    return presentVault(found(await findVault(deps.db, tenantOf(ctx), vault_id), () => vaultNotFound(vault_id)));
  };
