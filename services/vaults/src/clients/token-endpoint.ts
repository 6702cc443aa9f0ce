import { lookup } from 'node:dns/promises';
import { allowedPrivateHost, refusedMcpAddresses, refusedMcpUrl } from '@shared/agents/mcp-hosts';
import { captureResponse } from '@shared/http/captured-response';
import type { McpOAuthRefresh } from '../domain/oauth-refresh';
import type { CapturedHttpResponse } from '@shared/schema/vault-credential-validation';

/**
 * An `mcp_oauth` credential's token endpoint, spoken to as RFC 6749 section 6 says (the
 * refresh_token grant, form-encoded, with the client authentication the credential names). The
 * URL is the tenant's, so it is held to the MCP servers' rule: no private, loopback or link-local
 * address (by literal or by what the name resolves to) and no plain http:// unless the operator
 * named the host in OAUTH_REFRESH_ALLOW_PRIVATE_HOSTS. Redirects are not followed (one could
 * lead anywhere). Bounded by a timeout.
 */

export type TokenExchangeResult =
  | { status: 'succeeded'; access_token: string; refresh_token?: string; expires_in?: number }
  | { status: 'failed'; http_response: CapturedHttpResponse }
  | { status: 'connect_error'; message: string };

export interface TokenEndpoint {
  exchange(refresh: McpOAuthRefresh): Promise<TokenExchangeResult>;
}

export interface TokenEndpointSettings {
  allowedPrivateHosts: ReadonlySet<string>;
  timeoutMs: number;
  resolve?: (hostname: string) => Promise<string[]>;
}

const systemResolve = async (hostname: string) => (await lookup(hostname, { all: true })).map((a) => a.address);

/** RFC 6749 2.3.1: the client id and secret are form-encoded before they are joined for Basic. */
const basic = (id: string, secret: string) =>
  `Basic ${Buffer.from(`${encodeURIComponent(id)}:${encodeURIComponent(secret)}`).toString('base64')}`;

export function tokenEndpoint(settings: TokenEndpointSettings): TokenEndpoint {
  const resolve = settings.resolve ?? systemResolve;

  async function refused(url: URL): Promise<string | undefined> {
    const why = refusedMcpUrl(url, settings.allowedPrivateHosts);
    if (why || allowedPrivateHost(url, settings.allowedPrivateHosts)) return why;
    const addresses = await resolve(url.hostname.replace(/^\[|\]$/g, '')).catch(() => undefined);
    if (!addresses) return `${url.hostname} could not be resolved`;
    return refusedMcpAddresses(url.hostname, addresses);
  }

  return {
    async exchange(refresh) {
      let url: URL;
      try {
        url = new URL(refresh.token_endpoint);
      } catch {
        return { status: 'connect_error', message: 'the token endpoint is not a valid URL' };
      }
      const why = await refused(url);
      if (why) return { status: 'connect_error', message: `the token endpoint may not be reached: ${why}` };

      const auth = refresh.token_endpoint_auth;
      const form = new URLSearchParams({ grant_type: 'refresh_token', refresh_token: refresh.refresh_token });
      const headers: Record<string, string> = { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' };
      if (auth.type === 'client_secret_basic') headers.authorization = basic(refresh.client_id, auth.client_secret);
      else form.set('client_id', refresh.client_id);
      if (auth.type === 'client_secret_post') form.set('client_secret', auth.client_secret);
      if (refresh.scope) form.set('scope', refresh.scope);
      if (refresh.resource) form.set('resource', refresh.resource);
      const secrets = [refresh.refresh_token, auth.type === 'none' ? undefined : auth.client_secret];

      let response: Response;
      try {
        response = await fetch(url, { method: 'POST', headers, body: form, redirect: 'manual', signal: AbortSignal.timeout(settings.timeoutMs) });
      } catch (err) {
        const timedOut = err instanceof Error && (err.name === 'TimeoutError' || err.name === 'AbortError');
        return { status: 'connect_error', message: timedOut ? `the token endpoint did not answer within ${settings.timeoutMs} ms` : 'the token endpoint could not be reached' };
      }
      if (!response.ok) return { status: 'failed', http_response: await captureResponse(response, secrets) };
      const body = (await response
        .clone()
        .json()
        .catch(() => undefined)) as { access_token?: unknown; refresh_token?: unknown; expires_in?: unknown } | undefined;
      if (typeof body?.access_token !== 'string' || body.access_token.length === 0) {
        return { status: 'failed', http_response: await captureResponse(response, secrets) };
      }
      const expiresIn = Number(body.expires_in);
      return {
        status: 'succeeded',
        access_token: body.access_token,
        ...(typeof body.refresh_token === 'string' && body.refresh_token ? { refresh_token: body.refresh_token } : {}),
        ...(Number.isFinite(expiresIn) && expiresIn > 0 ? { expires_in: expiresIn } : {}),
      };
    },
  };
}
