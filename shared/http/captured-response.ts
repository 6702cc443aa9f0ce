import type { CapturedHttpResponse } from '@shared/schema/vault-credential-validation';

/**
 * An HTTP error answer as a credential's probe or refresh reports it to the tenant (the SDK's
 * `http_response`): the body cut to BODY_MAX characters, and scrubbed, because a token endpoint
 * or MCP server may echo what it was sent: every secret the caller names is replaced, and so is
 * the value of any JSON field that names a token or secret.
 */

const BODY_MAX = 1000;
const SECRET_FIELD = /("(?:access_token|refresh_token|id_token|client_secret|token)"\s*:\s*)"(?:[^"\\]|\\.)*"/g;

export function scrubSecrets(text: string, secrets: ReadonlyArray<string | null | undefined>): string {
  let out = text.replace(SECRET_FIELD, '$1"[redacted]"');
  for (const secret of secrets) if (secret) out = out.replaceAll(secret, '[redacted]');
  return out;
}

/** What is read of a response (structural: Bun's and undici's Response types both fit). */
interface ReadableResponse {
  status: number;
  headers: { get(name: string): string | null };
  text(): Promise<string>;
}

export async function captureResponse(response: ReadableResponse, secrets: ReadonlyArray<string | null | undefined>): Promise<CapturedHttpResponse> {
  const text = await response.text().catch(() => '');
  // Scrubbed whole before cutting, so a secret is never left half-shown at the cut.
  const body = scrubSecrets(text, secrets);
  return {
    status_code: response.status,
    content_type: response.headers.get('content-type') ?? '',
    body: body.slice(0, BODY_MAX),
    body_truncated: body.length > BODY_MAX,
  };
}
