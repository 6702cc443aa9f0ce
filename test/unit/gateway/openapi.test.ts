import { describe, expect, test } from 'bun:test';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { Type } from '@sinclair/typebox';
import { openApiDocument } from '../../../services/gateway/src/openapi/document';
import { referencePage } from '../../../services/gateway/src/openapi/reference-page';
import { SchemaComponents } from '../../../services/gateway/src/openapi/schema-components';
import { SCHEMA_MODULES, schemaNames } from '../../../services/gateway/src/openapi/schema-names';
import { json, type RouteContract } from '../../../services/gateway/src/routing/route-contract';

const Thing = Type.Object({ type: Type.Literal('thing'), id: Type.String() }, { additionalProperties: false });
const ThingBody = Type.Object({ name: Type.String({ minLength: 1 }) }, { additionalProperties: false });

const apiRoute = (overrides: Partial<RouteContract> & Pick<RouteContract, 'method' | 'path'>): RouteContract => ({
  access: 'api',
  reply: json(Thing),
  errors: [],
  ...overrides,
});

describe('schema names', () => {
  test('every module of shared/schema/ is read for names', () => {
    const files = readdirSync(join(import.meta.dir, '../../../shared/schema')).map((file) => file.replace(/\.ts$/, ''));
    expect(Object.keys(SCHEMA_MODULES).toSorted()).toEqual(files.toSorted());
  });

  test('shapes are named by their export (an alias keeps the first name); the same name for two schemas is refused', () => {
    const names = schemaNames({ things: { Thing, AlsoThing: Thing, Name: Type.String(), notASchema: 1 } });
    expect([...names]).toEqual([[Thing, 'Thing']]);
    expect(() => schemaNames({ a: { Thing }, b: { Thing: ThingBody } })).toThrow('schema name Thing is exported by both shared/schema/a.ts and b.ts');
    expect(() => schemaNames()).not.toThrow();
  });
});

describe('SchemaComponents', () => {
  test('a named schema is written once and referred to wherever it recurs, its optional copies included', () => {
    const components = new SchemaComponents(new Map([[Thing, 'Thing']]));
    const Holder = Type.Object({ one: Thing, two: Type.Optional(Thing), many: Type.Array(Thing), maybe: Type.Union([Thing, Type.Null()]) });
    const ref = { $ref: '#/components/schemas/Thing' };
    expect(components.json(Holder)).toEqual({
      type: 'object',
      required: ['one', 'many', 'maybe'],
      properties: { one: ref, two: ref, many: { type: 'array', items: ref }, maybe: { anyOf: [ref, { type: 'null' }] } },
    });
    expect(components.schemas()).toEqual({
      Thing: { type: 'object', additionalProperties: false, required: ['type', 'id'], properties: { type: { type: 'string', const: 'thing' }, id: { type: 'string' } } },
    });
  });

  test('only what is reached is written', () => {
    const components = new SchemaComponents(new Map([[Thing, 'Thing']]));
    expect(components.json(ThingBody)).toMatchObject({ properties: { name: { type: 'string', minLength: 1 } } });
    expect(components.schemas()).toEqual({});
  });
});

