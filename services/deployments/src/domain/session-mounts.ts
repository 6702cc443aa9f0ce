import { openSecret, unwrapDataKey } from '@shared/crypto/envelope';
import type { MasterKeyRing } from '@shared/crypto/master-key-ring';
import type { SessionMounts } from '@shared/schema/sandbox-policy';
import type { SessionResource } from '@shared/schema/session';
import type { RepositorySeals } from '../db/session-secrets';
import { repositoryTokenRecordId, sessionTokenRecordId } from './repository-tokens';
import { derivedResourceId, isRepositoryResource, SESSION_RESOURCES_MAX } from './session-resources';

/**
 * What a session mounts, as its sandbox worker needs it: each repository with its token opened
 * (the session's own seal, made at creation or by a rotation; else, for a fired session, its
 * deployment's seal at the position the resource had when it was fired), each file. A token that
 * cannot be opened is null (the clone then fails with repository_authentication_error): never a
 * token of another resource.
 */
export function sessionMounts(masterKeys: MasterKeyRing, sessionId: string, resources: SessionResource[], seals: RepositorySeals): SessionMounts {
  const keys = new Map<string, Buffer>();
  const keyOf = (owner: string, stored: { keyId: string; wrapped: string } | null) => {
    if (!stored) return undefined;
    if (!keys.has(owner)) keys.set(owner, unwrapDataKey(masterKeys, stored, owner));
    return keys.get(owner);
  };
  const open = (resource: SessionResource): string | null => {
    try {
      const own = seals.own.get(resource.id);
      const sessionKey = own ? keyOf(sessionId, seals.sessionKey) : undefined;
      if (own && sessionKey) return openSecret(sessionKey, own, sessionTokenRecordId(sessionId, resource.id));
      const deployment = seals.deployment;
      const index = firedIndex(sessionId, resource.id);
      const sealed = index === undefined ? undefined : deployment?.byIndex.get(index);
      const deploymentKey = deployment && sealed ? keyOf(deployment.id, deployment.key) : undefined;
      return deploymentKey && sealed ? openSecret(deploymentKey, sealed, repositoryTokenRecordId(deployment!.id, index!)) : null;
    } catch {
      return null;
    }
  };
  try {
    return {
      repositories: resources.filter(isRepositoryResource).map((r) => {
        const repo = r as Extract<SessionResource, { type: 'hosted_repository' }>;
        return { resource_id: r.id, url: repo.url, mount_path: repo.mount_path, checkout: repo.checkout ?? null, authorization_token: open(r) };
      }),
      files: resources.flatMap((r) => (r.type === 'file' ? [{ resource_id: r.id, file_id: r.file_id, mount_path: r.mount_path }] : [])),
    };
  } finally {
    for (const key of keys.values()) key.fill(0);
  }
}

/** The position a resource had in its session's list when the session was made (its id is derived from it), if it was there then. */
function firedIndex(sessionId: string, resourceId: string): number | undefined {
  for (let i = 0; i < SESSION_RESOURCES_MAX; i++) if (derivedResourceId(sessionId, i) === resourceId) return i;
  return undefined;
}
