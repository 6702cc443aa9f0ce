import type { Handler } from '@shared/bus/bus-server';
import { tenantOf } from '@shared/bus/call-context';
import type { sessionResourceSubjects } from '@shared/bus/subjects/sessions';
import { found } from '@shared/errors/api-error';
import { changeSessionResources, deleteSessionSecret, updateSession } from '../db/sessions';
import { sessionResourceNotFound } from '../domain/session-resources';
import type { DeploymentsDeps } from '../deps';

/** Removes a resource from a session, its sealed token with it; a memory store no longer mounted leaves the memory_store_id filter. */
export const deleteSessionResource =
  (deps: DeploymentsDeps): Handler<typeof sessionResourceSubjects.delete> =>
  async ({ session_id: id, resource_id }, ctx) =>
    changeSessionResources(deps.db, tenantOf(ctx), id, 'changed', async (tx, row, resources) => {
      found(
        resources.find((r) => r.id === resource_id),
        () => sessionResourceNotFound(id, resource_id),
      );
      await updateSession(tx, row, { resources: resources.filter((r) => r.id !== resource_id), updatedAt: deps.clock.now() });
      await deleteSessionSecret(tx, row.id, resource_id);
      return { id: resource_id, type: 'session_resource_deleted' as const };
    });
