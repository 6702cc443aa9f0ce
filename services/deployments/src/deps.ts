import type { McpUrlRules } from '@shared/agents/mcp-server-url';
import type { MasterKeyRing } from '@shared/crypto/master-key-ring';
import type { Batcher } from '@shared/db/batcher';
import type { WriteBatcher } from '@shared/db/write-batcher';
import type { FireDeploymentReply } from '@shared/schema/deployment-run';
import type { StoreDeps } from '@shared/service-host/store-deps';
import type { AgentVersions } from './clients/agent-versions';
import type { AnnounceAppend } from './clients/appended-events-feed';
import type { ReferenceBus } from './clients/references';
import type { NewDeployment } from './db/deployments';
import type { FireWrite } from './db/record-fires';
import type { OccurrenceLookup, OccurrenceRead } from './db/runs';
import type { LogAppend } from './db/append-batch';
import type { AppendedToLog } from './db/session-log';
import type { NewSessionRecord } from './db/sessions';
import type { RepositoryUrlRules } from './domain/resources';

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
  /**
   * After an append to an existing session's log commits: what it added on the live feed, then
   * its notice (clients/appended-events-feed.ts). Every append's handler calls it instead of
   * `eventsRecorded`.
   */
  announceAppend: AnnounceAppend;
  /** Clients' sends and the runtime's appends, many to a transaction under load (db/append-batch.ts appendBatch). */
  logAppends: Batcher<LogAppend, AppendedToLog>;
  /** Agent versions' definitions, asked of the catalog once per replica (versions are immutable). */
  agents: AgentVersions;
  /**
   * The fires in progress at the same moment share their database work (handlers/fire-deployment.ts):
   * `reader` their first read (db/runs.ts findDeploymentsAndOccurrenceRuns), `writer` their
   * transaction (db/record-fires.ts writeFires). One batcher pair per replica, shared by the
   * scheduler's fires and the manual runs.
   */
  fires: {
    reader: Batcher<OccurrenceLookup, OccurrenceRead>;
    writer: Batcher<FireWrite, FireDeploymentReply | null>;
  };
}
