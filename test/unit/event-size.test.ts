import { describe, expect, test } from 'bun:test';
import { Type } from '@sinclair/typebox';
import { defineEvent, MAX_EVENT_BYTES, type EventType } from '@shared/bus/event';
import { worstCaseJsonBytes } from '@shared/bus/event-size';
import { agentEvents } from '@shared/schema/agent';
import { deploymentEvents } from '@shared/schema/deployment-events';
import { environmentEvents } from '@shared/schema/environment';
import { fileEvents } from '@shared/schema/file';
import { memoryStoreEvents } from '@shared/schema/memory-store';
import { sessionEvents } from '@shared/schema/session';
import { vaultEvents } from '@shared/schema/vault';

const declared: EventType[] = [agentEvents, deploymentEvents, environmentEvents, fileEvents, memoryStoreEvents, sessionEvents, vaultEvents].flatMap(
  (group) => Object.values(group),
);

describe('event payload bounds', () => {
  test('every declared event is bounded, and its largest form is small', () => {
    expect(declared.length).toBeGreaterThanOrEqual(12);
    for (const event of declared) expect(worstCaseJsonBytes(event.payload)).toBeLessThan(MAX_EVENT_BYTES);
  });

  test('an event that could outgrow the bus is refused where it is declared', () => {
    expect(() => defineEvent('sessions', 'sessions.x', Type.Object({ text: Type.String() }, { additionalProperties: false }))).toThrow(
      'event sessions.x: every payload field needs a size bound; data.text: a string without maxLength',
    );
    expect(() => defineEvent('sessions', 'sessions.x', Type.Object({ ids: Type.Array(Type.String({ maxLength: 40 })) }, { additionalProperties: false }))).toThrow(
      'data.ids: an array without maxItems',
    );
    expect(() => defineEvent('sessions', 'sessions.x', Type.Object({ id: Type.String({ maxLength: 40 }) }))).toThrow(
      'data: an object that admits unknown properties',
    );
    expect(() => defineEvent('sessions', 'sessions.x', Type.Object({ meta: Type.Record(Type.String(), Type.String()) }, { additionalProperties: false }))).toThrow(
      'data.meta: Record has no size bound',
    );
    expect(() => defineEvent('sessions', 'sessions.x', Type.Object({ blob: Type.String({ maxLength: 20_000 }) }, { additionalProperties: false }))).toThrow(
      /over the 65536-byte limit/,
    );
  });

  test('the bound is a true worst case: escapes and multi-byte characters included', () => {
    const schema = Type.Object({ s: Type.String({ maxLength: 4 }), n: Type.Union([Type.Integer(), Type.Null()]) }, { additionalProperties: false });
    for (const value of [{ s: '\u0000\u0001\u0002\u0003', n: -Number.MAX_SAFE_INTEGER }, { s: '\ud800\udfff\u20ac"', n: null }]) {
      expect(Buffer.byteLength(JSON.stringify(value))).toBeLessThanOrEqual(worstCaseJsonBytes(schema));
    }
  });
});
