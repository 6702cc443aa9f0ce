import type { Handler } from '@shared/bus/bus-server';
import { tenantOf } from '@shared/bus/call-context';
import type { vaultSubjects } from '@shared/bus/subjects/vaults';
import { listVaultPage } from '../db/vaults';
import { presentVault } from '../domain/present';
import type { VaultsDeps } from '../deps';

type S = typeof vaultSubjects.list;

export const listVaults =
  (deps: VaultsDeps): Handler<S> =>
  async (request, ctx) =>
    listVaultPage(deps.db, tenantOf(ctx), request, presentVault);
