import { describe, expect, test } from 'bun:test';
import { claimOrder, type ServingTenant, type WaitingTenant } from '../../../services/runtime/src/domain/work-claims';

/** Which tenant the next free sandbox worker goes to: what each tenant holds, then who waited longest. */

const tenant = (org: string) => ({ organization_id: `org_${org}`, workspace_id: `wrkspc_${org}` });
const waiting = (org: string, queuedAt: string): WaitingTenant => ({ tenant: tenant(org), oldestQueuedAt: new Date(queuedAt) });
const serving = (org: string, n: number): ServingTenant => ({ tenant: tenant(org), serving: n });
const orgs = (order: ReturnType<typeof claimOrder>) => order.map((t) => t.organization_id);

describe('claimOrder', () => {
  test('nothing waiting: no one to serve', () => {
    expect(claimOrder([], [serving('a', 3)])).toEqual([]);
  });

  test('the tenant holding fewer workers goes first, however long the other has waited or however much it queued', () => {
    // a queued thousands of sessions first and holds five workers; b has one session queued later.
    expect(orgs(claimOrder([waiting('a', '2026-06-01T08:00:00Z'), waiting('b', '2026-06-01T09:00:00Z')], [serving('a', 5)]))).toEqual(['org_b', 'org_a']);
  });

  test('equal holdings: the oldest queued item first', () => {
    expect(orgs(claimOrder([waiting('b', '2026-06-01T09:00:00Z'), waiting('a', '2026-06-01T08:00:00Z')], []))).toEqual(['org_a', 'org_b']);
    expect(orgs(claimOrder([waiting('b', '2026-06-01T09:00:00Z'), waiting('a', '2026-06-01T08:00:00Z')], [serving('a', 1), serving('b', 1)]))).toEqual([
      'org_a',
      'org_b',
    ]);
  });

  test('a tie on both is broken by tenant, so the same queue always gives the same order', () => {
    const at = '2026-06-01T08:00:00Z';
    const forward = claimOrder([waiting('a', at), waiting('b', at)], []);
    const backward = claimOrder([waiting('b', at), waiting('a', at)], []);
    expect(orgs(forward)).toEqual(['org_a', 'org_b']);
    expect(backward).toEqual(forward);
  });

  test('the same organization in two workspaces is two tenants', () => {
    const one = { organization_id: 'org_x', workspace_id: 'wrkspc_1' };
    const two = { organization_id: 'org_x', workspace_id: 'wrkspc_2' };
    const order = claimOrder(
      [
        { tenant: one, oldestQueuedAt: new Date('2026-06-01T08:00:00Z') },
        { tenant: two, oldestQueuedAt: new Date('2026-06-01T09:00:00Z') },
      ],
      [{ tenant: one, serving: 1 }],
    );
    expect(order).toEqual([two, one]);
  });

  test('workers go round the waiting tenants: served one at a time, a flooding tenant never takes two turns in a row while another waits', () => {
    // Replays claims against the rule: each claim serves the first tenant of the order, which then holds one more.
    const queued: Record<string, number> = { flood: 1000, small: 3, late: 2 };
    const firstQueued: Record<string, string> = { flood: '2026-06-01T08:00:00Z', small: '2026-06-01T08:30:00Z', late: '2026-06-01T10:00:00Z' };
    const held: Record<string, number> = { flood: 0, small: 0, late: 0 };
    const served: string[] = [];
    for (let claim = 0; claim < 9; claim++) {
      const order = claimOrder(
        Object.keys(queued).filter((t) => queued[t]! > 0).map((t) => waiting(t, firstQueued[t]!)),
        Object.entries(held).map(([t, n]) => serving(t, n)),
      );
      const next = order[0]!.organization_id.slice('org_'.length);
      served.push(next);
      queued[next]! -= 1;
      held[next]! += 1;
    }
    expect(served).toEqual(['flood', 'small', 'late', 'flood', 'small', 'late', 'flood', 'small', 'flood']);
  });
});
