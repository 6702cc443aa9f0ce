import type { EventHandler } from '@shared/bus/event-consumer';
import type { SessionLogDeleted } from '@shared/schema/session-event';
import { forgetSessionSummaries } from '../db/context-summaries';
import type { RuntimeDeps } from '../deps';

/**
 * A deleted session -> what the runtime kept of its conversation (its context summaries,
 * db/context-summaries.ts) is deleted too: the log it summarized is gone. This replica's copy of
 * the log goes too (another replica's leaves with time: nothing drives a deleted session again).
 */
export const forgetSession =
  (deps: RuntimeDeps): EventHandler<typeof SessionLogDeleted> =>
  async (envelope) => {
    deps.knownLogs.forget(envelope.data.session_id);
    await forgetSessionSummaries(deps.db, { organization_id: envelope.organization_id, workspace_id: envelope.workspace_id }, envelope.data.session_id);
  };
