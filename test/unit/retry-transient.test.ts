import { expect, test } from 'bun:test';
import { isTransientDatabaseError, retryTransient } from '@shared/db/retry-transient';

test('deadlocks and lock-wait timeouts are retried, wrapped or not; other errors are not', async () => {
  const deadlock = Object.assign(new Error('Deadlock found'), { errno: 1213 });
  expect(isTransientDatabaseError(deadlock)).toBe(true);
  expect(isTransientDatabaseError(new Error('Failed query', { cause: deadlock }))).toBe(true);
  expect(isTransientDatabaseError(Object.assign(new Error('dup'), { errno: 1062 }))).toBe(false);

  let calls = 0;
  expect(await retryTransient(async () => (++calls < 3 ? Promise.reject(deadlock) : 'done'))).toBe('done');
  expect(calls).toBe(3);

  calls = 0;
  const duplicate = Object.assign(new Error('dup'), { errno: 1062 });
  await expect(retryTransient(async () => {
    calls++;
    throw duplicate;
  })).rejects.toBe(duplicate);
  expect(calls).toBe(1);
});
