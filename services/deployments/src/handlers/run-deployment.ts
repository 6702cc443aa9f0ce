import type { Handler } from '@shared/bus/bus-server';
import type { deploymentSubjects } from '@shared/bus/subjects/deployments';
import { ApiError } from '@shared/errors/api-error';
import type { FireCore } from '../fire-core';

type S = typeof deploymentSubjects.run;

/**
 * The manual run: the fire path with a manual trigger. It has its own subject so the gateway
 * can be allowed this one and refused `fire`, which accepts scheduled triggers too.
 */
export const runDeployment =
  (core: FireCore): Handler<S> =>
  async (request, ctx) => {
    const reply = await core.fire(ctx, { deployment_id: request.deployment_id, trigger: { type: 'manual' } });
    // A manual trigger is never skipped; anything else is a bug in the fire path.
    if (reply.outcome !== 'fired') {
      throw new ApiError('api_error', undefined, { cause: new Error(`manual fire answered ${reply.outcome}`) });
    }
    return reply.run;
  };
