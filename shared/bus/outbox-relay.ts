import { jetstream, jetstreamManager, type JetStreamClient } from '@nats-io/jetstream';
import type { NatsConnection } from '@nats-io/transport-node';
import { asc, count, inArray, isNull, lte, min, or } from 'drizzle-orm';
import { Counter, Gauge } from 'prom-client';
import type { Database } from '../db/connect';
import type { OutboxTables } from '../db/outbox-table';
import { eventDeliveries, type EventDeliveries } from '../telemetry/event-deliveries';
import { Telemetry } from '../telemetry/telemetry';
import { countParkedEvents, publishErrorText } from './outbox-dead-letters';
import { recordPublishFailure, type OutboxRelayOptions, type OutboxRow } from './outbox-failures';

export { OUTBOX_DEFAULTS, type OutboxRelayOptions } from './outbox-failures';
import { createBatcher, type Batcher } from '../db/batcher';
import type { EventEnvelope } from './event';
import { eventSubject } from './streams';


const UPKEEP_MS = 30_000;

/** Thrown by a pass that stopped because the bus itself did not answer: no row was at fault. */
export class BusUnavailableError extends Error {
  override name = 'BusUnavailableError';
}

/**
 * Publishes outbox rows to JetStream. Rows are claimed with SKIP LOCKED so every replica can
 * relay; each is published with its event id as msgID, so a relay that dies between publishing
 * and marking the row is deduplicated by the stream when the next one republishes it.
 *
 * A batch's rows are published together and never wait on each other: a row the bus refuses is retried
 * after a backoff (the rows behind it go on meanwhile), and after `maxAttempts` failures it is
 * moved to the dead-letter table, reported by an error log line and the metrics, and kept there
 * until an operator re-drives it. A failure counts against a row only while JetStream answers;
 * when it does not, the pass stops without blaming anyone and the next poll tries again, so an
 * outage of the bus never parks healthy events.
 */
export class OutboxRelay {
  private readonly js: JetStreamClient;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private running: Promise<void> | undefined;
  private again = false;
  private stopped = false;
  private lastUpkeepAt = Number.NEGATIVE_INFINITY;
  /** Events publishCommitted is publishing: a claiming pass that reads them leaves them alone. */
  private readonly committedInFlight = new Set<string>();
  private readonly fastPath = new Set<Promise<void>>();
  /** Rows of events publishCommitted published, deleted many per statement under load. */
  private readonly sent: Batcher<string[], void>;
  private readonly counters: { parked: Counter; failures: Counter };
  private deadLetterRows = 0;
  private backlog: Promise<{ rows: number; oldestAgeSeconds: number }> | undefined;
  private lastBacklog = { rows: 0, oldestAgeSeconds: 0 };
  private readonly deliveries: EventDeliveries;

  constructor(
    private readonly nc: NatsConnection,
    private readonly db: Database,
    private readonly tables: OutboxTables,
    private readonly options: OutboxRelayOptions,
  ) {
    this.js = jetstream(nc);
    const { outbox } = tables;
    this.sent = createBatcher(
      async (batches) => {
        // One DELETE on its own (autocommit): it is atomic by itself, nothing else is written with
        // it, and no item can fail alone (a delete breaks no constraint), so neither a transaction
        // (BEGIN and COMMIT, two more round trips) nor a write batcher's item-by-item retry would
        // add anything. A failed one leaves the rows to the claiming pass (publishCommitted).
        await db.delete(outbox).where(inArray(outbox.eventId, batches.flat()));
        return batches.map(() => ({ ok: true as const, value: undefined }));
      },
      // Deletes are nobody's answer: gathering them for a moment makes one statement of many
      // creates' rows instead of one per batch of creates.
      { maxBatch: 500, lingerMs: 25 },
    );
    const telemetry = options.telemetry ?? Telemetry.detached();
    this.deliveries = telemetry.seam(eventDeliveries);
    const registers = [telemetry.registry];
    const relay = this;
    new Gauge({
      name: 'outbox_backlog_rows',
      help: 'Events recorded in the outbox and not yet published (the service\'s, same on every replica; measured at each scrape).',
      registers,
      async collect() {
        this.set((await relay.measureBacklog()).rows);
      },
    });
    new Gauge({
      name: 'outbox_oldest_event_age_seconds',
      help: 'Age of the oldest event still in the outbox (0 when empty): how far the bus is behind the database.',
      registers,
      async collect() {
        this.set((await relay.measureBacklog()).oldestAgeSeconds);
      },
    });
    new Gauge({
      name: 'outbox_dead_letter_rows',
      help: 'Events parked in the dead-letter table after failed publishes (the service\'s, same on every replica).',
      registers,
      collect() {
        this.set(relay.deadLetterRows);
      },
    });
    this.counters = {
      parked: new Counter({ name: 'outbox_rows_parked_total', help: 'Events this replica moved to the dead-letter table.', registers }),
      failures: new Counter({
        name: 'outbox_publish_failures_total',
        help: 'Failed publish attempts of this replica (each is retried or parked).',
        registers,
      }),
    };
  }

