import { Type } from '@sinclair/typebox';
import { deploymentSubjects } from '@shared/bus/subjects/deployments';
import { invalidRequest } from '@shared/errors/api-error';
import { IdOf, QueryBoolean } from '@shared/schema/common';
import {
  Deployment,
  DeploymentCreateRequest,
  DeploymentListFilters,
  DeploymentStatus,
  DeploymentUpdateRequest,
} from '@shared/schema/deployment';
import { pagedQuery, type PageRoute } from '../../routing/pagination';
import { createdAtBound } from '../../http/created-at-bound';

/** POST /v1/deployments body: validated here, so a bad request never costs a bus round trip. */
export const DeploymentCreateBody = DeploymentCreateRequest;

/** POST /v1/deployments/{id} body: the SDK's patch semantics, per field. */
export const DeploymentUpdateBody = DeploymentUpdateRequest;

export const DeploymentListQuery = pagedQuery({
  agent_id: Type.Optional(IdOf('agent')),
  status: Type.Optional(DeploymentStatus),
  'created_at[gte]': Type.Optional(Type.String({ minLength: 1 })),
  'created_at[lte]': Type.Optional(Type.String({ minLength: 1 })),
  include_archived: Type.Optional(QueryBoolean),
});

export const deploymentListRoute: PageRoute<typeof DeploymentListQuery, typeof DeploymentListFilters, typeof Deployment> = {
  endpoint: 'deployments.list',
  query: DeploymentListQuery,
  subject: deploymentSubjects.list,
  toFilters: (q): DeploymentListFilters => {
    const includeArchived = q.include_archived === 'true';
    if (q.status !== undefined && includeArchived) {
      throw invalidRequest('status: cannot be combined with include_archived=true');
    }
    return {
      agent_id: q.agent_id,
      status: q.status,
      created_at_gte: createdAtBound('gte', q['created_at[gte]']),
      created_at_lte: createdAtBound('lte', q['created_at[lte]']),
      include_archived: includeArchived,
    };
  },
};
