import type { SandboxWorkerDeps } from './deps';
import { startClaimLoop, type ClaimLoop } from './claim-loop';
import { serveWorkItem } from './handlers/serve-work-item';

/** The claim loop -> serveWorkItem, one session at a time. */
export const startSandboxSessions = (deps: SandboxWorkerDeps): ClaimLoop =>
  startClaimLoop(deps, { claim: () => deps.claims.next(), serve: serveWorkItem(deps) });
