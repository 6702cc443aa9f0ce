import type { CredentialValidation, McpProbe, RefreshCredentialReply } from '@shared/schema/vault-credential-validation';
import type { McpProbeResult } from '../clients/mcp-servers';

/**
 * The verdict of an `mcp_oauth` credential's live probe, as the SDK documents
 * `BetaManagedAgentsCredentialValidationStatus` (pure): `valid` when the last probe authenticated;
 * `invalid` when the server refused the token (401/403) and no refresh recovered it;
 * `unknown` when the probe could not tell (no answer, a server error, an unreachable token endpoint).
 */

type Verdict = Pick<CredentialValidation, 'status' | 'mcp_probe' | 'refresh'>;
type Refresh = NonNullable<CredentialValidation['refresh']>;

const refused = (probe: McpProbeResult) => !probe.ok && (probe.status === 401 || probe.status === 403);
const probeOf = (probe: McpProbeResult): McpProbe | null => (probe.ok ? null : { method: probe.method, http_response: probe.http_response });

/** What was learnt: the first probe, the refresh tried on its 401 (if any), and the probe with the new token (if any). */
export function validationVerdict(first: McpProbeResult, refresh?: RefreshCredentialReply, second?: McpProbeResult): Verdict {
  const last = second ?? first;
  const refreshed: Refresh | null = refresh
    ? { status: refresh.status, http_response: refresh.status === 'failed' ? refresh.http_response : null }
    : null;
  if (last.ok) return { status: 'valid', mcp_probe: null, refresh: refreshed };
  // Refused, and no refresh, or one refused too, or a new token refused as well: the end user must
  // authorize again. A token endpoint that could not be reached says nothing of the credential.
  const tokenRefused = refused(last) && refresh?.status !== 'connect_error';
  return { status: tokenRefused ? 'invalid' : 'unknown', mcp_probe: probeOf(last), refresh: refreshed };
}
