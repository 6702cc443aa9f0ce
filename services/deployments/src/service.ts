import type { BusServer } from '@shared/bus/bus-server';
import type { McpUrlRules } from '@shared/agents/mcp-server-url';
import type { TenantLanes } from '@shared/bus/tenant-bulkhead';
import { deploymentRunSubjects, deploymentSubjects } from '@shared/bus/subjects/deployments';
import { sessionEventSubjects } from '@shared/bus/subjects/session-events';
import { sessionResourceSubjects, sessionSubjects } from '@shared/bus/subjects/sessions';
import type { MasterKeyRing } from '@shared/crypto/master-key-ring';
import type { WriteBatcher } from '@shared/db/write-batcher';
import type { StoreDeps } from '@shared/service-host/store-deps';
import type { AgentVersions } from './clients/agent-versions';
import type { ReferenceBus } from './clients/references';
import type { NewDeployment } from './db/deployments';
import type { NewSessionRecord } from './db/sessions';
import type { RepositoryUrlRules } from './domain/resources';
import { addSessionResource } from './handlers/add-session-resource';
import { appendRuntimeEvents } from './handlers/append-runtime-events';
import { archiveDeployment } from './handlers/archive-deployment';
import { archiveSession } from './handlers/archive-session';
import { createDeployment } from './handlers/create-deployment';
import { createSession } from './handlers/create-session';
import { deleteSession } from './handlers/delete-session';
import { deleteSessionResource } from './handlers/delete-session-resource';
import { fireDeployment } from './handlers/fire-deployment';
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
import { runDeployment } from './handlers/run-deployment';
import { sendSessionEvents } from './handlers/send-session-events';
import { unpauseDeployment } from './handlers/unpause-deployment';
import { updateDeployment } from './handlers/update-deployment';
import { updateSession } from './handlers/update-session';
import { updateSessionResource } from './handlers/update-session-resource';

/** What every deployments handler is given, built once by start-deployments.ts: the runtime's (`StoreDeps`: db, clock, eventsRecorded), and these. */
export interface DeploymentsDeps extends StoreDeps {
  /** Asks the catalog (through this replica's reference cache) and the vaults service about references (clients/references.ts). */
  bus: ReferenceBus;
  /** Wraps each deployment's data key, which seals its repository tokens. */
  masterKeys: MasterKeyRing;
  /** Which repository URL schemes are accepted (https only unless the setting allows http). */
  repositoryUrls: RepositoryUrlRules;
  /** `ALLOW_PRIVATE_MCP_URLS`: what the MCP servers of a session's agent update may name. */
  mcpUrls: McpUrlRules;
  /** Stores new deployments, many to a transaction under load (db/deployments.ts insertDeployments). */
  creations: WriteBatcher<NewDeployment>;
  /** Stores new API sessions, many to a transaction under load (db/sessions.ts recordNewSessions, the fire's write too). */
  sessionCreations: WriteBatcher<NewSessionRecord>;
  /** Agent versions' definitions, asked of the catalog once per replica (versions are immutable). */
  agents: AgentVersions;
  /**
   * Per-tenant lanes for batchers that requests wait in after handing their bulkhead slot back
   * (creates, fires): tenants taken in turn, each bounded like the bulkhead's queue.
   */
  tenantLanes: TenantLanes;
}

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
