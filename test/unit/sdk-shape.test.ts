import { expect, test } from 'bun:test';
import { sdkShapeProblems } from '../support/sdk-shape';

/** The shape checker the SDK conformance tests rely on finds what it must, and only that. */
test('sdkShapeProblems names missing fields, wrong types, wrong literals and bad union members by path', () => {
  const event = { id: 'sevt_1', type: 'user.message', processed_at: '2026-11-24T00:00:00Z', content: [{ type: 'text', text: 'hi' }] };
  expect(sdkShapeProblems(event, 'BetaManagedAgentsUserMessageEvent')).toEqual([]);
  expect(sdkShapeProblems(event, 'BetaManagedAgentsSessionEvent')).toEqual([]);

  // processed_at is optional on a user event; its id is not.
  const { processed_at: _, ...unprocessed } = event;
  expect(sdkShapeProblems(unprocessed, 'BetaManagedAgentsUserMessageEvent')).toEqual([]);
  const { id: __, ...withoutId } = event;
  expect(sdkShapeProblems(withoutId, 'BetaManagedAgentsUserMessageEvent')).toEqual([
    'BetaManagedAgentsUserMessageEvent.id: required by the SDK, missing',
  ]);
  expect(sdkShapeProblems({ ...event, content: [{ type: 'text', text: 3 }] }, 'BetaManagedAgentsSessionEvent')).toEqual([
    'BetaManagedAgentsSessionEvent.content[0].text: expected a string, got number',
  ]);
  expect(sdkShapeProblems({ ...event, type: 'user.mesage' }, 'BetaManagedAgentsUserMessageEvent')).toEqual([
    'BetaManagedAgentsUserMessageEvent.type: expected "user.message", got "user.mesage"',
  ]);
  // Nullable fields accept null; optional ones may be absent; index signatures check their values.
  const vault = { id: 'vlt_1', type: 'vault', display_name: 'v', metadata: { a: 'b' }, archived_at: null, created_at: 't', updated_at: 't' };
  expect(sdkShapeProblems(vault, 'BetaManagedAgentsVault')).toEqual([]);
  expect(sdkShapeProblems({ ...vault, metadata: { a: 1 } }, 'BetaManagedAgentsVault')).toEqual([
    'BetaManagedAgentsVault.metadata["a"]: expected a string, got number',
  ]);
  expect(() => sdkShapeProblems({}, 'NoSuchType')).toThrow('no type named NoSuchType');
});
