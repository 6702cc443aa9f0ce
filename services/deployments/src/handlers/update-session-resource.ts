import type { Handler } from '@shared/bus/bus-server';
import { tenantOf } from '@shared/bus/call-context';
import type { sessionResourceSubjects } from '@shared/bus/subjects/sessions';
import { found } from '@shared/errors/api-error';
import { changeSessionResources, putSessionSecret, updateSession } from '../db/sessions';
import { sealSessionTokens } from '../domain/repository-tokens';
import { checkTokenRotation, sessionResourceNotFound } from '../domain/session-resources';
import type { DeploymentsDeps } from '../deps';

/**
 * Rotates a repository resource's token (SDK ResourceUpdateParams: the only field): sealed under
 * the session's data key (made now if it has none: a fired session's tokens were its
 * deployment's), bound to the resource's id, replacing the one it had; never echoed. The
 * resource's `updated_at` moves.
 */
export const updateSessionResource =
  (deps: DeploymentsDeps): Handler<typeof sessionResourceSubjects.update> =>
  async ({ session_id: id, resource_id, update }, ctx) =>
    changeSessionResources(deps.db, tenantOf(ctx), id, 'changed', async (tx, row, resources) => {
      const at = resources.findIndex((r) => r.id === resource_id);
      const resource = found(resources[at], () => sessionResourceNotFound(id, resource_id));
      checkTokenRotation(resource);
      const now = deps.clock.now();
      const existingKey = row.dataKeyId && row.dataKeyWrapped ? { keyId: row.dataKeyId, wrapped: row.dataKeyWrapped } : null;
      const sealed = sealSessionTokens(deps.masterKeys, row.id, [{ resourceId: resource.id, token: update.authorization_token }], existingKey);
      const rotated = { ...resource, updated_at: now.toISOString() };
      await updateSession(tx, row, {
        resources: resources.map((r, i) => (i === at ? rotated : r)),
        dataKeyId: sealed.dataKey?.keyId ?? null,
        dataKeyWrapped: sealed.dataKey?.wrapped ?? null,
        updatedAt: now,
      });
      await putSessionSecret(tx, row.id, resource.id, sealed.secrets[0]!.sealed);
      return rotated;
    });
