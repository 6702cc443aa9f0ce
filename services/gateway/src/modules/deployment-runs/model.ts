import { Type } from '@sinclair/typebox';
import { deploymentRunSubjects } from '@shared/bus/subjects/deployments';
import { IdOf, QueryBoolean } from '@shared/schema/common';
import { TriggerType } from '@shared/schema/deployment-run';
import { createdAtRange } from '../../domain/created-at';
import { pagedQuery, pageRoute } from '../../routing/pagination';

const createdAt = createdAtRange('gt', 'gte', 'lt', 'lte');

export const deploymentRunListRoute = pageRoute({
  endpoint: 'deployment_runs.list',
  query: pagedQuery({
    deployment_id: Type.Optional(IdOf('deployment')),
    trigger_type: Type.Optional(TriggerType),
    has_error: Type.Optional(QueryBoolean),
    ...createdAt.query,
  }),
  subject: deploymentRunSubjects.list,
  toFilters: (q) => ({
    deployment_id: q.deployment_id,
    trigger_type: q.trigger_type,
    has_error: q.has_error === undefined ? undefined : q.has_error === 'true',
    ...createdAt.filters(q),
  }),
});
