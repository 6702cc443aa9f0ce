import { describe, expect, test } from 'bun:test';
import { Type } from '@sinclair/typebox';
import { coerceText } from '@shared/validation/coerce';
import { QueryBoolean } from '@shared/schema/common';
import { schemaCompilations } from '@shared/validation/validate';
import { NO_QUERY, parseQuery } from '../../../services/gateway/src/http/query';
import { readEventListQuery, readEventStreamQuery } from '../../../services/gateway/src/modules/session-events/model';
import { pagedQuery } from '../../../services/gateway/src/routing/pagination';

/** Throws exactly this message. */
const refuses = (fn: () => unknown, message: string) => expect(fn).toThrow(new Error(message));
const url = (query: string) => new URL(`http://gateway/v1/things?${query}`);

describe('coerceText: text to the declared type, before validation', () => {
  const integer = Type.Integer();
  test('integers only as plain decimal digits; everything else stays text', () => {
    expect(coerceText(integer, '20')).toBe(20);
    expect(coerceText(integer, '-3')).toBe(-3);
    for (const raw of ['1.5', '1e3', '0x10', ' 5', '+5', '', 'ten']) expect(coerceText(integer, raw)).toBe(raw);
  });
  test('booleans from true/1/yes and false/0/no, any case', () => {
    expect(coerceText(Type.Boolean(), 'TRUE')).toBe(true);
    expect(coerceText(Type.Boolean(), 'yes')).toBe(true);
    expect(coerceText(Type.Boolean(), '0')).toBe(false);
    expect(coerceText(Type.Boolean(), 'maybe')).toBe('maybe');
  });
  test('strings and literal unions are left alone', () => {
    expect(coerceText(Type.String(), '12')).toBe('12');
    expect(coerceText(QueryBoolean, 'true')).toBe('true');
  });
});

describe('parseQuery', () => {
  const schema = pagedQuery({ include_archived: Type.Optional(QueryBoolean) });

  test('converts and validates by the schema; `beta` belongs to the gateway', () => {
    expect(parseQuery(url('beta=true&limit=5&include_archived=false'), schema)).toEqual({ limit: 5, include_archived: 'false' });
  });
  test('a non-integer limit is refused, naming the parameter', () => {
    refuses(() => parseQuery(url('limit=1.5'), schema), 'limit: must be an integer');
    refuses(() => parseQuery(url('limit=1e1'), schema), 'limit: must be an integer');
    refuses(() => parseQuery(url('limit=0'), schema), 'limit: must be at least 1');
    refuses(() => parseQuery(url('limit=101'), schema), 'limit: must be at most 100');
  });
  test('unknown and repeated parameters are 400', () => {
    refuses(() => parseQuery(url('colour=red'), schema), 'colour: unknown query parameter');
    refuses(() => parseQuery(url('__proto__=1'), schema), '__proto__: unknown query parameter');
    refuses(() => parseQuery(url('limit=1&limit=2'), schema), 'limit: must be given at most once');
  });
  test('literal unions name their spellings', () => {
    refuses(() => parseQuery(url('include_archived=yes'), schema), 'include_archived: must be one of "true", "false"');
  });
});

test('reading a query compiles no schema anew: each is compiled once, not per request', () => {
  const stream = new URL('http://gateway.internal/v1/sessions/sesn_1/events/stream?beta=true&event_deltas=agent.message');
  const list = new URL('http://gateway.internal/v1/sessions/sesn_1/events?beta=true&limit=5&order=desc');
  readEventStreamQuery(stream);
  readEventListQuery('sesn_1', list);
  parseQuery(new URL('http://gateway.internal/v1/x?beta=true'), NO_QUERY);
  const before = schemaCompilations();
  for (let i = 0; i < 3; i++) {
    readEventStreamQuery(stream);
    readEventListQuery('sesn_1', list);
    parseQuery(new URL('http://gateway.internal/v1/x?beta=true'), NO_QUERY);
  }
  expect(schemaCompilations()).toBe(before);
});
