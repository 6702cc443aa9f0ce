import { describe, expect, test } from 'bun:test';
import { deploymentEvents } from '@shared/schema/deployment-events';
import { archiveChange, errorPauseChange, pauseChange, unpauseChange } from '../../../services/deployments/src/domain/lifecycle';
import { deploymentRow } from '../../support/deployment-row';
import { messageOf } from '../../support/expect';

const now = new Date('2026-06-02T10:00:00.000Z');

describe('pause, unpause, archive: what each does to a row', () => {
  test('pause: manual reason and the paused event; a paused row is left as it is, reason included', () => {
    expect(pauseChange(deploymentRow())).toEqual({
      row: deploymentRow({ status: 'paused', pausedReason: { type: 'manual' } }),
      event: deploymentEvents.paused,
    });
    expect(pauseChange(deploymentRow({ status: 'paused', pausedReason: { type: 'error', error: { type: 'vault_archived_error' } } }))).toBeNull();
  });

  test('unpause clears the reason; an active row is left as it is', () => {
    expect(unpauseChange(deploymentRow({ status: 'paused', pausedReason: { type: 'manual' } }))).toEqual({
      row: deploymentRow(),
      event: deploymentEvents.unpaused,
    });
    expect(unpauseChange(deploymentRow())).toBeNull();
  });

  test('archive is one-way: active, no reason, archived at the time given; again changes nothing', () => {
    const archived = archiveChange(deploymentRow({ status: 'paused', pausedReason: { type: 'manual' } }), now);
    expect(archived).toEqual({ row: deploymentRow({ archivedAt: now }), event: deploymentEvents.archived });
    expect(archiveChange(archived!.row, new Date(now.getTime() + 1000))).toBeNull();
  });

  test('an archived deployment cannot be paused or unpaused', () => {
    const archived = deploymentRow({ archivedAt: now });
    expect(messageOf(() => pauseChange(archived))).toBe("deployment 'depl_1' is archived and cannot be paused");
    expect(messageOf(() => unpauseChange(archived))).toBe("deployment 'depl_1' is archived and cannot be unpaused");
  });

  test('a failed scheduled run pauses with the error kind as its reason', () => {
    expect(errorPauseChange(deploymentRow(), { type: 'environment_archived_error' }).row).toMatchObject({
      status: 'paused',
      pausedReason: { type: 'error', error: { type: 'environment_archived_error' } },
    });
  });
});
