import type { BusServer } from '@shared/bus/bus-server';
import { deploymentRunSubjects, deploymentSubjects } from '@shared/bus/subjects/deployments';
import { sessionEventSubjects } from '@shared/bus/subjects/session-events';
import { sessionResourceSubjects, sessionSubjects } from '@shared/bus/subjects/sessions';
import { addSessionResource } from './handlers/add-session-resource';
import { appendRuntimeEvents } from './handlers/append-runtime-events';
import { archiveDeployment } from './handlers/archive-deployment';
import { archiveSession } from './handlers/archive-session';
import { createDeployment } from './handlers/create-deployment';
import { createSession } from './handlers/create-session';
import { deleteSession } from './handlers/delete-session';
import { deleteSessionResource } from './handlers/delete-session-resource';
import { fireDeployment, runDeployment } from './handlers/fire-deployment';
import { followSessionEvents } from './handlers/follow-session-events';
import { getDeployment } from './handlers/get-deployment';
import { getRun } from './handlers/get-run';
import { getSession } from './handlers/get-session';
import { getSessionResource } from './handlers/get-session-resource';
import { listDeployments } from './handlers/list-deployments';
import { listRuns } from './handlers/list-runs';
import { listSessionEvents } from './handlers/list-session-events';
import { listSessionResources } from './handlers/list-session-resources';
import { listSessions } from './handlers/list-sessions';
import { pauseDeployment } from './handlers/pause-deployment';
import { sendSessionEvents } from './handlers/send-session-events';
import { unpauseDeployment } from './handlers/unpause-deployment';
import { updateDeployment } from './handlers/update-deployment';
import { updateSession } from './handlers/update-session';
import { resolveSessionMounts } from './handlers/resolve-session-mounts';
import { updateSessionResource } from './handlers/update-session-resource';
import type { DeploymentsDeps } from './deps';

/** Wires the deployments service's bus subjects to their handlers; nothing else. */
export function registerDeploymentHandlers(server: BusServer, deps: DeploymentsDeps): void {
  server
    .serve(deploymentSubjects, {
      create: createDeployment(deps),
      list: listDeployments(deps),
      get: getDeployment(deps),
      update: updateDeployment(deps),
      pause: pauseDeployment(deps),
      unpause: unpauseDeployment(deps),
      archive: archiveDeployment(deps),
      run: runDeployment(deps),
      fire: fireDeployment(deps),
    })
    .serve(deploymentRunSubjects, { list: listRuns(deps), get: getRun(deps) })
    .serve(sessionEventSubjects, {
      list: listSessionEvents(deps),
      send: sendSessionEvents(deps),
      follow: followSessionEvents(deps),
      append: appendRuntimeEvents(deps),
    })
    .serve(sessionSubjects, {
      create: createSession(deps),
      list: listSessions(deps),
      get: getSession(deps),
      update: updateSession(deps),
      archive: archiveSession(deps),
      delete: deleteSession(deps),
    })
    .serve(sessionResourceSubjects, {
      list: listSessionResources(deps),
      add: addSessionResource(deps),
      get: getSessionResource(deps),
      update: updateSessionResource(deps),
      delete: deleteSessionResource(deps),
      resolve: resolveSessionMounts(deps),
    });
}
