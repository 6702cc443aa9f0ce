import type { BusServer } from '@shared/bus/bus-server';
import { deploymentRunSubjects, deploymentSubjects } from '@shared/bus/subjects/deployments';
import { sessionSubjects } from '@shared/bus/subjects/sessions';
import type { DeploymentsCore } from './deployments-core';
import type { FireCore } from './fire-core';
import { archiveDeployment } from './handlers/archive-deployment';
import { createDeployment } from './handlers/create-deployment';
import { fireDeployment } from './handlers/fire-deployment';
import { getDeployment } from './handlers/get-deployment';
import { getRun } from './handlers/get-run';
import { getSession } from './handlers/get-session';
import { listDeployments } from './handlers/list-deployments';
import { listRuns } from './handlers/list-runs';
import { listSessions } from './handlers/list-sessions';
import { pauseDeployment } from './handlers/pause-deployment';
import { runDeployment } from './handlers/run-deployment';
import { unpauseDeployment } from './handlers/unpause-deployment';
import { updateDeployment } from './handlers/update-deployment';
import type { LifecycleCore } from './lifecycle-core';
import type { RunsCore } from './runs-core';

export interface DeploymentsCores {
  deployments: DeploymentsCore;
  lifecycle: LifecycleCore;
  fire: FireCore;
  runs: RunsCore;
}

/** Wires the deployments service's bus subjects to their handlers; nothing else. */
export function registerDeploymentHandlers(server: BusServer, cores: DeploymentsCores): void {
  server.handle(deploymentSubjects.create, createDeployment(cores.deployments));
  server.handle(deploymentSubjects.list, listDeployments(cores.deployments));
  server.handle(deploymentSubjects.get, getDeployment(cores.lifecycle));
  server.handle(deploymentSubjects.update, updateDeployment(cores.lifecycle));
  server.handle(deploymentSubjects.pause, pauseDeployment(cores.lifecycle));
  server.handle(deploymentSubjects.unpause, unpauseDeployment(cores.lifecycle));
  server.handle(deploymentSubjects.archive, archiveDeployment(cores.lifecycle));
  server.handle(deploymentSubjects.run, runDeployment(cores.fire));
  server.handle(deploymentSubjects.fire, fireDeployment(cores.fire));
  server.handle(deploymentRunSubjects.list, listRuns(cores.runs));
  server.handle(deploymentRunSubjects.get, getRun(cores.runs));
  server.handle(sessionSubjects.list, listSessions(cores.runs));
  server.handle(sessionSubjects.get, getSession(cores.runs));
}
