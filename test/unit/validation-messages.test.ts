import { describe, expect, test } from 'bun:test';
import { Type } from '@sinclair/typebox';
import { validate } from '@shared/validation/validate';
import { messageOf } from '../support/expect';


describe('validation messages name the field path', () => {
  const closed = Type.Object({ a: Type.Object({ b: Type.String({ minLength: 1 }) }, { additionalProperties: false }) }, { additionalProperties: false });

  test('unknown properties are named where they stand, whatever their value', () => {
    expect(messageOf(() => validate(closed, { a: { b: 'x', colour: 'blue' } }))).toBe('a.colour: unknown property');
    expect(messageOf(() => validate(closed, { a: { b: 'x' }, z: { deep: 1 } }))).toBe('z: unknown property');
  });

  test('limits name the field', () => {
    expect(messageOf(() => validate(closed, { a: { b: '' } }))).toBe('a.b: must be at least 1 character');
    expect(messageOf(() => validate(closed, {}))).toBe('a: is required');
  });

  test('a nullable object reports the inner field', () => {
    const schema = Type.Object({ m: Type.Union([Type.Object({ x: Type.String() }, { additionalProperties: false }), Type.Null()]) });
    expect(messageOf(() => validate(schema, { m: { x: 1 } }))).toBe('m.x: must be a string');
    expect(messageOf(() => validate(schema, { m: { x: 'a', y: 1 } }))).toBe('m.y: unknown property');
  });

  test('a discriminated union reports from the selected variant', () => {
    const schema = Type.Object({
      r: Type.Union([
        Type.Object({ type: Type.Literal('a'), url: Type.String() }, { additionalProperties: false }),
        Type.Object({ type: Type.Literal('b'), id: Type.String() }, { additionalProperties: false }),
      ]),
    });
    expect(messageOf(() => validate(schema, { r: { type: 'a' } }))).toBe('r.url: is required');
    expect(messageOf(() => validate(schema, { r: { type: 'c' } }))).toStartWith('r:');
  });
});

describe('metadata', () => {
  const { Metadata, MetadataPatch } = require('@shared/schema/common');
  test('keys are 1 to 64 characters, reported at the record', () => {
    expect(messageOf(() => validate(Metadata, { ['k'.repeat(64)]: 'v' }))).toBe('no error');
    expect(messageOf(() => validate(Metadata, { ['k'.repeat(65)]: 'v' }, 'metadata'))).toBe('metadata: keys must be 1 to 64 characters');
    expect(messageOf(() => validate(Metadata, { '': 'v' }, 'metadata'))).toBe('metadata: keys must be 1 to 64 characters');
    expect(messageOf(() => validate(MetadataPatch, { ['k'.repeat(65)]: null }, 'metadata'))).toBe('metadata: keys must be 1 to 64 characters');
    expect(messageOf(() => validate(Metadata, { k: 'v'.repeat(513) }, 'metadata'))).toBe('metadata.k: must be at most 512 characters');
  });
});
