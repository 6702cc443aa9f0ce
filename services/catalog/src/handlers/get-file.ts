import type { Handler } from '@shared/bus/bus-server';
import { tenantOf } from '@shared/bus/call-context';
import { found } from '@shared/errors/api-error';
import type { fileSubjects } from '@shared/bus/subjects/catalog';
import { findFile } from '../db/files';
import { fileNotFound } from '../domain/not-found';
import { presentFile } from '../domain/present';
import type { CatalogDeps } from '../deps';

type S = typeof fileSubjects.get;
export const getFile =
  (deps: CatalogDeps): Handler<S> =>
  async ({ file_id: id }, ctx) => {
    return presentFile(found(await findFile(deps.db, tenantOf(ctx), id), () => fileNotFound(id)));
  };
