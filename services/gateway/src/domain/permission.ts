import { permissionDenied } from '@shared/errors/api-error';
import type { Tenant } from '@shared/schema/tenant';

const READ_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** Optional on every route: when sent, it must name the key's own workspace. */
export const WORKSPACE_HEADER = 'anthropic-workspace-id';

/** 403s: a read-only key on a mutating route, or a workspace header that is not the key's. */
export function checkPermission(tenant: Tenant, method: string, headers: Headers): void {
  const workspace = headers.get(WORKSPACE_HEADER);
  if (workspace !== null && workspace !== tenant.workspace_id) {
    throw permissionDenied('anthropic-workspace-id does not match the API key\'s workspace');
  }
  if (tenant.scope === 'read_only' && !READ_METHODS.has(method)) {
    throw permissionDenied('this API key is read-only');
  }
}
