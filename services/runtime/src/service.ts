import type { NatsConnection } from '@nats-io/transport-node';
import type { BusServer } from '@shared/bus/bus-server';
import type { Telemetry } from '@shared/telemetry/telemetry';
import { startEventConsumer, type EventConsumer } from '@shared/bus/event-consumer';
import { mcpCredentialSubjects, workSubjects } from '@shared/bus/subjects/runtime';
import { sessionEvents } from '@shared/schema/session';
import { sessionLogEvents, type SessionLogDeleted } from '@shared/schema/session-event';
import type { EventEnvelope } from '@shared/bus/event';
import type { Static } from '@sinclair/typebox';
import { driveSession, type SessionNotice } from './handlers/drive-session';
import { forgetSession } from './handlers/forget-session';
import { ackWork } from './handlers/ack-work';
import { claimWork } from './handlers/claim-work';
import { failWork } from './handlers/fail-work';
import { reportWork } from './handlers/report-work';
import { getWork } from './handlers/get-work';
import { heartbeatWork } from './handlers/heartbeat-work';
import { listWork } from './handlers/list-work';
import { measureCloudWork } from './handlers/measure-cloud-work';
import { pollWork } from './handlers/poll-work';
import { stopWork } from './handlers/stop-work';
import { updateWork } from './handlers/update-work';
import { workStats } from './handlers/work-stats';
import { validateMcpCredential } from './handlers/validate-mcp-credential';
import type { RuntimeDeps } from './deps';

/**
 * The environments' work queues -> their handlers (the gateway serves them at
 * /v1/environments/{id}/work; `claim` is the sandbox workers' own), and the MCP credential probe.
 */
export function registerWorkHandlers(server: BusServer, deps: RuntimeDeps): void {
  server
    .serve(workSubjects, {
      poll: pollWork(deps),
      ack: ackWork(deps),
      heartbeat: heartbeatWork(deps),
      stop: stopWork(deps),
      get: getWork(deps),
      update: updateWork(deps),
      list: listWork(deps),
      stats: workStats(deps),
      claim: claimWork(deps),
      fail: failWork(deps),
      report: reportWork(deps),
    })
    .serve(mcpCredentialSubjects, { validate: validateMcpCredential(deps) });
}

/** How often the cloud work gauge is counted again: a scrape every 15-30 s sees a count at most this old. */
const CLOUD_WORK_GAUGE_MS = 5_000;

/** A timer -> measureCloudWork, now and then (wall time: the gauge is for Prometheus, whatever the injected clock says). */
export function startCloudWorkGauge(deps: RuntimeDeps): { stop(): void } {
  const measure = measureCloudWork(deps);
  const tick = () => void measure().catch((err) => deps.logger.warn('cloud work count failed', { error: err }));
  tick();
  const timer = setInterval(tick, CLOUD_WORK_GAUGE_MS);
  return { stop: () => clearInterval(timer) };
}

/** Where session notices come from: the durable consumer every replica shares. */
export interface SessionNoticeSource {
  nc: NatsConnection;
  prefix: string;
  durable: string;
  /** The service's traces (each handled event a span linked to the trace that published it). */
  telemetry?: Telemetry;
  /** Sessions driven at once by this replica (RUNTIME_CONCURRENCY); as many notices are pulled ahead. */
  concurrency: number;
  ackWaitMs: number;
}

/**
 * A new session, or a session's log that grew -> driveSession: each notice says a session may
 * have work; the log says what. Notices of the runtime's own appends come back too, and find
 * nothing to do or the next step. A deleted session -> forgetSession.
 */
export const subscribeSessionNotices = (deps: RuntimeDeps, source: SessionNoticeSource): Promise<EventConsumer> => {
  const drive = driveSession(deps);
  const forget = forgetSession(deps);
  type Deleted = EventEnvelope<Static<typeof SessionLogDeleted>>;
  type Notice = EventEnvelope<Static<SessionNotice>>;
  return startEventConsumer<SessionNotice | typeof SessionLogDeleted>({
    ...source,
    prefetch: source.concurrency,
    events: [sessionEvents.created, sessionLogEvents.appended, sessionLogEvents.deleted],
    logger: deps.logger,
    retryBaseMs: 250,
    retryMaxMs: 5000,
    handler: (envelope, delivery) =>
      envelope.type === sessionLogEvents.deleted.subject ? forget(envelope as Deleted, delivery) : drive(envelope as Notice, delivery),
  });
};
