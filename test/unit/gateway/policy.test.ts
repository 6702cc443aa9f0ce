import { describe, expect, test } from 'bun:test';
import type { Tenant } from '@shared/schema/tenant';
import { checkPermission } from '../../../services/gateway/src/domain/permission';
import { checkStrayQueryParameters } from '../../../services/gateway/src/domain/query-parameters';
import { API_VERSION, checkVersioning, REQUIRED_BETA, SUPPORTED_VERSIONS } from '../../../services/gateway/src/domain/versioning';
import { failureOf } from '../../support/expect';


describe('permission', () => {
  const tenant: Tenant = { organization_id: 'org_a', workspace_id: 'ws_a', scope: 'read_write', key_id: 'key_1' };
  const readOnly: Tenant = { ...tenant, scope: 'read_only' };

  test('a read-write key may read and write its own workspace', () => {
    expect(failureOf(() => checkPermission(tenant, 'POST', new Headers()))).toBeUndefined();
    expect(failureOf(() => checkPermission(tenant, 'DELETE', new Headers({ 'anthropic-workspace-id': 'ws_a' })))).toBeUndefined();
  });
  test('a read-only key may only read', () => {
    for (const method of ['GET', 'HEAD', 'OPTIONS']) expect(failureOf(() => checkPermission(readOnly, method, new Headers()))).toBeUndefined();
    expect(failureOf(() => checkPermission(readOnly, 'POST', new Headers()))).toEqual({
      status: 403,
      type: 'permission_error',
      message: 'this API key is read-only',
    });
  });
  test("another workspace's header is 403, checked before the scope", () => {
    expect(failureOf(() => checkPermission(readOnly, 'POST', new Headers({ 'anthropic-workspace-id': 'ws_b' })))?.message).toBe(
      "anthropic-workspace-id does not match the API key's workspace",
    );
  });
});

describe('versioning', () => {
  const strictHeaders = () => new Headers({ 'anthropic-version': API_VERSION, 'anthropic-beta': REQUIRED_BETA });
  const check = (path: string, headers: Headers) => failureOf(() => checkVersioning(new URL(`http://gw${path}`), headers, 'anthropic'));

  test('deployment routes require both headers and beta=true', () => {
    expect(check('/v1/deployments?beta=true', strictHeaders())).toBeUndefined();
    expect(check('/v1/deployments?beta=true', new Headers({ 'anthropic-beta': REQUIRED_BETA }))?.message).toBe(
      `anthropic-version: header is required; supported values: 2023-06-01, 2026-10-21`,
    );
    expect(check('/v1/deployment_runs/x?beta=true', new Headers({ 'anthropic-version': API_VERSION }))?.message).toBe(
      `anthropic-beta: header is required and must include ${REQUIRED_BETA}`,
    );
  });
  test('other routes take the headers as optional, but check them when sent', () => {
    expect(check('/v1/agents?beta=true', new Headers())).toBeUndefined();
    expect(check('/v1/agents?beta=true', new Headers({ 'anthropic-version': '2020-01-01' }))?.message).toBe(
      `anthropic-version: unsupported value; supported values: 2023-06-01, 2026-10-21`,
    );
    expect(check('/v1/agents?beta=true', new Headers({ 'vendor-version': ` ${API_VERSION} ` }))).toBeUndefined();
  });
  test('a prefix matches whole path segments only', () => {
    expect(check('/v1/deploymentsx?beta=true', new Headers())).toBeUndefined();
  });
  test('memory stores also accept the memory beta alone', () => {
    const memory = new Headers({ 'anthropic-beta': 'agent-memory-2026-07-22' });
    expect(check('/v1/memory_stores?beta=true', memory)).toBeUndefined();
    expect(check('/v1/agents?beta=true', memory)?.message).toBe(`anthropic-beta: must include ${REQUIRED_BETA}`);
  });
  test('beta=true is required once on every route', () => {
    expect(check('/v1/agents', new Headers())?.message).toBe(
      'beta: query parameter is required and must be true (optional with anthropic-version: 2026-10-21)',
    );
    expect(check('/v1/agents?beta=true&beta=true', new Headers())?.message).toBe('beta: must be given at most once');
    expect(check('/v1/agents?beta=1', new Headers())).toEqual({ status: 400, type: 'invalid_request_error', message: 'beta: must be true' });
  });
});

describe('versions', () => {
  const check = (path: string, headers: Headers) => failureOf(() => checkVersioning(new URL(`http://gw${path}`), headers, 'anthropic'));
  const v1 = (extra: Record<string, string> = {}) => new Headers({ 'anthropic-version': '2026-10-21', ...extra });

  test('both versions are supported, and a request follows the one it names (the interface\'s when none)', () => {
    expect(SUPPORTED_VERSIONS).toEqual(['2023-06-01', '2026-10-21']);
    expect(checkVersioning(new URL('http://gw/v1/agents?beta=true'), new Headers(), 'anthropic')).toBe('2023-06-01');
    expect(checkVersioning(new URL('http://gw/v1/agents'), v1(), 'anthropic')).toBe('2026-10-21');
  });
  test('2026-10-21 (SDK 1.x) makes the beta query optional, and true when present', () => {
    expect(check('/v1/agents', v1())).toBeUndefined();
    expect(check('/v1/deployments', v1({ 'anthropic-beta': REQUIRED_BETA }))).toBeUndefined();
    expect(check('/v1/agents?beta=true', v1())).toBeUndefined();
    expect(check('/v1/agents?beta=false', v1())?.message).toBe('beta: must be true');
    expect(check('/v1/agents?beta=true&beta=true', v1())?.message).toBe('beta: must be given at most once');
  });
  test('2026-10-21 keeps every other rule: the beta header on deployment routes, and its value', () => {
    expect(check('/v1/deployments', v1())?.message).toBe(`anthropic-beta: header is required and must include ${REQUIRED_BETA}`);
    expect(check('/v1/agents', v1({ 'anthropic-beta': 'other-2020-01-01' }))?.message).toBe(`anthropic-beta: must include ${REQUIRED_BETA}`);
  });
  test('any other value names both supported ones', () => {
    expect(check('/v1/agents', new Headers({ 'anthropic-version': '2026-10-22' }))).toEqual({
      status: 400,
      type: 'invalid_request_error',
      message: 'anthropic-version: unsupported value; supported values: 2023-06-01, 2026-10-21',
    });
  });
});

describe('stray query parameters', () => {
  const check = (method: string, route: string, query: string) =>
    failureOf(() => checkStrayQueryParameters(method, route, new URL(`http://gw/x?${query}`)))?.message;

  test('collections and declared item routes parse their own query', () => {
    expect(check('GET', '/v1/deployments', 'colour=red')).toBeUndefined();
    expect(check('GET', '/v1/agents/:agent_id', 'version=2')).toBeUndefined();
  });
  test('every other route takes nothing but beta', () => {
    expect(check('GET', '/v1/deployments/:deployment_id', 'beta=true')).toBeUndefined();
    expect(check('GET', '/v1/deployments/:deployment_id', 'beta=true&colour=red')).toBe('colour: unknown query parameter');
    expect(check('POST', '/v1/deployments', 'limit=1')).toBe('limit: unknown query parameter');
  });
});
