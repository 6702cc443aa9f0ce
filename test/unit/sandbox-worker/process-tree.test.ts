import { describe, expect, test } from 'bun:test';
import { leftoverProcesses, parseProcStat, type ProcessStat } from '../../../services/sandbox-worker/src/domain/process-tree';

/** /proc/<pid>/stat as the kernel writes it, with the fields the worker reads at their places. */
const stat = (pid: number, comm: string, state: string, ppid: number, startTime: number) =>
  `${pid} (${comm}) ${state} ${ppid} ${pid} ${pid} 0 -1 4194560 100 0 0 0 1 2 0 0 20 0 1 0 ${startTime} 1000 10 18446744073709551615 0 0 0 0 0 0 0 0 0 0 0 0 17 3 0 0 0 0 0`;

describe('parseProcStat', () => {
  test('reads pid, parent, state and start time, whatever the command name holds', () => {
    expect(parseProcStat(stat(42, 'bash', 'S', 7, 12345))).toEqual({ pid: 42, ppid: 7, state: 'S', startTime: 12345 });
    expect(parseProcStat(stat(43, 'evil) Z 1 (name', 'R', 42, 99))).toEqual({ pid: 43, ppid: 42, state: 'R', startTime: 99 });
  });

  test('anything else is not a process', () => {
    expect(parseProcStat('')).toBeUndefined();
    expect(parseProcStat('12 (short) S')).toBeUndefined();
  });
});

describe('leftoverProcesses', () => {
  const p = (pid: number, ppid: number, startTime: number, state = 'S'): ProcessStat => ({ pid, ppid, state, startTime });
  const WORKER = 100;

  test('the worker\'s children started since the session began, and all their descendants, zombies aside', () => {
    const processes = [
      p(1, 0, 0),
      p(WORKER, 1, 10),
      p(200, WORKER, 5), // started before the session: not the session's
      p(201, 200, 60),
      p(300, WORKER, 50), // the session's shell, re-parented to the worker when its process died
      p(301, 300, 55),
      p(302, 301, 58),
      p(303, 300, 59, 'Z'),
      p(400, WORKER, 70), // a double-forked daemon, adopted by the worker
      p(500, 1, 80), // not under the worker at all
    ];
    expect(leftoverProcesses(WORKER, 50, processes).sort()).toEqual([300, 301, 302, 400]);
  });

  test('nothing left: nothing to kill', () => {
    expect(leftoverProcesses(WORKER, 50, [p(WORKER, 1, 10), p(200, WORKER, 5)])).toEqual([]);
  });
});
