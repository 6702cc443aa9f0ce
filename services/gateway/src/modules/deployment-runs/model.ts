import { Type } from '@sinclair/typebox';
import { deploymentRunSubjects } from '../../../../../shared/bus/subjects/deployments';
import { invalidRequest } from '../../../../../shared/errors/api-error';
import { QueryBoolean } from '../../../../../shared/schema/common';
import { DeploymentRun, DeploymentRunListFilters, TriggerType } from '../../../../../shared/schema/deployment-run';
import { parseRfc3339 } from '../../../../../shared/schema/rfc3339';
import { pagedQuery, type PageRoute } from '../../routing/pagination';

const Bound = Type.Optional(Type.String({ minLength: 1 }));

export const DeploymentRunListQuery = pagedQuery({
  deployment_id: Type.Optional(Type.String({ minLength: 1, maxLength: 128 })),
  trigger_type: Type.Optional(TriggerType),
  has_error: Type.Optional(QueryBoolean),
  'created_at[gt]': Bound,
  'created_at[gte]': Bound,
  'created_at[lt]': Bound,
  'created_at[lte]': Bound,
});

type BoundKind = 'gt' | 'gte' | 'lt' | 'lte';

/**
 * Creation times are stored to the millisecond. A bound finer than that is moved to the
 * millisecond that keeps the comparison exact: a lower inclusive or upper exclusive bound
 * (`gte`, `lt`) up to the next millisecond, the other two down (which is what parsing does).
 */
function timestampBound(kind: BoundKind, value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  const date = parseRfc3339(value);
  if (!date) throw invalidRequest(`created_at[${kind}]: must be an RFC 3339 timestamp`);
  const subMillisecond = /\.\d{3}0*[1-9]/.test(value);
  const roundUp = subMillisecond && (kind === 'gte' || kind === 'lt');
  return new Date(date.getTime() + (roundUp ? 1 : 0)).toISOString();
}

export const deploymentRunListRoute: PageRoute<typeof DeploymentRunListQuery, typeof DeploymentRunListFilters, typeof DeploymentRun> = {
  endpoint: 'deployment_runs.list',
  query: DeploymentRunListQuery,
  subject: deploymentRunSubjects.list,
  toFilters: (q): DeploymentRunListFilters => ({
    deployment_id: q.deployment_id,
    trigger_type: q.trigger_type,
    has_error: q.has_error === undefined ? undefined : q.has_error === 'true',
    created_at_gt: timestampBound('gt', q['created_at[gt]']),
    created_at_gte: timestampBound('gte', q['created_at[gte]']),
    created_at_lt: timestampBound('lt', q['created_at[lt]']),
    created_at_lte: timestampBound('lte', q['created_at[lte]']),
  }),
};
