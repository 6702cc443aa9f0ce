import type { Handler } from '@shared/bus/bus-server';
import type { vaultCredentialSubjects } from '@shared/bus/subjects/vaults';
import { changeCredential } from './locked-change';
import { markCredentialArchived } from '../db/credentials';
import { presentCredential } from '../domain/present';
import type { VaultsDeps } from '../deps';

type S = typeof vaultCredentialSubjects.archive;

/** One-way and idempotent; the record stays for reference, its sealed secret is destroyed. */
export const archiveCredential =
  (deps: VaultsDeps): Handler<S> =>
  (ids, ctx) =>
    changeCredential(deps, ctx, ids, async (tx, { credential }) => {
      if (credential.archivedAt) return presentCredential(credential);
      const now = deps.clock.now();
      await markCredentialArchived(tx, ids.credential_id, now);
      return presentCredential({ ...credential, archivedAt: now, updatedAt: now, sealedSecret: null });
    });
