import { Type, type Static } from '@sinclair/typebox';
import { defineEvent } from '../bus/event';
import { Nullable } from './common';

/**
 * What the scheduler needs to know about a deployment, sent whole with every change so a
 * consumer never has to merge partial updates. `revision` grows with every change of the
 * deployment; a consumer ignores a snapshot older than the one it already applied (outbox
 * relays and redeliveries may reorder events).
 */
export const DeploymentSnapshot = Type.Object(
  {
    deployment_id: Type.String(),
    organization_id: Type.String(),
    workspace_id: Type.String(),
    schedule: Nullable(Type.Object({ expression: Type.String(), timezone: Type.String() }, { additionalProperties: false })),
    status: Type.Union([Type.Literal('active'), Type.Literal('paused')]),
    archived: Type.Boolean(),
    revision: Type.Integer({ minimum: 1 }),
  },
  { additionalProperties: false },
);
export type DeploymentSnapshot = Static<typeof DeploymentSnapshot>;

export const deploymentEvents = {
  created: defineEvent('deployments', 'deployments.created', DeploymentSnapshot),
  updated: defineEvent('deployments', 'deployments.updated', DeploymentSnapshot),
  paused: defineEvent('deployments', 'deployments.paused', DeploymentSnapshot),
  unpaused: defineEvent('deployments', 'deployments.unpaused', DeploymentSnapshot),
  archived: defineEvent('deployments', 'deployments.archived', DeploymentSnapshot),
};
