import { Type } from '@sinclair/typebox';
import { deploymentSubjects } from '@shared/bus/subjects/deployments';
import { invalidRequest } from '@shared/errors/api-error';
import { IdOf, QueryBoolean } from '@shared/schema/common';
import { DeploymentStatus } from '@shared/schema/deployment';
import { createdAtRange } from '../../domain/created-at';
import { pagedQuery, pageRoute } from '../../routing/pagination';

const createdAt = createdAtRange('gte', 'lte');

export const deploymentListRoute = pageRoute({
  endpoint: 'deployments.list',
  query: pagedQuery({
    agent_id: Type.Optional(IdOf('agent')),
    status: Type.Optional(DeploymentStatus),
    ...createdAt.query,
    include_archived: Type.Optional(QueryBoolean),
  }),
  subject: deploymentSubjects.list,
  toFilters: (q) => {
    const includeArchived = q.include_archived === 'true';
    if (q.status !== undefined && includeArchived) {
      throw invalidRequest('status: cannot be combined with include_archived=true');
    }
    return { agent_id: q.agent_id, status: q.status, ...createdAt.filters(q), include_archived: includeArchived };
  },
});
