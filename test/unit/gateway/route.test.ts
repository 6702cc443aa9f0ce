import { describe, expect, test } from 'bun:test';
import { Type } from '@sinclair/typebox';
import { RawBody } from '../../../services/gateway/src/http/raw-body';
import { route } from '../../../services/gateway/src/routing/route';
import { messageOf } from '../../support/expect';

const call = { request_id: 'req_1', tenant: null };
const json = (text: string, contentType = 'application/json') => new RawBody(new TextEncoder().encode(text), contentType);
const context = (body?: RawBody, query = '') => ({
  call,
  url: new URL(`http://gw/v1/things/thg_1?beta=true${query}`),
  params: { thing_id: 'thg_1' },
  body,
});

describe('route(): input declared once, parsed after the guard', () => {
  const Body = Type.Object({ name: Type.String({ minLength: 1 }) }, { additionalProperties: false });
  const Query = Type.Object({ version: Type.Optional(Type.Integer({ minimum: 1 })) }, { additionalProperties: false });
  const Anything = Type.Unknown();
  const update = route.post('/v1/things/:thing_id', { body: Body, query: Query, reply: Anything, errors: [409] }, (input) => input);

  test('hands the handler typed params, body and query', async () => {
    const input = await update.handle(context(json('{"name":"a"}'), '&version=2'));
    expect(input).toEqual({ call, params: { thing_id: 'thg_1' }, body: { name: 'a' }, query: { version: 2 } });
    expect(update).toMatchObject({ method: 'POST', path: '/v1/things/:thing_id' });
  });
  test('carries its contract for the document: query, body and reply media, its own error statuses', () => {
    expect(update).toMatchObject({
      access: 'api',
      query: Query,
      body: { mediaType: 'application/json', schema: Body },
      reply: { mediaType: 'application/json', schema: Anything },
      errors: [409],
    });
    const bare = route.get('/v1/things/:thing_id', { reply: Anything }, () => null);
    expect(bare.body).toBeUndefined();
    expect(bare.query).toBeUndefined();
    expect(bare.errors).toEqual([]);
  });
  test('the query is checked before the body', async () => {
    expect(await messageOf(update.handle(context(json('{}'), '&version=0')))).toBe('version: must be at least 1');
  });
  test('a route that declares no query takes nothing but beta (a GET the guard takes for a list included)', async () => {
    const stats = route.get('/v1/things/:thing_id/stats', { reply: Type.String() }, ({ params }) => params.thing_id);
    expect(await stats.handle(context(undefined))).toBe('thg_1');
    expect(await messageOf(stats.handle(context(undefined, '&expand=1')))).toBe('expand: unknown query parameter');
  });
  test('a JSON body must be present, JSON, and valid, naming the field', async () => {
    expect(await messageOf(update.handle(context(undefined)))).toBe('body: a JSON body is required');
    expect(await messageOf(update.handle(context(json('{"name":"a"}', 'text/plain'))))).toBe('content-type: must be application/json');
    expect(await messageOf(update.handle(context(json('{"name":'))))).toBe('body: malformed JSON');
    expect(await messageOf(update.handle(context(json('{"name":""}'))))).toBe('name: must be at least 1 character');
  });
  test('a route that declares no body takes none; an empty body or {} is tolerated', async () => {
    const archive = route.post('/v1/things/:thing_id/archive', { reply: Type.String() }, ({ params }) => params.thing_id);
    expect(await archive.handle(context(undefined))).toBe('thg_1');
    expect(await archive.handle(context(json('  ')))).toBe('thg_1');
    expect(await archive.handle(context(json('{}')))).toBe('thg_1');
    expect(await messageOf(archive.handle(context(json('{"a":1}'))))).toBe('body: this operation takes no body');
  });
  test('a body reader reads any other body, and says what it is for the document', async () => {
    const media = { mediaType: 'multipart/form-data', schema: Type.Object({ file: Type.String() }) };
    const reader = { media, read: (raw: RawBody | undefined) => raw?.contentType ?? 'none' };
    const upload = route.post('/v1/things', { body: reader, reply: Type.String() }, ({ body }) => body);
    expect(await upload.handle(context(json('x', 'multipart/form-data; boundary=b')))).toBe('multipart/form-data; boundary=b');
    expect(upload.body).toBe(media);
  });
});
