import { describe, expect, test } from 'bun:test';
import { loadSchedulerConfig } from '../../../services/scheduler/src/config';

describe('scheduler configuration', () => {
  test('defaults, and a lease shorter than the bus timeout is refused naming the variable', () => {
    const config = loadSchedulerConfig({});
    expect(config).toMatchObject({
      SCHEDULER_BATCH_SIZE: 50,
      SCHEDULER_POLL_MS: 1000,
      SCHEDULER_LOOKAHEAD_MS: 1000,
      MISFIRE_WINDOW_MS: 3_600_000,
      JITTER_MAX_MS: 60_000,
    });
    expect(config.SCHEDULER_WORKER_ID).toEndWith(`-${process.pid}`);
    expect(() => loadSchedulerConfig({ SCHEDULER_LEASE_MS: '4000' })).toThrow(/SCHEDULER_LEASE_MS/);
    // The lease covers the wait of a row claimed ahead as well as the reply.
    expect(() => loadSchedulerConfig({ SCHEDULER_LEASE_MS: '6000', SCHEDULER_LOOKAHEAD_MS: '1000' })).toThrow(/SCHEDULER_LOOKAHEAD_MS/);
    expect(loadSchedulerConfig({ SCHEDULER_LEASE_MS: '6000', SCHEDULER_LOOKAHEAD_MS: '0' }).SCHEDULER_LEASE_MS).toBe(6000);
    expect(() => loadSchedulerConfig({ SCHEDULER_BATCH_SIZE: '0' })).toThrow(/SCHEDULER_BATCH_SIZE/);
  });
});
