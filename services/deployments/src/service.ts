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
import { updateSessionResource } from './handlers/update-session-resource';
import type { DeploymentsDeps } from './deps';

/** Wires the deployments service's bus subjects to their handlers; nothing else. */
export function registerDeploymentHandlers(server: BusServer, deps: DeploymentsDeps): void {
  server
    .handle(deploymentSubjects.create, createDeployment(deps))
    .handle(deploymentSubjects.list, listDeployments(deps))
    .handle(deploymentSubjects.get, getDeployment(deps))
    .handle(deploymentSubjects.update, updateDeployment(deps))
    .handle(deploymentSubjects.pause, pauseDeployment(deps))
    .handle(deploymentSubjects.unpause, unpauseDeployment(deps))
    .handle(deploymentSubjects.archive, archiveDeployment(deps))
    .handle(deploymentSubjects.run, runDeployment(deps))
    .handle(deploymentSubjects.fire, fireDeployment(deps))
    .handle(deploymentRunSubjects.list, listRuns(deps))
    .handle(deploymentRunSubjects.get, getRun(deps))
    .handle(sessionEventSubjects.list, listSessionEvents(deps))
    .handle(sessionEventSubjects.send, sendSessionEvents(deps))
    .handle(sessionEventSubjects.follow, followSessionEvents(deps))
    .handle(sessionEventSubjects.append, appendRuntimeEvents(deps))
    .handle(sessionSubjects.create, createSession(deps))
    .handle(sessionSubjects.list, listSessions(deps))
    .handle(sessionSubjects.get, getSession(deps))
    .handle(sessionSubjects.update, updateSession(deps))
    .handle(sessionSubjects.archive, archiveSession(deps))
    .handle(sessionSubjects.delete, deleteSession(deps))
    .handle(sessionResourceSubjects.list, listSessionResources(deps))
    .handle(sessionResourceSubjects.add, addSessionResource(deps))
    .handle(sessionResourceSubjects.get, getSessionResource(deps))
    .handle(sessionResourceSubjects.update, updateSessionResource(deps))
    .handle(sessionResourceSubjects.delete, deleteSessionResource(deps));
}
