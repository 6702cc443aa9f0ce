import { Type, type Static } from '@sinclair/typebox';
import { Closed, IdOf, Nullable } from './common';
import { CloudNetworking, Packages } from './environment';
import { Work } from './work';

/**
 * What a cloud session's sandbox must enforce, handed to the sandbox worker with the item it
 * claims (`runtime.work.claim`): the environment's networking and packages as they are at the
 * claim, and the hosts of the session's agent's MCP servers (let out under `limited` with
 * `allow_mcp_servers`).
 */
export const SandboxPolicy = Closed({
  networking: CloudNetworking,
  packages: Packages,
  mcp_server_urls: Type.Array(Type.String()),
});
export type SandboxPolicy = Static<typeof SandboxPolicy>;

export const ClaimedWork = Closed({ work: Work, sandbox: SandboxPolicy });
export type ClaimedWork = Static<typeof ClaimedWork>;
export const ClaimWorkReply = Nullable(ClaimedWork);

/**
 * `runtime.work.fail` (the sandbox workers only): the session of a claimed item could not start
 * (its packages failed to install, no sandbox could be made); the item is stopped and the calls
 * it was there to run are answered as failed, under a session.error with `message`.
 */
export const FailWorkRequest = Closed({
  work_id: IdOf('work'),
  message: Type.String({ minLength: 1, maxLength: 2000 }),
});
