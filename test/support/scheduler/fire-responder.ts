import type { NatsConnection } from '@nats-io/transport-node';
import { BusServer } from '@shared/bus/bus-server';
import type { CallContext } from '@shared/bus/call-context';
import { PayloadCodec } from '@shared/bus/payload-codec';
import { deploymentSubjects } from '@shared/bus/subjects/deployments';
import { ApiError } from '@shared/errors/api-error';
import { newId } from '@shared/ids/ids';
import { createLogger } from '@shared/log/logger';
import { bucketName } from '@shared/service-host/service-host';
import type { DeploymentRun, FireDeploymentReply } from '@shared/schema/deployment-run';

type SkipReason = Extract<FireDeploymentReply, { outcome: 'skipped' }>['reason'];

export interface FireRequestRecord {
  deploymentId: string;
  scheduledAt: string;
  context: CallContext;
}

/**
 * A stand-in for the deployments service's fire handler, served over real NATS: idempotent per
 * (deployment, scheduled occurrence) like the real one's unique key, so a repeated request
 * returns the run already recorded. It keeps every request, so tests can tell runs (distinct
 * keys) from repeated requests.
 */
export async function startFireResponder(nc: NatsConnection, prefix: string) {
  const server = new BusServer(nc, new PayloadCodec(nc, bucketName(prefix)), { prefix, logger: createLogger('error') });
  const runs = new Map<string, DeploymentRun>();
  const requests: FireRequestRecord[] = [];
  const skip = new Map<string, SkipReason>();
  const failures = new Map<string, number>();
  let repeated = 0;

  server.handle(deploymentSubjects.fire, async (request, ctx): Promise<FireDeploymentReply> => {
    if (request.trigger.type !== 'schedule') throw new ApiError('invalid_request_error', 'schedule triggers only');
    const id = request.deployment_id;
    const remainingFailures = failures.get(id) ?? 0;
    if (remainingFailures > 0) {
      failures.set(id, remainingFailures - 1);
      throw new ApiError('overloaded_error', 'deployments is overloaded');
    }
    requests.push({ deploymentId: id, scheduledAt: request.trigger.scheduled_at, context: ctx });
    const reason = skip.get(id);
    if (reason) return { outcome: 'skipped', reason };
    const key = `${id}@${request.trigger.scheduled_at}`;
    let run = runs.get(key);
    if (run) repeated += 1;
    else {
      run = {
        type: 'deployment_run',
        id: newId('deploymentRun'),
        deployment_id: id,
        agent: { type: 'agent', id: 'agent_stand_in', version: 1 },
        trigger_context: request.trigger,
        session_id: newId('session'),
        error: null,
        created_at: new Date().toISOString(),
      };
      runs.set(key, run);
    }
    return { outcome: 'fired', run };
  });

  return {
    runs,
    requests,
    /** Answer `skipped` for this deployment (as if paused, archived...), or stop doing so. */
    skip: (deploymentId: string, reason: SkipReason | null) => (reason ? skip.set(deploymentId, reason) : skip.delete(deploymentId)),
    /** Fail the next `n` fires of this deployment with overloaded_error. */
    failNext: (deploymentId: string, n: number) => failures.set(deploymentId, n),
    /** Requests that found their run already recorded (harmless, but only crashes should cause them). */
    repeatedRequests: () => repeated,
    /** Scheduled occurrences (ISO) that produced a run for one deployment, in order. */
    runsOf: (deploymentId: string) =>
      [...runs.values()].filter((r) => r.deployment_id === deploymentId).map((r) => (r.trigger_context as { scheduled_at: string }).scheduled_at).sort(),
    stop: () => server.stop(),
  };
}
export type FireResponder = Awaited<ReturnType<typeof startFireResponder>>;
