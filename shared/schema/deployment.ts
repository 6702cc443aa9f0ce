import { Type, type Static } from '@sinclair/typebox';
import { ListReply, ListRequest } from './common';

/**
 * The deployment resource. The foundation declares only what listing needs; the deployments
 * issue fills in the full request and response shapes here (one file, one source of truth).
 */
export const Deployment = Type.Object(
  { type: Type.Literal('deployment'), id: Type.String() },
  { additionalProperties: true },
);
export type Deployment = Static<typeof Deployment>;

export const DeploymentStatus = Type.Union([Type.Literal('active'), Type.Literal('paused')]);

/** Filters as the deployments service receives them, already checked for consistency. */
export const DeploymentListFilters = Type.Object(
  {
    agent_id: Type.Optional(Type.String()),
    status: Type.Optional(DeploymentStatus),
    created_at_gte: Type.Optional(Type.String()),
    created_at_lte: Type.Optional(Type.String()),
    include_archived: Type.Boolean(),
  },
  { additionalProperties: false },
);
export type DeploymentListFilters = Static<typeof DeploymentListFilters>;

export const DeploymentListRequest = ListRequest(DeploymentListFilters);
export const DeploymentListReply = ListReply(Deployment);