  /**
   * The outbox's rows and the age of the oldest, read once per scrape (both gauges share one
   * query). A scrape the database cannot answer keeps the last figures: the database's own
   * trouble shows in /readyz and the pool's gauges.
   */
  private measureBacklog(): Promise<{ rows: number; oldestAgeSeconds: number }> {
    const { outbox } = this.tables;
    this.backlog ??= this.db
      .select({ rows: count(), oldest: min(outbox.createdAt) })
      .from(outbox)
      .then(([row]) => {
        const oldest = row?.oldest ? new Date(row.oldest).getTime() : undefined;
        const now = this.options.clock.now().getTime();
        this.lastBacklog = { rows: Number(row?.rows ?? 0), oldestAgeSeconds: oldest === undefined ? 0 : Math.max(0, (now - oldest) / 1000) };
        return this.lastBacklog;
      })
      .catch((err) => {
        this.options.logger.debug('outbox: backlog not measured', { error: err });
        return this.lastBacklog;
      })
      .finally(() => {
        this.backlog = undefined;
      });
    return this.backlog;
  }

  start(): void {
    this.stopped = false;
    this.schedule(0);
  }

  /**
   * Publishes events whose transaction just committed straight from memory, without reading
   * them back: the claiming pass (a transaction, a locked read, the delete) is the path for
   * whatever this misses. Published ones leave the outbox, many rows per statement; one the bus
   * refuses stays and goes the claiming way (retries, backoff, dead letters), as does anything
   * left when this process dies between publishing and deleting, which the stream then
   * deduplicates by event id.
   */
  publishCommitted(envelopes: readonly EventEnvelope[]): void {
    if (envelopes.length === 0) return;
    for (const e of envelopes) this.committedInFlight.add(e.id);
    // Still in the handler's context: its consumers' spans link to the trace that recorded them.
    // Headers of their own each: publish writes the event's msgID into them.
    const work = Promise.allSettled(
      envelopes.map((e) =>
        this.js.publish(eventSubject(this.options.prefix, e.type), JSON.stringify(e), { msgID: e.id, headers: this.deliveries.publishHeaders() }),
      ),
    ).then((outcomes) => {
      const published = envelopes.filter((_, i) => outcomes[i]!.status === 'fulfilled').map((e) => e.id);
      if (published.length < envelopes.length) this.poke();
      return published.length > 0 ? this.sent.call(published) : undefined;
    });
    this.fastPath.add(work);
    work
      .catch((err) => {
        // Left in the outbox: the claiming pass publishes them again (deduplicated) and deletes them.
        this.options.logger.warn('outbox: deleting published events failed; the relay will see to them', { error: err });
        this.poke();
      })
      .finally(() => {
        for (const e of envelopes) this.committedInFlight.delete(e.id);
        this.fastPath.delete(work);
      });
  }

