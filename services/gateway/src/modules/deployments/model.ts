import { Type } from '@sinclair/typebox';
import { deploymentSubjects } from '../../../../../shared/bus/subjects/deployments';
import { invalidRequest } from '../../../../../shared/errors/api-error';
import { QueryBoolean } from '../../../../../shared/schema/common';
import { Deployment, DeploymentListFilters, DeploymentStatus } from '../../../../../shared/schema/deployment';
import { parseRfc3339 } from '../../../../../shared/schema/rfc3339';
import { pagedQuery, type PageRoute } from '../../routing/pagination';

export const DeploymentListQuery = pagedQuery({
  agent_id: Type.Optional(Type.String({ minLength: 1, maxLength: 128 })),
  status: Type.Optional(DeploymentStatus),
  'created_at[gte]': Type.Optional(Type.String({ minLength: 1 })),
  'created_at[lte]': Type.Optional(Type.String({ minLength: 1 })),
  include_archived: Type.Optional(QueryBoolean),
});

function timestampFilter(name: string, value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  const date = parseRfc3339(value);
  if (!date) throw invalidRequest(`${name}: must be an RFC 3339 timestamp`);
  return date.toISOString();
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
      created_at_gte: timestampFilter('created_at[gte]', q['created_at[gte]']),
      created_at_lte: timestampFilter('created_at[lte]', q['created_at[lte]']),
      include_archived: includeArchived,
    };
  },
};
