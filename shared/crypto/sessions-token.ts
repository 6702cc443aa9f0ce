import { createHmac, timingSafeEqual } from 'node:crypto';
import { Type, type Static } from '@sinclair/typebox';
import { ConfigError } from '../config/load-config';
import { isValid } from '../validation/validate';
import { DEVELOPMENT_SESSIONS_TOKEN_KEY, isPublishedKey } from './published-development-keys';

/**
 * A sessions token: the short-lived bearer credential a work item's `secret` carries to the
 * environment worker serving it (SDK `BetaWorkSecret.sessions_token`). It is scoped to that one
 * session and work item of one tenant, and expires; the gateway lets it reach only that session
 * (retrieve, events list/stream/send) and that item's heartbeat and stop. Minted by the runtime,
 * checked by the gateway, both with SESSIONS_TOKEN_KEY; nothing is stored, so nothing can leak
 * from a table, and a token outlives no lease by more than its TTL.
 */
export const SESSIONS_TOKEN_PREFIX = 'sk-ant-sst-';

export const SessionsTokenClaims = Type.Object(
  {
    organization_id: Type.String({ minLength: 1, maxLength: 64 }),
    workspace_id: Type.String({ minLength: 1, maxLength: 64 }),
    session_id: Type.String({ minLength: 1, maxLength: 64 }),
    environment_id: Type.String({ minLength: 1, maxLength: 128 }),
    work_id: Type.String({ minLength: 1, maxLength: 64 }),
    /** Expiry, milliseconds since the epoch. */
    expires_at: Type.Integer({ minimum: 0 }),
  },
  { additionalProperties: false },
);
export type SessionsTokenClaims = Static<typeof SessionsTokenClaims>;

const mac = (key: Buffer, payload: string) => createHmac('sha256', key).update(payload).digest();

export function mintSessionsToken(key: Buffer, claims: SessionsTokenClaims): string {
  const payload = Buffer.from(JSON.stringify(claims)).toString('base64url');
  return `${SESSIONS_TOKEN_PREFIX}${payload}.${mac(key, payload).toString('base64url')}`;
}

export const looksLikeSessionsToken = (secret: string): boolean => secret.startsWith(SESSIONS_TOKEN_PREFIX);

/** The claims of a genuine, unexpired token; undefined for anything else (forged, expired, malformed). */
export function openSessionsToken(key: Buffer, token: string, now: Date): SessionsTokenClaims | undefined {
  if (!looksLikeSessionsToken(token) || token.length > 2048) return undefined;
  const [payload, signature] = token.slice(SESSIONS_TOKEN_PREFIX.length).split('.');
  if (!payload || !signature) return undefined;
  const expected = mac(key, payload);
  const given = Buffer.from(signature, 'base64url');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return undefined;
  let claims: unknown;
  try {
    claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
  } catch {
    return undefined;
  }
  if (!isValid(SessionsTokenClaims, claims) || claims.expires_at <= now.getTime()) return undefined;
  return claims;
}

/** The work item's `secret`: URL-safe base64 of `{"sessions_token": ...}`, as the SDK's worker decodes it. */
export const workSecret = (sessionsToken: string): string => Buffer.from(JSON.stringify({ sessions_token: sessionsToken })).toString('base64url');

/** SESSIONS_TOKEN_KEY (base64 of 32 bytes), as the gateway and the runtime load it: required and unpublished in production. */
export function loadSessionsTokenKey(raw: string | undefined, production: boolean): Buffer {
  if (production && !raw) throw new ConfigError('Invalid configuration: SESSIONS_TOKEN_KEY is required when NODE_ENV=production');
  const key = Buffer.from(raw ?? DEVELOPMENT_SESSIONS_TOKEN_KEY, 'base64');
  if (key.length !== 32) throw new ConfigError('Invalid configuration: SESSIONS_TOKEN_KEY must be base64 of 32 bytes');
  if (production && isPublishedKey(key)) {
    throw new ConfigError('Invalid configuration: SESSIONS_TOKEN_KEY is a published development key; generate one with `openssl rand -base64 32`');
  }
  return key;
}
