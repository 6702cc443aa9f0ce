import type { Work } from '@shared/schema/work';

/** A user and group a session's process runs as. */
export interface SandboxIdentity {
  uid: number;
  gid: number;
}

/**
 * Who a session's process runs as: the configured user when this worker runs as root (only root
 * may hand a child another uid); otherwise undefined, the worker's own user.
 */
export function sandboxIdentity(workerUid: number, runAs: { uid?: number; gid?: number }): SandboxIdentity | undefined {
  if (workerUid !== 0 || runAs.uid === undefined) return undefined;
  return { uid: runAs.uid, gid: runAs.gid ?? runAs.uid };
}

/**
 * The whole environment of a session's process: its one work item (what the SDK's
 * `handleItem()` reads), the gateway, PATH for the tools' programs, and HOME in its scratch
 * directory. Nothing of the worker's own (its NATS identity, TLS files, any other setting): the
 * tool code the session runs is the model's, so it sees one short-lived token, scoped by the
 * gateway to this session and this item, and nothing else to use or leak.
 */
export function sandboxEnvironment(item: Work, settings: { gatewayUrl: string; path: string; scratch: string }): Record<string, string> {
  if (!item.secret) throw new Error(`work ${item.id} was handed out without its secret`);
  return {
    ANTHROPIC_WORK_ID: item.id,
    ANTHROPIC_ENVIRONMENT_ID: item.environment_id,
    ANTHROPIC_SESSION_ID: item.data.id,
    ANTHROPIC_WORK_SECRET: item.secret,
    ANTHROPIC_BASE_URL: settings.gatewayUrl,
    PATH: settings.path,
    HOME: settings.scratch,
  };
}

/** How long shutdown lets the session in progress run on: the grace period less the time to kill it and remove its directory. */
export function drainTime(shutdownGraceMs: number): number {
  return Math.max(0, shutdownGraceMs - Math.min(1000, Math.floor(shutdownGraceMs / 5)));
}
