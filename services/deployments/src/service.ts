import type { BusServer } from '../../../shared/bus/bus-server';
import { deploymentSubjects } from '../../../shared/bus/subjects/deployments';
import type { DeploymentsCore } from './deployments-core';
import { createDeployment } from './handlers/create-deployment';
import { listDeployments } from './handlers/list-deployments';

/** Wires the deployments service's bus subjects to their handlers; nothing else. */
export function registerDeploymentHandlers(server: BusServer, core: DeploymentsCore): void {
  server.handle(deploymentSubjects.create, createDeployment(core));
  server.handle(deploymentSubjects.list, listDeployments(core));
}
