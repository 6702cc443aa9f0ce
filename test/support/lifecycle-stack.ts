/**
 * The whole product over HTTP with the scheduler's workers in the test's hands: the stack's
 * catalog, deployments and vaults services (the REAL fire path) and gateway on a ManualClock,
 * plus the scheduler's own pieces (its database, the deployment-event consumer, any number of
 * workers) from test/support/scheduler-worker.ts, wired the way start-scheduler.ts wires them,
 * except that nothing ticks by itself: tests move the clock and call `drain`, as the scheduler
 * tests do, and can crash a worker.
 */
import type { NatsConnection } from '@nats-io/transport-node';
import { systemContext } from '@shared/bus/call-context';
import { deploymentSubjects } from '@shared/bus/subjects/deployments';
import { streamName, type StreamKey } from '@shared/bus/streams';
import type { DatabaseHandle } from '@shared/db/connect';
import { newId } from '@shared/ids/ids';
import type { FireDeploymentReply } from '@shared/schema/deployment-run';
import type { Tenant } from '@shared/schema/tenant';
import { ManualClock } from '@shared/time/clock';
import { outbox as deploymentsOutbox } from '../../services/deployments/src/db/schema';
import { loadSchedulerConfig, type SchedulerConfig } from '../../services/scheduler/src/config';
import { apiClient, type ApiClient } from './api';
import { outboxRelayed } from './settled';
import { SchedulerHarness } from './scheduler/scheduler-harness';
import type { SchedulerWorker } from './scheduler/scheduler-worker';
import { Stack } from './stack';
import { readStream, type StreamMessage } from './streams';

export type Worker = SchedulerWorker;

export interface Tenant$ {
  api: ApiClient;
  tenant: Tenant;
}

export class LifecycleStack extends SchedulerHarness {
  private constructor(
    readonly stack: Stack,
    clock: ManualClock,
    config: SchedulerConfig,
    nc: NatsConnection,
    schedulerDb: DatabaseHandle,
  ) {
    super(clock, config, nc, schedulerDb);
  }

  /** `runtime`: also start the runtime service, with this environment (its model API, leases). */
  static async start(options: { start: string; env?: Record<string, string>; runtime?: Record<string, string> }): Promise<LifecycleStack> {
    const clock = new ManualClock(options.start);
    const stack = await Stack.start({
      clock,
      services: ['catalog', 'deployments', 'vaults', ...(options.runtime ? (['runtime'] as const) : [])],
      env: { LOG_LEVEL: 'error' },
      serviceEnv: options.runtime ? { runtime: options.runtime } : {},
    });
    try {
      const config = loadSchedulerConfig({
        ...stack.env('scheduler'),
        SCHEDULER_WORKER_ID: 'w0',
        MYSQL_POOL_SIZE: '4',
        // Drained round by round on the ManualClock: rounds claim only rows already due.
        SCHEDULER_LOOKAHEAD_MS: '0',
        ...options.env,
      });
      const { nc, schedulerDb } = await SchedulerHarness.open(config);
      const world = new LifecycleStack(stack, clock, config, nc, schedulerDb);
      await world.startConsumer();
      return world;
    } catch (err) {
      await stack.stop();
      throw err;
    }
  }

  /** A new tenant with its own read-write key. */
  async tenant(): Promise<Tenant$> {
    const key = await this.stack.createKey();
    return { api: apiClient(this.stack.url, key.secret), tenant: key.tenant };
  }

  /**
   * Waits until every deployment event committed so far is in JetStream (the outbox is empty)
   * and the scheduler's consumer has applied and acked all of it.
   */
  override async eventsSettled(timeoutMs = 20_000): Promise<void> {
    await this.outboxEmpty(timeoutMs);
    await super.eventsSettled(timeoutMs);
  }

  /** Fires through the bus exactly as a scheduler worker does. */
  fire(tenant: Tenant, deploymentId: string, scheduledAt: string): Promise<FireDeploymentReply> {
    return this.stack.service('deployments').client.call(deploymentSubjects.fire, systemContext(newId('request'), tenant), {
      deployment_id: deploymentId,
      trigger: { type: 'schedule', scheduled_at: scheduledAt },
    });
  }

  /** Every event of one stream, in order (read straight from JetStream, as a consumer would). */
  async streamEvents(key: StreamKey): Promise<StreamMessage[]> {
    if (key === 'deployments' || key === 'sessions') await this.outboxEmpty();
    return readStream(this.nc, streamName(this.config.BUS_PREFIX, key));
  }

  /** Every event the deployments service committed so far has been published. */
  private async outboxEmpty(timeoutMs = 20_000): Promise<void> {
    await outboxRelayed(this.stack.service('deployments'), deploymentsOutbox, 'deployments', { timeoutMs });
  }

  override async stop(): Promise<void> {
    await super.stop();
    await this.nc.close().catch(() => undefined);
    await this.stack.stop();
  }
}
