/**
 * The files a deployment refers to, wherever they sit (resources, file rubrics, image and
 * document blocks): named by field path for create and update errors, asked about once each
 * at fire time.
 */
import { expect, test } from 'bun:test';
import type { DeploymentRow } from '../../services/deployments/src/db/schema';
import { referenceIds, rowReferences } from '../../services/deployments/src/domain/references';
import { eventFileReferences } from '../../services/deployments/src/domain/initial-events';
import type { InitialEventParams } from '@shared/schema/deployment';

const events: InitialEventParams[] = [
  {
    type: 'user.message',
    content: [
      { type: 'text', text: 'See attached' },
      { type: 'image', source: { type: 'file', file_id: 'file_a' } },
      { type: 'image', source: { type: 'url', url: 'https://example.com/x.png' } },
      { type: 'document', source: { type: 'file', file_id: 'file_b' }, title: 'B' },
      { type: 'document', source: { type: 'text', media_type: 'text/plain', data: 'inline' } },
    ],
  },
  { type: 'user.define_outcome', description: 'Grade', rubric: { type: 'file', file_id: 'file_a' } },
  { type: 'user.message', content: [{ type: 'document', source: { type: 'file', file_id: 'file_c' } }] },
];

test('every file source and file rubric, in request order, with its path', () => {
  expect(eventFileReferences(events)).toEqual([
    { id: 'file_a', path: 'initial_events.0.content.1.source.file_id' },
    { id: 'file_b', path: 'initial_events.0.content.3.source.file_id' },
    { id: 'file_a', path: 'initial_events.1.rubric.file_id' },
    { id: 'file_c', path: 'initial_events.2.content.0.source.file_id' },
  ]);
  expect(eventFileReferences([{ type: 'user.message', content: [{ type: 'text', text: 'plain' }] }])).toEqual([]);
});

test('a fire asks about each file once, resource files first', () => {
  const row = {
    agentId: 'agent_x',
    agentVersion: 1,
    environmentId: 'env_x',
    vaultIds: [],
    resources: [{ type: 'file', file_id: 'file_c', mount_path: '/mnt/session/c' }],
    initialEvents: events,
  } as unknown as DeploymentRow;
  expect(referenceIds(rowReferences(row)).file_ids).toEqual(['file_c', 'file_a', 'file_b']);
});
