import type { Handler } from '@shared/bus/bus-server';
import { tenantOf } from '@shared/bus/call-context';
import type { memoryVersionSubjects } from '@shared/bus/subjects/memories';
import { found } from '@shared/errors/api-error';
import { findMemoryVersion, redactMemoryVersion as clearMemoryVersion } from '../db/memory-versions';
import { refuseSessionRedactor, writerOf } from '../domain/memory';
import { memoryVersionNotFound } from '../domain/not-found';
import { presentMemoryVersion } from '../domain/present';
import type { CatalogDeps } from '../deps';

type S = typeof memoryVersionSubjects.redact;
/**
 * Clears what a version recorded (content, path, hash, size) for good, keeping who wrote it and
 * when. Any version may be redacted, the one a memory currently points to included (the SDK
 * names no exception; the memory itself keeps its content), and in an archived store too:
 * redaction removes data, which a read-only store must still allow. Idempotent: a redacted
 * version is answered as it is. Agents cannot redact (SDK: `redacted_by` is never a session).
 */
export const redactMemoryVersion =
  (deps: CatalogDeps): Handler<S> =>
  async ({ memory_store_id: storeId, memory_version_id: id, actor }, ctx) => {
    const tenant = tenantOf(ctx);
    const redactor = writerOf(actor, tenant);
    refuseSessionRedactor(redactor);
    const row = await deps.db.transaction(async (tx) => {
      const current = found(await findMemoryVersion(tx, tenant, storeId, id, { lock: true }), () => memoryVersionNotFound(id));
      if (current.redactedAt) return current;
      await clearMemoryVersion(tx, id, redactor, deps.clock.now());
      return found(await findMemoryVersion(tx, tenant, storeId, id), () => memoryVersionNotFound(id));
    });
    return presentMemoryVersion('full')(row);
  };
