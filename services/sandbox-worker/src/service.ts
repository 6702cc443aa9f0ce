import type { SandboxWorkerDeps } from './deps';
import { claimSessions, type ClaimLoop } from './handlers/claim-sessions';
import { serveWorkItem } from './handlers/serve-work-item';

/** The worker's start -> claimSessions, which hands each claimed item to serveWorkItem, one session at a time. */
export const startSandboxSessions = (deps: SandboxWorkerDeps): ClaimLoop =>
  claimSessions(deps, { claim: () => deps.claims.next(), serve: serveWorkItem(deps) });
