import { causeChain } from '../errors/cause-chain';
import { ApiError } from '../errors/api-error';

/**
 * Faults of the database itself, not of the request: it is unreachable, went away mid-query,
 * refuses more connections, is shutting down or read-only during a failover, the pool had no
 * connection to give in time, or a deadlock outlived its retries. Callers answer these with
 * 503 overloaded_error, which clients retry; anything else (a schema error, a constraint) is
 * a real error and stays one.
 */
const UNAVAILABLE_CODES = new Set([
  // Network, from Node's socket layer.
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
  // mysql2's own: the connection broke or was closed under a command.
  'PROTOCOL_CONNECTION_LOST',
  'PROTOCOL_SEQUENCE_TIMEOUT',
  'PROTOCOL_ENQUEUE_AFTER_FATAL_ERROR',
  'PROTOCOL_ENQUEUE_AFTER_QUIT',
  // Set by shared/db/connect.ts on mysql2's code-less pool errors.
  'POOL_ACQUIRE_TIMEOUT',
  'POOL_QUEUE_LIMIT',
  'POOL_CLOSED',
]);

const UNAVAILABLE_ERRNOS = new Set([
  1040, // ER_CON_COUNT_ERROR: too many connections
  1041, // ER_OUT_OF_RESOURCES
  1053, // ER_SERVER_SHUTDOWN
  1135, // ER_CANT_CREATE_THREAD
  1203, // ER_TOO_MANY_USER_CONNECTIONS
  1205, // ER_LOCK_WAIT_TIMEOUT (after retryTransient's attempts)
  1213, // ER_LOCK_DEADLOCK (after retryTransient's attempts)
  1290, // ER_OPTION_PREVENTS_STATEMENT: --read-only during a failover
  1317, // ER_QUERY_INTERRUPTED: the query was killed
  1836, // ER_READ_ONLY_MODE
  1927, // ER_CONNECTION_KILLED (MariaDB)
  2006, // CR_SERVER_GONE_ERROR
  2013, // CR_SERVER_LOST
  4031, // ER_CLIENT_INTERACTION_TIMEOUT (MySQL 8: disconnected for inactivity)
]);

/** Whether the error or one of its causes is a fault of the database, not of the request. */
export function isDatabaseUnavailable(err: unknown): boolean {
  for (const e of causeChain(err)) {
    const { code, errno, fatal } = e as { code?: unknown; errno?: unknown; fatal?: unknown };
    if (typeof code === 'string' && UNAVAILABLE_CODES.has(code)) return true;
    if (typeof errno === 'number' && UNAVAILABLE_ERRNOS.has(errno)) return true;
    // mysql2 marks errors that end the connection (network, protocol) as fatal.
    if (fatal === true && (e as { sqlState?: unknown }).sqlState === undefined) return true;
  }
  return false;
}

/**
 * The error a request boundary answers with: a database fault becomes 503 overloaded_error
 * (its cause kept for the log, its text never shown), anything else is returned unchanged.
 */
export function asOverloadedIfDatabaseUnavailable(err: unknown): unknown {
  if (err instanceof ApiError || !isDatabaseUnavailable(err)) return err;
  return new ApiError('overloaded_error', 'The service is temporarily unavailable; retry the request', { cause: err });
}
