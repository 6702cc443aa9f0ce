import { jetstream, type JetStreamClient } from '@nats-io/jetstream';
import type { NatsConnection } from '@nats-io/transport-node';
import { and, asc, inArray, isNotNull, isNull, lt } from 'drizzle-orm';
import type { Database } from '../db/connect';
import type { OutboxTable } from '../db/outbox-table';
import type { Logger } from '../log/logger';
import type { Clock } from '../time/clock';
import { eventSubject } from './streams';

export interface OutboxRelayOptions {
  prefix: string;
  logger: Logger;
  clock: Clock;
  pollMs?: number;
  batchSize?: number;
  /** Published rows are kept this long for inspection, then deleted. */
  retentionMs?: number;
}

/**
 * Publishes outbox rows to JetStream. Rows are claimed with SKIP LOCKED so every replica can
 * relay; each is published with its event id as msgID, so a relay that dies between publishing
 * and marking the row is deduplicated by the stream when the next one republishes it.
 */
export class OutboxRelay {
  private readonly js: JetStreamClient;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private running: Promise<void> | undefined;
  private again = false;
  private stopped = false;

  constructor(
    nc: NatsConnection,
    private readonly db: Database,
    private readonly outbox: OutboxTable,
    private readonly options: OutboxRelayOptions,
  ) {
    this.js = jetstream(nc);
  }

  start(): void {
    this.stopped = false;
    this.schedule(0);
  }

  /** Called after a commit that recorded events, so they leave at once instead of next poll. */
  poke(): void {
    if (this.running) this.again = true;
    else this.schedule(0);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    await this.running;
    // Whatever is left is published by the next replica or the next start.
    await this.relayAll().catch(() => undefined);
  }

  private schedule(delay: number): void {
    if (this.stopped) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.running = this.relayAll()
        .then(() => undefined)
        .catch((err) => this.options.logger.warn('outbox relay failed; will retry', { error: err }))
        .finally(() => {
          this.running = undefined;
          const next = this.again ? 0 : (this.options.pollMs ?? 1000);
          this.again = false;
          this.schedule(next);
        });
    }, delay);
  }

  /** Publishes until the outbox is empty; returns how many events left. */
  async relayAll(): Promise<number> {
    let total = 0;
    for (;;) {
      const n = await this.relayBatch();
      total += n;
      if (n === 0) break;
    }
    await this.prunePublished();
    return total;
  }

  private async relayBatch(): Promise<number> {
    const limit = this.options.batchSize ?? 100;
    return this.db.transaction(async (tx) => {
      const rows = await tx
        .select()
        .from(this.outbox)
        .where(isNull(this.outbox.publishedAt))
        .orderBy(asc(this.outbox.id))
        .limit(limit)
        .for('update', { skipLocked: true });
      if (rows.length === 0) return 0;
      for (const row of rows) {
        await this.js.publish(eventSubject(this.options.prefix, row.subject), JSON.stringify(row.payload), {
          msgID: row.eventId,
        });
      }
      await tx
        .update(this.outbox)
        .set({ publishedAt: this.options.clock.now() })
        .where(inArray(this.outbox.id, rows.map((r) => r.id)));
      return rows.length;
    });
  }

  private async prunePublished(): Promise<void> {
    const cutoff = new Date(this.options.clock.now().getTime() - (this.options.retentionMs ?? 24 * 3600_000));
    await this.db
      .delete(this.outbox)
      .where(and(isNotNull(this.outbox.publishedAt), lt(this.outbox.publishedAt, cutoff)));
  }
}
