import type { Handler } from '@shared/bus/bus-server';
import type { deploymentSubjects } from '@shared/bus/subjects/deployments';
import { ApiError } from '@shared/errors/api-error';
import type { DeploymentsDeps } from '../deps';
import { fire } from './fire-deployment';

/**
 * The manual run: `fire` (fire-deployment.ts) with a manual trigger, called here directly, not
 * over the bus. It has its own subject so the gateway can be allowed this one and refused
 * `fire`, which accepts scheduled triggers too.
 */
export const runDeployment =
  (deps: DeploymentsDeps): Handler<typeof deploymentSubjects.run> =>
  async ({ deployment_id }, ctx) => {
    const reply = await fire(deps, ctx, { deployment_id, trigger: { type: 'manual' } });
    // A manual trigger is never skipped; anything else is a bug in the fire path.
    if (reply.outcome !== 'fired') {
      throw new ApiError('api_error', undefined, { cause: new Error(`manual fire answered ${reply.outcome}`) });
    }
    return reply.run;
  };
