import { generateDataKey, sealSecret, wrapDataKey } from '@shared/crypto/envelope';
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
