import { eq } from 'drizzle-orm';
import type { Executor } from '@shared/db/executor';
import { deployments, deploymentSecrets, sessionSecrets, type SessionRow } from './schema';

/** A data key as stored: the master key that wraps it and the wrapped key. */
export interface StoredDataKey {
  keyId: string;
  wrapped: string;
}

/**
 * Where a session's repository tokens are sealed: its own (session_secrets, by resource id, under
 * the session's key) and, for a fired session, its deployment's (deployment_secrets, by position,
 * under the deployment's key) for those never rotated on the session.
 */
export interface RepositorySeals {
  own: Map<string, string>;
  sessionKey: StoredDataKey | null;
  deployment: { id: string; key: StoredDataKey | null; byIndex: Map<number, string> } | null;
}

export async function readRepositorySeals(db: Executor, session: SessionRow): Promise<RepositorySeals> {
  const own = await db.select().from(sessionSecrets).where(eq(sessionSecrets.sessionId, session.id));
  const sessionKey = session.dataKeyId && session.dataKeyWrapped ? { keyId: session.dataKeyId, wrapped: session.dataKeyWrapped } : null;
  let deployment: RepositorySeals['deployment'] = null;
  if (session.deploymentId) {
    const [row] = await db.select({ keyId: deployments.dataKeyId, wrapped: deployments.dataKeyWrapped }).from(deployments).where(eq(deployments.id, session.deploymentId));
    const seals = await db.select().from(deploymentSecrets).where(eq(deploymentSecrets.deploymentId, session.deploymentId));
    deployment = {
      id: session.deploymentId,
      key: row?.keyId && row.wrapped ? { keyId: row.keyId, wrapped: row.wrapped } : null,
      byIndex: new Map(seals.map((s) => [s.resourceIndex, s.sealed])),
    };
  }
  return { own: new Map(own.map((s) => [s.resourceId, s.sealed])), sessionKey, deployment };
}
