import { generateDataKey, sealSecret, unwrapDataKey, wrapDataKey } from '@shared/crypto/envelope';
import type { MasterKeyRing } from '@shared/crypto/master-key-ring';
import type { RepositoryToken } from './resources';

/** Where a repository token is sealed: bound to its deployment and its position in `resources`. */
export const repositoryTokenRecordId = (deploymentId: string, resourceIndex: number) =>
  `${deploymentId}/resources/${resourceIndex}`;

/**
 * Seals write-only repository tokens under a fresh data key of this deployment, each bound to
 * its position in `resources`. No tokens: no key (the deployment holds no secret). The one
 * thing here that is not a pure rule is the fresh key's randomness.
 */
export function sealRepositoryTokens(
  masterKeys: MasterKeyRing,
  deploymentId: string,
  tokens: RepositoryToken[],
): { dataKey: { keyId: string; wrapped: string } | null; secrets: Array<{ resourceIndex: number; sealed: string }> } {
  if (tokens.length === 0) return { dataKey: null, secrets: [] };
  const key = generateDataKey();
  try {
    return {
      dataKey: wrapDataKey(masterKeys, key, deploymentId),
      secrets: tokens.map((t) => ({
        resourceIndex: t.index,
        sealed: sealSecret(key, t.token, repositoryTokenRecordId(deploymentId, t.index)),
      })),
    };
  } finally {
    key.fill(0);
  }
}

/** Where a session's repository token is sealed: bound to the session and the resource's id (which outlives positions). */
export const sessionTokenRecordId = (sessionId: string, resourceId: string) => `${sessionId}/resources/${resourceId}`;

/**
 * Seals a session's repository tokens under its data key, each bound to its resource id: the
 * session's existing key when it has one (a rotation), else a fresh one (returned as `dataKey`
 * to be stored with the session). No tokens and no key: nothing.
 */
export function sealSessionTokens(
  masterKeys: MasterKeyRing,
  sessionId: string,
  tokens: Array<{ resourceId: string; token: string }>,
  existing: { keyId: string; wrapped: string } | null,
): { dataKey: { keyId: string; wrapped: string } | null; secrets: Array<{ resourceId: string; sealed: string }> } {
  if (tokens.length === 0) return { dataKey: existing, secrets: [] };
  const key = existing ? unwrapDataKey(masterKeys, existing, sessionId) : generateDataKey();
  try {
    return {
      dataKey: existing ?? wrapDataKey(masterKeys, key, sessionId),
      secrets: tokens.map((t) => ({ resourceId: t.resourceId, sealed: sealSecret(key, t.token, sessionTokenRecordId(sessionId, t.resourceId)) })),
    };
  } finally {
    key.fill(0);
  }
}
