import { Type, type Static } from '@sinclair/typebox';
import { Closed, IdOf, Nullable } from './common';
import { CloudNetworking, Packages } from './environment';
import { REPOSITORY_ERROR_TYPES } from './session-event-log';
import { Checkout } from './session-resource';
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

/**
 * What a session mounts in its sandbox, its repository tokens opened: `session_resources.resolve`
 * (the runtime's only, for a claim), never an API reply. A token that cannot be opened (its
 * deployment's resources changed since the fire) is null: the clone fails with
 * repository_authentication_error.
 */
export const SessionMounts = Closed({
  repositories: Type.Array(
    Closed({
      resource_id: Type.String(),
      url: Type.String(),
      mount_path: Type.String(),
      checkout: Nullable(Checkout),
      authorization_token: Nullable(Type.String()),
    }),
  ),
  files: Type.Array(Closed({ resource_id: Type.String(), file_id: Type.String(), mount_path: Type.String() })),
});
export type SessionMounts = Static<typeof SessionMounts>;
export const ResolveSessionMountsRequest = Closed({ session_id: IdOf('session') });

/**
 * An `environment_variable` credential of the session's vaults, as its sandbox uses it: inside,
 * the variable holds a placeholder; the sandbox's egress proxy puts `value` in its place in
 * requests to `hosts` (null: any host), in headers and/or bodies as `injection_location` says.
 */
export const SandboxSecret = Closed({
  name: Type.String(),
  value: Type.String(),
  hosts: Nullable(Type.Array(Type.String())),
  header: Type.Boolean(),
  body: Type.Boolean(),
});
export type SandboxSecret = Static<typeof SandboxSecret>;

export const ClaimedWork = Closed({
  work: Work,
  sandbox: SandboxPolicy,
  mounts: SessionMounts,
  secrets: Type.Array(SandboxSecret),
  /** The item's tenant: the sandbox worker reads the session's files with it. */
  owner: Closed({ organization_id: Type.String(), workspace_id: Type.String() }),
});
export type ClaimedWork = Static<typeof ClaimedWork>;
export const ClaimWorkReply = Nullable(ClaimedWork);

/** The SDK's session error kinds a session that cannot start may end with (BetaManagedAgentsSessionError's). */
/**
 * `runtime.work.fail` (the sandbox workers only): the session of a claimed item could not start
 * (its packages failed to install, no sandbox could be made); the item is stopped and the calls
 * it was there to run are answered as failed, under a session.error carrying `message`.
 */
export const FailWorkRequest = Closed({
  work_id: IdOf('work'),
  message: Type.String({ minLength: 1, maxLength: 2000 }),
});

/**
 * `runtime.work.report` (the sandbox workers only): a repository of the session could not be
 * cloned; the session runs on without it, and its log gets the SDK's session.error for it
 * (`retrying`: "the session keeps running without the repository").
 */
export const ReportRepositoryErrorRequest = Closed({
  work_id: IdOf('work'),
  error: Closed({
    type: Type.Union(REPOSITORY_ERROR_TYPES.map((t) => Type.Literal(t))),
    message: Type.String({ minLength: 1, maxLength: 2000 }),
    repository_url: Type.String({ maxLength: 2048 }),
  }),
});
