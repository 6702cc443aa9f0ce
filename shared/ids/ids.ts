import { createHash, randomBytes } from 'node:crypto';

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

export const ID_PREFIXES = {
  deployment: 'depl_',
  vault: 'vlt_',
  credential: 'vcrd_',
  agent: 'agent_',
  environment: 'env_',
  file: 'file_',
  memoryStore: 'memstore_',
  /** A memory in a memory store (the SDK's `mem_…`). */
  memory: 'mem_',
  /** One recorded change of a memory (the SDK's `memver_…`). */
  memoryVersion: 'memver_',
  /** A custom skill (the SDK's `skill_…`). */
  skill: 'skill_',
  /** One uploaded version of a skill; its id pins it in an agent's `skills`. */
  skillVersion: 'skillver_',
  session: 'sesn_',
  /** A resource mounted into a session (the SDK's `sesrsc_…`). */
  sessionResource: 'sesrsc_',
  /** An outcome a `user.define_outcome` event defines (the SDK's `outc_…`). */
  outcome: 'outc_',
  /** An event of a session's log (the SDK's `sevt_…`). */
  sessionEvent: 'sevt_',
  deploymentRun: 'drun_',
  /** An environment work queue item (the SDK's `work_…`). */
  work: 'work_',
  request: 'req_',
  apiKey: 'key_',
  event: 'evt_',
} as const;
export type IdKind = keyof typeof ID_PREFIXES;

/**
 * Random base62 text. Rejection sampling keeps every character equally likely, so ids are
 * not guessable and carry no creation order to the outside.
 */
export function randomBase62(length: number): string {
  let out = '';
  while (out.length < length) {
    const byte = randomByte();
    if (byte < 248) out += BASE62[byte % 62];
  }
  return out;
}

/**
 * The operating system's random bytes, drawn 4 KiB at a time and each used once: an id asked
 * for its own 48 (a buffer and a call each, about twenty ids a turn).
 */
const RANDOM_POOL_BYTES = 4096;
let randomPool = Buffer.alloc(0);
let randomTaken = 0;

function randomByte(): number {
  if (randomTaken === randomPool.length) {
    randomPool = randomBytes(RANDOM_POOL_BYTES);
    randomTaken = 0;
  }
  return randomPool[randomTaken++]!;
}

export function newId(kind: IdKind): string {
  return ID_PREFIXES[kind] + randomBase62(24);
}

/**
 * The id of a thing that has no row of its own yet, derived from what it belongs to (`seed`,
 * e.g. `<session id>/resources/3`): the same seed gives the same id on every replica, and it is
 * as unguessable as the random id the seed contains. Used where writing an id per item would
 * cost more than deriving it (a fire copying a deployment's resources into a session).
 */
export function derivedId(kind: IdKind, seed: string): string {
  const digest = createHash('sha256').update(seed).digest();
  let out = '';
  // 32 bytes, 5.95 bits of base62 each at most: rejection sampling over 248 keeps it uniform,
  // and a second digest round supplies more bytes in the (rare) case 24 were not accepted.
  for (let round = digest; out.length < ID_RANDOM_LENGTH; round = createHash('sha256').update(round).digest()) {
    for (const byte of round) {
      if (byte < 248) out += BASE62[byte % 62];
      if (out.length === ID_RANDOM_LENGTH) break;
    }
  }
  return ID_PREFIXES[kind] + out;
}

/** Length of the random part of every id `newId` makes. */
export const ID_RANDOM_LENGTH = 24;

/**
 * The exact form of an id of one kind: its prefix, then 24 base62 characters, nothing else. A
 * value outside it names nothing, so it is refused before any lookup: the databases' PAD SPACE
 * collations would otherwise find `depl_… ` (trailing space) as `depl_…`.
 */
export const idPattern = (kind: IdKind) => `^${ID_PREFIXES[kind]}[0-9A-Za-z]{${ID_RANDOM_LENGTH}}$`;

const exactForms = new Map<IdKind, RegExp>();
export function isIdOf(kind: IdKind, value: string): boolean {
  let form = exactForms.get(kind);
  if (!form) {
    form = new RegExp(idPattern(kind));
    exactForms.set(kind, form);
  }
  return form.test(value);
}
