import { Type } from '@sinclair/typebox';
import { deploymentRunSubjects } from '@shared/bus/subjects/deployments';
import { IdOf, QueryBoolean } from '@shared/schema/common';
import { DeploymentRun, DeploymentRunListFilters, TriggerType } from '@shared/schema/deployment-run';
import { pagedQuery, type PageRoute } from '../../routing/pagination';
import { createdAtBound } from '../../http/created-at-bound';

const Bound = Type.Optional(Type.String({ minLength: 1 }));

export const DeploymentRunListQuery = pagedQuery({
  deployment_id: Type.Optional(IdOf('deployment')),
  trigger_type: Type.Optional(TriggerType),
  has_error: Type.Optional(QueryBoolean),
  'created_at[gt]': Bound,
  'created_at[gte]': Bound,
  'created_at[lt]': Bound,
  'created_at[lte]': Bound,
});


export const deploymentRunListRoute: PageRoute<typeof DeploymentRunListQuery, typeof DeploymentRunListFilters, typeof DeploymentRun> = {
  endpoint: 'deployment_runs.list',
  query: DeploymentRunListQuery,
  subject: deploymentRunSubjects.list,
  toFilters: (q): DeploymentRunListFilters => ({
    deployment_id: q.deployment_id,
    trigger_type: q.trigger_type,
    has_error: q.has_error === undefined ? undefined : q.has_error === 'true',
    created_at_gt: createdAtBound('gt', q['created_at[gt]']),
    created_at_gte: createdAtBound('gte', q['created_at[gte]']),
    created_at_lt: createdAtBound('lt', q['created_at[lt]']),
    created_at_lte: createdAtBound('lte', q['created_at[lte]']),
  }),
};
