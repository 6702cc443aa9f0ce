import type { BusClient } from '@shared/bus/bus-client';
import { systemContext } from '@shared/bus/call-context';
import { sessionResourceSubjects } from '@shared/bus/subjects/sessions';
import { newId } from '@shared/ids/ids';
import type { ClaimedWork } from '@shared/schema/sandbox-policy';
import { endpointOf, type Endpoint } from '../domain/egress-rules';
import { basicAuthorization } from '../domain/repository-clone';

/**
 * A session's repository tokens as they are now, read from the deployments service at each
 * request the proxy puts one into (with the item's tenant): a token rotated with
 * `sessions.resources.update` takes effect at the agent's next fetch or push, and a repository
 * removed from the session gets no token.
 */
export function currentRepositoryTokens(bus: Pick<BusClient, 'call'>, claimed: ClaimedWork) {
  return async (endpoint: Endpoint): Promise<string | undefined> => {
    const ctx = systemContext(newId('request'), { ...claimed.owner, scope: 'read_only', key_id: 'sandbox-worker' });
    const mounts = await bus.call(sessionResourceSubjects.resolve, ctx, { session_id: claimed.work.data.id });
    const repository = mounts.repositories.find((r) => {
      const at = endpointOf(r.url);
      return at.host === endpoint.host && at.port === endpoint.port;
    });
    return repository?.authorization_token ? basicAuthorization(repository.authorization_token) : undefined;
  };
}
