import Anthropic from '@anthropic-ai/sdk';
import type { Work } from '@shared/schema/work';

/** The sessions token inside a work item's secret (base64url JSON `{sessions_token}`). */
function sessionsTokenOf(item: Work): string {
  const payload = JSON.parse(Buffer.from(item.secret ?? '', 'base64url').toString('utf8')) as { sessions_token?: unknown };
  if (typeof payload.sessions_token !== 'string') throw new Error(`work ${item.id}: its secret carries no sessions token`);
  return payload.sessions_token;
}

/**
 * Force-stops a work item through the gateway, as the session's own process would have, with the
 * item's sessions token (the only credential this worker holds for it). A 409 means it is stopped
 * already.
 */
export async function forceStopWork(gatewayUrl: string, item: Work): Promise<void> {
  const client = new Anthropic({ baseURL: gatewayUrl, apiKey: null, authToken: sessionsTokenOf(item) });
  try {
    await client.beta.environments.work.stop(item.id, { environment_id: item.environment_id, force: true });
  } catch (err) {
    if (err instanceof Anthropic.APIError && err.status === 409) return;
    throw err;
  }
}
