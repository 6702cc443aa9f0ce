import type { Handler } from '@shared/bus/bus-server';
import type { environmentSubjects } from '@shared/bus/subjects/catalog';
import { newId } from '@shared/ids/ids';
import { requireTenant, type CatalogDeps } from '../catalog-deps';
import { insertEnvironment, presentEnvironment } from '../db/environments';
import { normalizeCloudConfig } from '../domain/environment-config';

type S = typeof environmentSubjects.create;
export const createEnvironment =
  (deps: CatalogDeps): Handler<S> =>
  async (body, ctx) => {
    const row = await insertEnvironment(deps.db, {
      id: newId('environment'),
      tenant: requireTenant(ctx),
      name: body.name,
      description: body.description ?? null,
      config: normalizeCloudConfig(body.config),
      metadata: body.metadata ?? {},
      now: deps.clock.now(),
    });
    return presentEnvironment(row);
  };
