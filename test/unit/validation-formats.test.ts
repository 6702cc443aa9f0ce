import { expect, test } from 'bun:test';
import { Type } from '@sinclair/typebox';
import { isValid } from '@shared/validation/validate';
import { Timestamp } from '@shared/schema/common';

// Runs without Elysia in the import graph: service processes validate timestamps the same way.
test('date-time is checked by the shared validator itself', () => {
  const schema = Type.Object({ at: Timestamp });
  expect(isValid(schema, { at: '2026-11-22T09:00:00.000Z' })).toBe(true);
  expect(isValid(schema, { at: '2026-02-30T09:00:00.000Z' })).toBe(false);
  expect(isValid(schema, { at: 'yesterday' })).toBe(false);
});
