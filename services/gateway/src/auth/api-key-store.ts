import { and, desc, eq, isNull } from 'drizzle-orm';
import type { Database } from '@shared/db/connect';
import { asOverloadedIfDatabaseUnavailable } from '@shared/db/database-unavailable';
import { newId } from '@shared/ids/ids';
import type { KeyScope, Tenant } from '@shared/schema/tenant';
import type { Clock } from '@shared/time/clock';
import { apiKeys } from '../db/schema';
import { generateApiKeySecret, hashApiKeySecret } from './api-key-secret';

export interface CreatedApiKey {
  id: string;
  secret: string;
  tenant: Tenant;
}

/**
 * Looks keys up by hash, with a short in-memory cache: valid keys for KEY_CACHE_TTL_MS (which is
 * also how long a revocation takes to reach every gateway replica), unknown keys briefly so a
 * flood of bad keys does not become a flood of queries.
 */
export class ApiKeyStore {
  private readonly cache = new Map<string, { tenant: Tenant | null; expires: number }>();
  private static readonly NEGATIVE_TTL_MS = 5000;
  private static readonly MAX_CACHE = 10000;

  constructor(
    private readonly db: Database,
    private readonly clock: Clock,
    private readonly ttlMs: number,
  ) {}

  /**
   * The key's tenant, or null for an unknown or revoked key. `beforeLookup` runs before a lookup
   * that reaches the database (not for a cached answer): it may refuse by throwing, and the refund
   * it returns is called when the lookup found its key or failed, so only lookups that found
   * nothing cost the caller (the per-address limit of failed lookups, limits/rate-limits.ts).
   */
  async findTenant(secret: string, beforeLookup?: () => Promise<() => void>): Promise<Tenant | null> {
    const hash = hashApiKeySecret(secret);
    const now = this.clock.now().getTime();
    const hit = this.cache.get(hash);
    if (hit && hit.expires > now) return hit.tenant;
    const refund = await beforeLookup?.();
    const [row] = await this.db
      .select()
      .from(apiKeys)
      .where(and(eq(apiKeys.secretHash, hash), isNull(apiKeys.revokedAt)))
      .limit(1)
      .catch((err: unknown) => {
        refund?.();
        // Every request authenticates here: a lost database is 503 (retryable), never 500.
        throw asOverloadedIfDatabaseUnavailable(err);
      });
    if (row) refund?.();
    const tenant: Tenant | null = row
      ? { organization_id: row.organizationId, workspace_id: row.workspaceId, scope: row.scope, key_id: row.id }
      : null;
    if (this.cache.size >= ApiKeyStore.MAX_CACHE) this.cache.clear();
    this.cache.set(hash, { tenant, expires: now + (tenant ? this.ttlMs : Math.min(this.ttlMs, ApiKeyStore.NEGATIVE_TTL_MS)) });
    return tenant;
  }

  async create(input: { organizationId: string; workspaceId: string; scope: KeyScope; name?: string }): Promise<CreatedApiKey> {
    const secret = generateApiKeySecret();
    const id = newId('apiKey');
    await this.db.insert(apiKeys).values({
      id,
      secretHash: hashApiKeySecret(secret),
      hint: secret.slice(-4),
      organizationId: input.organizationId,
      workspaceId: input.workspaceId,
      scope: input.scope,
      name: input.name ?? null,
      createdAt: this.clock.now(),
    });
    return {
      id,
      secret,
      tenant: { organization_id: input.organizationId, workspace_id: input.workspaceId, scope: input.scope, key_id: id },
    };
  }

  async list() {
    return this.db
      .select({
        id: apiKeys.id,
        hint: apiKeys.hint,
        organizationId: apiKeys.organizationId,
        workspaceId: apiKeys.workspaceId,
        scope: apiKeys.scope,
        name: apiKeys.name,
        createdAt: apiKeys.createdAt,
        revokedAt: apiKeys.revokedAt,
      })
      .from(apiKeys)
      .orderBy(desc(apiKeys.createdAt));
  }

  async revoke(id: string): Promise<boolean> {
    const [result] = await this.db
      .update(apiKeys)
      .set({ revokedAt: this.clock.now() })
      .where(and(eq(apiKeys.id, id), isNull(apiKeys.revokedAt)));
    this.cache.clear();
    return (result as { affectedRows: number }).affectedRows === 1;
  }
}
