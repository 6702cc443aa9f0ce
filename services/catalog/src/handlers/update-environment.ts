import type { Handler } from '@shared/bus/bus-server';
import type { environmentSubjects } from '@shared/bus/subjects/catalog';
import { invalidRequest, notFound } from '@shared/errors/api-error';
import { requireTenant, type CatalogDeps } from '../catalog-deps';
import { findEnvironment, presentEnvironment, updateEnvironmentRow } from '../db/environments';
import { normalizeCloudConfig } from '../domain/environment-config';
import { applyMetadataPatch } from '@shared/metadata/apply-metadata-patch';

type S = typeof environmentSubjects.update;
/** Patch semantics: omitted or null name is kept, null description clears, config is replaced whole. */
export const updateEnvironment =
  (deps: CatalogDeps): Handler<S> =>
  async ({ environment_id: id, update: patch }, ctx) => {
    const tenant = requireTenant(ctx);
    const row = await deps.db.transaction(async (tx) => {
      const current = await findEnvironment(tx, tenant, id, { lock: true });
      if (!current) throw notFound(`environment ${id} not found`);
      if (current.archivedAt) throw invalidRequest(`environment ${id} is archived and cannot be updated`);
      const next = {
        ...current,
        name: patch.name ?? current.name,
        description: patch.description === undefined ? current.description : patch.description,
        config: patch.config === undefined ? current.config : normalizeCloudConfig(patch.config),
        metadata: applyMetadataPatch(current.metadata, patch.metadata),
        updatedAt: deps.clock.now(),
      };
      await updateEnvironmentRow(tx, id, next);
      return next;
    });
    return presentEnvironment(row);
  };
