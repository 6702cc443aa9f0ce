import { Type } from '@sinclair/typebox';
import { deploymentSubjects } from '../../../../../shared/bus/subjects/deployments';
import { invalidRequest } from '../../../../../shared/errors/api-error';
import { QueryBoolean } from '../../../../../shared/schema/common';
import {
  Deployment,
  DeploymentCreateRequest,
  DeploymentListFilters,
  DeploymentStatus,
  DeploymentUpdateRequest,
} from '../../../../../shared/schema/deployment';
import { parseRfc3339 } from '../../../../../shared/schema/rfc3339';
import { pagedQuery, type PageRoute } from '../../routing/pagination';

/** POST /v1/deployments body: validated here, so a bad request never costs a bus round trip. */
export const DeploymentCreateBody = DeploymentCreateRequest;

/** POST /v1/deployments/{id} body: the SDK's patch semantics, per field. */
export const DeploymentUpdateBody = DeploymentUpdateRequest;

export const DeploymentListQuery = pagedQuery({
  agent_id: Type.Optional(Type.String({ minLength: 1, maxLength: 128 })),
  status: Type.Optional(DeploymentStatus),
  'created_at[gte]': Type.Optional(Type.String({ minLength: 1 })),
  'created_at[lte]': Type.Optional(Type.String({ minLength: 1 })),
  include_archived: Type.Optional(QueryBoolean),
});

/**
 * Creation times are stored to the millisecond. A bound finer than that is rounded inward so
 * the inclusive comparison stays exact: `gte` up to the next millisecond, `lte` down.
 */
function timestampFilter(name: string, value: string | undefined, bound: 'gte' | 'lte'): string | undefined {
  if (value === undefined) return undefined;
  const date = parseRfc3339(value);
  if (!date) throw invalidRequest(`${name}: must be an RFC 3339 timestamp`);
  const subMillisecond = /\.\d{3}0*[1-9]/.test(value);
  const ms = date.getTime() + (bound === 'gte' && subMillisecond ? 1 : 0);
  return new Date(ms).toISOString();
}

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
      created_at_gte: timestampFilter('created_at[gte]', q['created_at[gte]'], 'gte'),
      created_at_lte: timestampFilter('created_at[lte]', q['created_at[lte]'], 'lte'),
      include_archived: includeArchived,
    };
  },
};
