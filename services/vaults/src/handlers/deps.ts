import type { CallContext } from '@shared/bus/call-context';
import type { Database } from '@shared/db/connect';
import type { MasterKeyRing } from '@shared/crypto/master-key-ring';
import { invalidRequest, notFound } from '@shared/errors/api-error';
import type { Logger } from '@shared/log/logger';
import type { Tenant } from '@shared/schema/tenant';
import type { Clock } from '@shared/time/clock';

/** What every vaults handler is built from, injected by start-vaults (and by tests that need another clock or key ring). */
export interface VaultsDeps {
  db: Database;
  clock: Clock;
  keys: MasterKeyRing;
  logger: Logger;
  /** Called after a commit that recorded events, so they leave at once. */
  eventsRecorded: () => void;
}

/** Every vault belongs to a tenant; a call without one is a caller bug, never a cross-tenant read. */
export function tenantOf(ctx: CallContext): Tenant {
  if (!ctx.tenant) throw invalidRequest('a tenant is required for vault operations');
  return ctx.tenant;
}

export const vaultNotFound = (id: string) => notFound(`vault ${id} not found`);
export const credentialNotFound = (id: string) => notFound(`credential ${id} not found`);