describe('openApiDocument', () => {
  const routes: RouteContract[] = [
    { method: 'GET', path: '/healthz', access: 'open', reply: json(Type.Object({ status: Type.Literal('ok') })), errors: [] },
    apiRoute({ method: 'GET', path: '/v1/things', query: Type.Object({ limit: Type.Optional(Type.Integer()), kinds: Type.Optional(Type.Array(Type.String())) }) }),
    apiRoute({ method: 'POST', path: '/v1/things', body: json(ThingBody) }),
    apiRoute({ method: 'GET', path: '/v1/things/:thing_id', headers: Type.Object({ 'last-thing-id': Type.Optional(Type.String({ description: 'Resume.' })) }) }),
    apiRoute({ method: 'POST', path: '/v1/things/:thing_id/claim', reply: json(Type.Union([Thing, Type.Null()])), errors: [409] }),
    apiRoute({ method: 'GET', path: '/v1/deployments' }),
  ];
  const document = openApiDocument(routes, { headerPrefix: 'acme' }) as any;
  const statuses = (path: string, method: string) => Object.keys(document.paths[path][method].responses);

  test('the error statuses by what a route is: open, a read, a write with a body, an item, and its own', () => {
    expect(statuses('/healthz', 'get')).toEqual(['200', '431', '500', '503']);
    expect(statuses('/v1/things', 'get')).toEqual(['200', '400', '401', '403', '429', '431', '500', '503', '504']);
    // A POST's 409: its Idempotency-Key reused for another request, or its first request still running.
    expect(statuses('/v1/things', 'post')).toEqual(['200', '400', '401', '403', '404', '408', '409', '413', '429', '431', '500', '503', '504']);
    expect(statuses('/v1/things/{thing_id}', 'get')).toContain('404');
    expect(statuses('/v1/things/{thing_id}/claim', 'post')).toContain('409');
  });

  test('each error status is the envelope of its error type', () => {
    expect(document.components.responses.Error409.content['application/json'].schema).toEqual({ $ref: '#/components/schemas/InvalidRequestError' });
    expect(document.components.responses.Error503.content['application/json'].schema).toEqual({ $ref: '#/components/schemas/OverloadedError' });
    expect(document.components.schemas.NotFoundError.properties.error.properties.type).toEqual({ type: 'string', const: 'not_found_error' });
  });

  test('a POST takes an Idempotency-Key; answers to API routes carry the rate limit headers, a 429 retry-after too', () => {
    expect(document.paths['/v1/things'].post.parameters).toContainEqual({ $ref: '#/components/parameters/IdempotencyKey' });
    expect(document.paths['/v1/things'].get.parameters).not.toContainEqual({ $ref: '#/components/parameters/IdempotencyKey' });
    expect(document.components.parameters.IdempotencyKey).toMatchObject({ name: 'Idempotency-Key', in: 'header', required: false });
    expect(Object.keys(document.paths['/v1/things'].get.responses['200'].headers)).toEqual([
      'anthropic-ratelimit-requests-limit',
      'anthropic-ratelimit-requests-remaining',
      'anthropic-ratelimit-requests-reset',
    ]);
    expect(Object.keys(document.components.responses.Error429.headers)).toContain('retry-after');
  });

  test('a reply that may be null is 200 without null, and 204', () => {
    const claim = document.paths['/v1/things/{thing_id}/claim'].post.responses;
    expect(claim['200'].content['application/json'].schema.properties.type).toEqual({ type: 'string', const: 'thing' });
    expect(claim['204']).toEqual({ description: expect.any(String) });
  });

  test('path ids, query parameters (arrays as repeated name[]), and the versioning parameters under the configured prefix', () => {
    const list = document.paths['/v1/things'].get;
    expect(list.parameters.slice(0, 2)).toEqual([
      { name: 'limit', in: 'query', required: false, schema: { type: 'integer' } },
      { name: 'kinds[]', in: 'query', required: false, schema: { type: 'array', items: { type: 'string' } }, style: 'form', explode: true },
    ]);
    expect(list.parameters).toContainEqual({ $ref: '#/components/parameters/OptionalVersion' });
    expect(list.parameters.find((p: any) => p.name === 'acme-beta').required).toBe(false);
    const deployments = document.paths['/v1/deployments'].get;
    expect(deployments.parameters).toContainEqual({ $ref: '#/components/parameters/Version' });
    expect(deployments.parameters.find((p: any) => p.name === 'acme-beta').required).toBe(true);
    expect(document.components.parameters.Version).toMatchObject({ name: 'acme-version', in: 'header', required: true });
    const item = document.paths['/v1/things/{thing_id}'].get.parameters;
    expect(item[0]).toEqual({ name: 'thing_id', in: 'path', required: true, schema: { type: 'string' } });
    expect(item[1]).toEqual({ name: 'last-thing-id', in: 'header', required: false, schema: { type: 'string', description: 'Resume.' }, description: 'Resume.' });
  });

  test('API routes need a key; open routes need nothing', () => {
    expect(document.security).toEqual([{ ApiKey: [] }, { BearerAuth: [] }]);
    expect(document.components.securitySchemes.ApiKey).toMatchObject({ type: 'apiKey', in: 'header', name: 'x-api-key' });
    expect(document.paths['/healthz'].get.security).toEqual([]);
    expect(document.paths['/healthz'].get.parameters).toBeUndefined();
    expect(document.paths['/v1/things'].get.security).toBeUndefined();
  });

  test('two routes for one method and path are refused', () => {
    expect(() => openApiDocument([routes[1]!, routes[1]!], { headerPrefix: 'acme' })).toThrow('two routes for GET /v1/things');
  });
});

describe('referencePage', () => {
  test('one self-contained page: every operation, schemas linked, text escaped', () => {
    const Tricky = Type.Object({ note: Type.String({ description: '<b>not markup</b> `code`' }) });
    const document = openApiDocument(
      [apiRoute({ method: 'POST', path: '/v1/things', body: json(ThingBody) }), apiRoute({ method: 'GET', path: '/v1/things/:thing_id', reply: json(Tricky) })],
      { headerPrefix: 'acme' },
    );
    const page = referencePage(document);
    expect(page).toStartWith('<!doctype html>');
    expect(page).toContain('<code>/v1/things/{thing_id}</code>');
    expect(page).toContain('<a href="#schema-InvalidRequestError">InvalidRequestError</a>');
    expect(page).toContain('&lt;b&gt;not markup&lt;/b&gt; <code>code</code>');
    expect(page).not.toMatch(/<script|\bsrc=/);
  });
});
