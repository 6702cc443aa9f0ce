import { describe, expect, test } from 'bun:test';
import type { Work } from '@shared/schema/work';
import { drainTime, sandboxEnvironment, sandboxIdentity } from '../../../services/sandbox-worker/src/domain/sandbox-process';

const item: Work = {
  type: 'work',
  id: 'work_1',
  acknowledged_at: '2026-06-01T08:00:00.000Z',
  created_at: '2026-06-01T08:00:00.000Z',
  data: { id: 'sesn_1', type: 'session' },
  environment_id: 'env_1',
  latest_heartbeat_at: null,
  metadata: {},
  secret: 'eyJzZXNzaW9uc190b2tlbiI6InNrLWFudC1zc3QteCJ9',
  started_at: null,
  state: 'starting',
  stop_requested_at: null,
  stopped_at: null,
};

describe("a session's process", () => {
  test('its environment is its work item, the gateway, PATH and HOME, and nothing else', () => {
    expect(sandboxEnvironment(item, { gatewayUrl: 'http://gateway:8080', path: '/usr/bin:/bin', scratch: '/sandboxes/session-x' })).toEqual({
      ANTHROPIC_WORK_ID: 'work_1',
      ANTHROPIC_ENVIRONMENT_ID: 'env_1',
      ANTHROPIC_SESSION_ID: 'sesn_1',
      ANTHROPIC_WORK_SECRET: item.secret!,
      ANTHROPIC_BASE_URL: 'http://gateway:8080',
      PATH: '/usr/bin:/bin',
      HOME: '/sandboxes/session-x',
    });
  });

  test('an item without its secret is never started', () => {
    expect(() => sandboxEnvironment({ ...item, secret: null }, { gatewayUrl: 'http://g', path: '/bin', scratch: '/s' })).toThrow(/without its secret/);
  });

  test('runs as the configured user only when the worker is root; the group defaults to the user', () => {
    expect(sandboxIdentity(0, { uid: 2000, gid: 3000 })).toEqual({ uid: 2000, gid: 3000 });
    expect(sandboxIdentity(0, { uid: 2000 })).toEqual({ uid: 2000, gid: 2000 });
    expect(sandboxIdentity(0, {})).toBeUndefined();
    expect(sandboxIdentity(1000, { uid: 2000 })).toBeUndefined();
  });

  test('shutdown lets it run through the grace period less the time to kill it and clean up', () => {
    expect(drainTime(10_000)).toBe(9_000);
    expect(drainTime(2_000)).toBe(1_600);
    expect(drainTime(0)).toBe(0);
  });
});
