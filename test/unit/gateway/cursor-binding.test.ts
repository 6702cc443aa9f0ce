import { randomBytes } from 'node:crypto';
import { describe, expect, test } from 'bun:test';
import { openCursor, sealCursor } from '@shared/cursor/page-cursor';
import { cursorBinding, directedEndpoint, openDirectedCursor } from '../../../services/gateway/src/routing/pagination';

const key = randomBytes(32);
const tenant = { organization_id: 'org_a', workspace_id: 'ws_a', scope: 'read_write', key_id: 'key_1' } as const;
const call = { request_id: 'req_1', tenant };
const position = { created_at: '2026-01-02T03:04:05.123Z', id: 'depl_1' };
const binding = cursorBinding('deployments.list', call, { include_archived: false, status: 'active' }, 20);

const refused = (fn: () => unknown) => expect(fn).toThrow('invalid page cursor');

describe('a cursor is bound to its endpoint, tenant, filters and limit', () => {
  const token = sealCursor(key, binding, position);

  test('opens under the same binding, whatever the order of the filters', () => {
    const reordered = cursorBinding('deployments.list', call, { status: 'active', include_archived: false }, 20);
    expect(openCursor(key, reordered, token)).toEqual(position);
  });
  test('the binding names the tenant by organization and workspace', () => {
    expect(binding.tenant).toBe('org_a/ws_a');
  });
  test('any other endpoint, tenant, filter or limit is refused', () => {
    refused(() => openCursor(key, { ...binding, endpoint: 'agents.list' }, token));
    refused(() => openCursor(key, cursorBinding('deployments.list', { request_id: 'r', tenant: { ...tenant, workspace_id: 'ws_b' } }, binding.filters, 20), token));
    refused(() => openCursor(key, { ...binding, filters: { include_archived: true, status: 'active' } }, token));
    refused(() => openCursor(key, { ...binding, limit: 21 }, token));
  });
  test('an altered or malformed token is refused', () => {
    // A middle character: every one of its bits is data (the last one's low bits may be padding).
    const altered = token.slice(0, 20) + (token[20] === 'A' ? 'B' : 'A') + token.slice(21);
    refused(() => openCursor(key, binding, altered));
    refused(() => openCursor(key, binding, 'short'));
    refused(() => openCursor(randomBytes(32), binding, token));
  });
});

describe('bidirectional cursors carry their direction', () => {
  test('a next_page cursor opens as `after`, a prev_page cursor as `before`', () => {
    const next = sealCursor(key, binding, position);
    const prev = sealCursor(key, { ...binding, endpoint: directedEndpoint(binding.endpoint, 'before') }, position);
    expect(openDirectedCursor(key, binding, next)).toEqual({ direction: 'after', position });
    expect(openDirectedCursor(key, binding, prev)).toEqual({ direction: 'before', position });
  });
  test('a prev_page cursor of another list is still refused', () => {
    const foreign = sealCursor(key, { ...binding, endpoint: 'sessions.list#before', limit: 5 }, position);
    refused(() => openDirectedCursor(key, binding, foreign));
  });
});
