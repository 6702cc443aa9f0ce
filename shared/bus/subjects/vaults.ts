import { CheckVaultsReply, CheckVaultsRequest } from '../../schema/references';
import { defineSubject } from '../subject';

const SERVICE = 'vaults';

/** The vaults issue adds the resource subjects here (create, get, list, update, archive, delete, credentials). */
export const vaultSubjects = {
  /** Whether vault ids exist and are usable in the caller's tenant, many at once. */
  checkVaults: defineSubject(SERVICE, 'vaults.check', CheckVaultsRequest, CheckVaultsReply),
};
