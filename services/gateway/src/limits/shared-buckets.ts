import type { NatsConnection } from '@nats-io/transport-node';
import { jetstream, JetStreamApiCodes, JetStreamApiError, StorageType } from '@nats-io/jetstream';
import { Kvm, type KV, type KvEntry } from '@nats-io/kv';
import { chargedSince, fullLevel, levelAt, type BucketLevel, type BucketRule } from '../domain/token-bucket';

/**
 * How long a bucket's level is kept after its last change. By then every bucket is full again
 * (from the debt floor, one full bucket below zero, a refill takes two minutes), so a level the
 * server expired reads as the full bucket it would be: idle buckets cost nothing, no sweep needed.
 */
const LEVEL_TTL_MS = 3 * 60_000;
/**
 * The most the bucket may hold in the NATS server's memory (about 300,000 levels). Past it, new
 * levels are refused and the replicas limit those buckets alone (rate-limits.ts) until old ones
 * expire.
 */
const MAX_BYTES = 64 * 1024 * 1024;
/** A read or write that takes longer fails: a request waits for at most one read of this length. */
const KV_TIMEOUT_MS = 1000;
/** Compare-and-set rounds of one charge before it fails (the next sync charges it again). */
const CHARGE_ATTEMPTS = 5;

/**
 * The rate limit buckets every gateway replica shares: one JetStream key-value entry per bucket
 * (`{tokens, at}`), changed only by compare-and-set on the entry's revision, so two replicas
 * charging at once never lose each other's consumption. In memory on the NATS server: a restart
 * of it forgets the levels, which then read as full buckets.
 */
export class SharedBuckets {
  private constructor(private readonly kv: KV) {}

  static async open(nc: NatsConnection, bucket: string): Promise<SharedBuckets> {
    const kv = await new Kvm(jetstream(nc, { timeout: KV_TIMEOUT_MS })).create(bucket, {
      history: 1,
      ttl: LEVEL_TTL_MS,
      storage: StorageType.Memory,
      max_bytes: MAX_BYTES,
      maxValueSize: 256,
    });
    return new SharedBuckets(kv);
  }

  /** The bucket's level at `now`, as every replica has charged it so far. */
  async read(name: string, rule: BucketRule, now: number): Promise<BucketLevel> {
    return levelAt(rule, storedLevel(await this.kv.get(name)) ?? fullLevel(rule, now), now);
  }

  /**
   * Charges `spent` requests admitted since `since` (negative: hands tokens back) and returns the
   * level after it, at `now`. A concurrent charge by another replica makes the write fail on the
   * revision; the level is then read again and charged anew.
   */
  async charge(name: string, rule: BucketRule, spent: number, since: number, now: number): Promise<BucketLevel> {
    for (let attempt = 1; ; attempt++) {
      const entry = await this.kv.get(name);
      const stored = storedLevel(entry) ?? fullLevel(rule, now);
      if (spent === 0) return levelAt(rule, stored, now);
      const next = chargedSince(rule, stored, spent, since, now);
      try {
        // Revision 0: the entry must not exist (it never did, or it expired).
        await this.kv.put(name, JSON.stringify(next), { previousSeq: entry?.revision ?? 0 });
        return next;
      } catch (err) {
        if (attempt >= CHARGE_ATTEMPTS || !changedMeanwhile(err)) throw err;
      }
    }
  }
}

function storedLevel(entry: KvEntry | null): BucketLevel | undefined {
  if (!entry || entry.operation !== 'PUT') return undefined;
  try {
    const level = entry.json<BucketLevel>();
    // Anything else (written by a future version, damaged) reads as a full bucket.
    return Number.isFinite(level.tokens) && Number.isFinite(level.at) ? level : undefined;
  } catch {
    return undefined;
  }
}

const changedMeanwhile = (err: unknown) =>
  err instanceof JetStreamApiError &&
  (err.code === JetStreamApiCodes.StreamWrongLastSequence || err.code === JetStreamApiCodes.StreamWrongLastSequenceUnknown);
