import type { Handler } from '@shared/bus/bus-server';
import type { fileSubjects } from '@shared/bus/subjects/catalog';
import { notFound } from '@shared/errors/api-error';
import { requireTenant, type CatalogDeps } from '../catalog-deps';
import { findFile, presentFile } from '../db/files';

type S = typeof fileSubjects.get;
export const getFile =
  (deps: CatalogDeps): Handler<S> =>
  async ({ file_id: id }, ctx) => {
    const row = await findFile(deps.db, requireTenant(ctx), id);
    if (!row) throw notFound(`file ${id} not found`);
    return presentFile(row);
  };
