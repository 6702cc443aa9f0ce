import type { Handler } from '@shared/bus/bus-server';
import type { vaultCredentialSubjects } from '@shared/bus/subjects/vaults';
import { changeCredential } from './locked-change';
import { deleteCredential as deleteCredentialRow } from '../db/credentials';
import type { VaultsDeps } from '../deps';

type S = typeof vaultCredentialSubjects.delete;

export const deleteCredential =
  (deps: VaultsDeps): Handler<S> =>
  async (ids, ctx) => {
    await changeCredential(deps, ctx, ids, (tx) => deleteCredentialRow(tx, ids.credential_id));
    return { type: 'vault_credential_deleted' as const, id: ids.credential_id };
  };
