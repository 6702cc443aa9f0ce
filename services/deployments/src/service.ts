import type { BusServer } from '../../../shared/bus/bus-server';
import { deploymentSubjects } from '../../../shared/bus/subjects/deployments';
import { listDeployments } from './handlers/list-deployments';

/** Wires the deployments service's bus subjects to their handlers; nothing else. */
export function registerDeploymentHandlers(server: BusServer): void {
  server.handle(deploymentSubjects.list, listDeployments());
}
