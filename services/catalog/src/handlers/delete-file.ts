import type { Handler } from '@shared/bus/bus-server';
import type { fileSubjects } from '@shared/bus/subjects/catalog';
import type { CatalogDeps } from '../deps';
import { deleteOwned, fileResource } from './owned-resource';

type S = typeof fileSubjects.delete;
export const deleteFile =
  (deps: CatalogDeps): Handler<S> =>
  ({ file_id: id }, ctx) =>
    deleteOwned(deps, fileResource, ctx, id);
