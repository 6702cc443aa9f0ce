/** How deep a chain is followed: drizzle wraps the driver's error once, our own code once or twice more. */
const MAX_CAUSE_DEPTH = 8;

/**
 * An error and its causes, outermost first (drizzle wraps the driver's error in
 * DrizzleQueryError, an ApiError wraps what it answers for). Bounded, so a cyclic chain ends.
 */
export function* causeChain(err: unknown): Generator<object> {
  let e: unknown = err;
  for (let depth = 0; e && typeof e === 'object' && depth < MAX_CAUSE_DEPTH; depth++) {
    yield e;
    e = (e as { cause?: unknown }).cause;
  }
}

/** Whether the error or one of its causes carries a MySQL/MariaDB errno in `errnos`. */
export function hasErrno(err: unknown, errnos: ReadonlySet<number>): boolean {
  for (const e of causeChain(err)) if (errnos.has((e as { errno?: unknown }).errno as number)) return true;
  return false;
}
