import { describe, expect, test } from 'bun:test';
import { Type } from '@sinclair/typebox';
import { defineSubject, defineSubjects, type RequestOf, type Subject } from '@shared/bus/subject';
import * as catalogSubjects from '@shared/bus/subjects/catalog';
import * as deploymentsSubjects from '@shared/bus/subjects/deployments';
import * as sessionsSubjects from '@shared/bus/subjects/sessions';
import * as vaultsSubjects from '@shared/bus/subjects/vaults';
import { newId } from '@shared/ids/ids';
import { InclusiveCreatedAtBounds } from '@shared/schema/common';
import { ArchivableListFilters, Deleted, IdRequest, LifecycleTimestamps, UpdateRequest } from '@shared/schema/resource-shapes';
import { validate } from '@shared/validation/validate';

/** The message `validate` throws, or 'valid'. */
const verdict = (schema: Parameters<typeof validate>[0], value: unknown) => {
  try {
    validate(schema, value);
    return 'valid';
  } catch (err) {
    return (err as Error).message;
  }
};

describe('IdRequest', () => {
  const request = IdRequest('agent_id', 'agent');

  test('takes exactly one id of its kind, under its key', () => {
    expect(verdict(request, { agent_id: newId('agent') })).toBe('valid');
    expect(verdict(request, {})).toBe('agent_id: is required');
    expect(verdict(request, { agent_id: newId('agent'), extra: 1 })).toBe('extra: unknown property');
  });

  test('an id of another kind, or padded, names nothing: the pattern says what is expected', () => {
    const message = verdict(request, { agent_id: newId('environment') });
    expect(message).toStartWith('agent_id: must be an id of the form ');
    expect(verdict(request, { agent_id: ` ${newId('agent')}` })).toBe(message);
  });
});

describe('UpdateRequest', () => {
  const body = Type.Object({ name: Type.Optional(Type.String({ minLength: 1 })) }, { additionalProperties: false });
  const request = UpdateRequest('vault_id', 'vault', body);

  test('the id comes before the update, so a missing id is the error reported first', () => {
    expect(Object.keys(request.properties)).toEqual(['vault_id', 'update']);
    expect(verdict(request, {})).toBe('vault_id: is required');
    expect(verdict(request, { vault_id: newId('vault') })).toBe('update: is required');
  });

  test('the body is validated in place', () => {
    expect(verdict(request, { vault_id: newId('vault'), update: { name: 'x' } })).toBe('valid');
    expect(verdict(request, { vault_id: newId('vault'), update: { name: '' } })).toBe('update.name: must be at least 1 character');
  });
});

describe('Deleted', () => {
  test('names the deleted resource by its type', () => {
    const reply = Deleted('vault_deleted');
    expect(verdict(reply, { type: 'vault_deleted', id: 'vlt_1' })).toBe('valid');
    expect(verdict(reply, { type: 'file_deleted', id: 'vlt_1' })).toBe('type: must be "vault_deleted"');
    expect(verdict(reply, { type: 'vault_deleted', id: 'vlt_1', at: 1 })).toBe('at: unknown property');
  });
});

describe('LifecycleTimestamps', () => {
  test('created, updated, archived in that order; archived_at is null until archived', () => {
    const resource = Type.Object({ id: Type.String(), ...LifecycleTimestamps }, { additionalProperties: false });
    const at = '2026-11-22T09:00:00.000Z';
    expect(Object.keys(resource.properties)).toEqual(['id', 'created_at', 'updated_at', 'archived_at']);
    expect(verdict(resource, { id: 'x', created_at: at, updated_at: at, archived_at: null })).toBe('valid');
    expect(verdict(resource, { id: 'x', created_at: at, updated_at: at, archived_at: at })).toBe('valid');
    expect(verdict(resource, { id: 'x', created_at: at, archived_at: null })).toBe('updated_at: is required');
  });
});

describe('ArchivableListFilters', () => {
  test('the resource filters come first, include_archived last and required', () => {
    const filters = ArchivableListFilters(InclusiveCreatedAtBounds);
    expect(Object.keys(filters.properties)).toEqual(['created_at_gte', 'created_at_lte', 'include_archived']);
    expect(verdict(filters, { include_archived: false })).toBe('valid');
    expect(verdict(filters, {})).toBe('include_archived: is required');
    expect(verdict(filters, { include_archived: true, created_at_gt: 'x' })).toBe('created_at_gt: unknown property');
  });

  test('without filters of its own it takes only include_archived', () => {
    expect(Object.keys(ArchivableListFilters().properties)).toEqual(['include_archived']);
  });
});

describe('defineSubjects', () => {
  const Ping = Type.Object({ text: Type.String() });
  const Pong = Type.Object({ length: Type.Integer() });

  test('derives each name from its key and keeps request, reply and callers', () => {
    const subjects = defineSubjects('svc', 'things', { ping: [Ping, Pong], poke: [Pong, Ping, { callers: ['scheduler'] }] });
    expect(subjects.ping).toEqual(defineSubject('svc', 'things.ping', Ping, Pong));
    expect(subjects.poke).toEqual({ service: 'svc', name: 'svc.things.poke', callers: ['scheduler'], request: Pong, reply: Ping });
    expect(Object.keys(subjects)).toEqual(['ping', 'poke']);
    // The request type follows the schema given for the verb.
    const request: RequestOf<typeof subjects.ping> = { text: 'hi' };
    expect(request.text).toBe('hi');
  });

  test('every declared subject is named <service>.<resource>.<its key>', () => {
    const maps = { ...catalogSubjects, ...deploymentsSubjects, ...sessionsSubjects, ...vaultsSubjects };
    let count = 0;
    for (const [mapName, map] of Object.entries(maps)) {
      const entries = Object.entries(map as Record<string, Subject>);
      const resources = new Set(entries.map(([, s]) => s.name.split('.')[1]));
      expect(resources.size, mapName).toBe(1);
      for (const [verb, subject] of entries) {
        expect(subject.name).toBe(`${subject.service}.${subject.name.split('.')[1]}.${verb}`);
        count++;
      }
    }
    expect(count).toBeGreaterThan(40);
  });
});