  /** Called after a commit that recorded events, so they leave at once instead of next poll. */
  poke(): void {
    if (this.running) this.again = true;
    else this.schedule(0);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    await Promise.allSettled([...this.fastPath]);
    await this.running;
    // Whatever is left is published by the next replica or the next start.
    await this.relayAll().catch(() => undefined);
  }

  private schedule(delay: number): void {
    if (this.stopped) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      // A pass after a poke publishes only; the upkeep (the dead-letter count) runs with a poll
      // now and then. Under load pokes come hundreds of times a second.
      const upkeepDue = this.options.clock.now().getTime() - this.lastUpkeepAt >= (this.options.upkeepMs ?? UPKEEP_MS);
      this.running = (upkeepDue ? this.relayAll() : this.relayDue())
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

  /** Publishes until no row is due, then counts dead letters. */
  async relayAll(): Promise<number> {
    const total = await this.relayDue();
    this.lastUpkeepAt = this.options.clock.now().getTime();
    this.deadLetterRows = await countParkedEvents(this.db, this.tables);
    return total;
  }

  /** Publishes until no row is due; returns how many events left. */
  private async relayDue(): Promise<number> {
    let total = 0;
    for (;;) {
      const { published, handled, full } = await this.relayBatch();
      total += published;
      // A short batch was everything due when it was read; a row committed since then poked the
      // relay, which runs again at once, so a confirming empty pass would only cost three queries.
      if (handled === 0 || !full) break;
    }
    return total;
  }

  /** One claimed batch: `handled` counts rows published or given a failed attempt. */
  private async relayBatch(): Promise<{ published: number; handled: number; full: boolean }> {
    const { outbox } = this.tables;
    const limit = this.options.batchSize ?? 100;
    const now = this.options.clock.now();
    let busDown: unknown;
    const result = await this.db.transaction(async (tx) => {
      const rows = await tx
        .select()
        .from(outbox)
        .where(or(isNull(outbox.nextAttemptAt), lte(outbox.nextAttemptAt, now)))
        .orderBy(asc(outbox.id))
        .limit(limit)
        .for('update', { skipLocked: true })
        // Being published from memory right now (publishCommitted): not this pass's to publish.
        .then((claimed) => claimed.filter((row) => !this.committedInFlight.has(row.eventId)));
      // All of the batch at once: one connection sends them in this order, so the stream stores
      // them in outbox order, and the acknowledgements are awaited together, not one by one.
      const outcomes = await Promise.allSettled(
        rows.map((row) =>
          this.js.publish(eventSubject(this.options.prefix, row.subject), JSON.stringify(row.payload), { msgID: row.eventId }),
        ),
      );
      const published: number[] = [];
      const failed: Array<{ row: OutboxRow; error: unknown }> = [];
      outcomes.forEach((outcome, i) => {
        if (outcome.status === 'fulfilled') published.push(rows[i]!.id);
        else failed.push({ row: rows[i]!, error: outcome.reason });
      });
      if (failed.length > 0 && !(await this.busAnswers())) {
        // The bus itself is down: no row is to blame; the published ones still leave below.
        busDown = failed[0]!.error;
        failed.length = 0;
      }
      if (published.length > 0) await tx.delete(outbox).where(inArray(outbox.id, published));
      for (const { row, error } of failed) {
        await recordPublishFailure(tx, this.tables, row, { error, now }, { rules: this.options, logger: this.options.logger, counters: this.counters });
      }
      return { published: published.length, handled: published.length + failed.length, full: rows.length === limit };
    });
    if (busDown !== undefined) throw new BusUnavailableError(`JetStream does not answer: ${publishErrorText(busDown)}`);
    return result;
  }

  /** Whether JetStream answers at all: if not, a failed publish says nothing about the row. */
  private async busAnswers(): Promise<boolean> {
    if (this.nc.isClosed() || this.nc.isDraining()) return false;
    try {
      await jetstreamManager(this.nc); // asks the JetStream API for the account's info
      return true;
    } catch {
      return false;
    }
  }

}
