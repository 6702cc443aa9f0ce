import { Type, type Static } from '@sinclair/typebox';
import { defineEvent } from '../bus/event';
import { Closed, IdParam, Nullable } from './common';

/**
 * What the scheduler needs to know about a deployment, sent whole with every change so a
 * consumer never has to merge partial updates. `revision` grows with every change of the
 * deployment; a consumer ignores a snapshot older than the one it already applied (outbox
 * relays and redeliveries may reorder events). Every field is small and bounded (defineEvent
 * checks it): a deployment's content (initial events, resources) is never in an event.
 */
export const DeploymentSnapshot = Closed({
  deployment_id: IdParam,
  organization_id: IdParam,
  workspace_id: IdParam,
  // The bounds are those the API already enforces: ScheduleParams' expression, and the longest
  // timezone name shared/cron/timezone.ts lets through.
  schedule: Nullable(
    Closed({ expression: Type.String({ maxLength: 256 }), timezone: Type.String({ maxLength: 64 }) }),
  ),
  status: Type.Union([Type.Literal('active'), Type.Literal('paused')]),
  archived: Type.Boolean(),
  revision: Type.Integer({ minimum: 1 }),
});
export type DeploymentSnapshot = Static<typeof DeploymentSnapshot>;

/**
 * Every change of a deployment is one of these. A deployment created without a schedule is
 * announced on a subject of its own, one token deeper (`deployments.created.unscheduled`), so
 * the scheduler's consumer (filter `deployments.*`) is never sent the most common create, which
 * it has nothing to do for: delivering and acking it cost a fifth of the stack's create
 * throughput (docs/performance.md). A consumer of every creation filters `deployments.created.>`
 * too, or `deployments.>`.
 */
export const deploymentEvents = {
  created: defineEvent('deployments', 'deployments.created', DeploymentSnapshot),
  createdUnscheduled: defineEvent('deployments', 'deployments.created.unscheduled', DeploymentSnapshot),
  updated: defineEvent('deployments', 'deployments.updated', DeploymentSnapshot),
  paused: defineEvent('deployments', 'deployments.paused', DeploymentSnapshot),
  unpaused: defineEvent('deployments', 'deployments.unpaused', DeploymentSnapshot),
  archived: defineEvent('deployments', 'deployments.archived', DeploymentSnapshot),
};

/** What can change a schedule: every deployment event on `deployments.*` (the scheduler's filter). */
export const scheduleChangingEvents = [
  deploymentEvents.created,
  deploymentEvents.updated,
  deploymentEvents.paused,
  deploymentEvents.unpaused,
  deploymentEvents.archived,
];
export const SCHEDULE_CHANGING_SUBJECTS = 'deployments.*';
