import type { Handler } from '@shared/bus/bus-server';
import { tenantOf } from '@shared/bus/call-context';
import type { vaultCredentialSubjects } from '@shared/bus/subjects/vaults';
import { listCredentialPage } from '../db/credentials';
import { findVault } from '../db/vaults';
import { presentCredential } from '../domain/present';
import { vaultNotFound } from '../domain/not-found';
import type { VaultsDeps } from '../deps';

type S = typeof vaultCredentialSubjects.list;

export const listCredentials =
  (deps: VaultsDeps): Handler<S> =>
  async (request, ctx) => {
    const vaultId = request.filters.vault_id;
    if (!(await findVault(deps.db, tenantOf(ctx), vaultId))) throw vaultNotFound(vaultId);
    return listCredentialPage(deps.db, request, presentCredential);
  };
