import { Type } from '@sinclair/typebox';
import { environmentSubjects } from '@shared/bus/subjects/catalog';
import { QueryBoolean } from '@shared/schema/common';
import { Environment, EnvironmentListFilters } from '@shared/schema/environment';
import { pagedQuery, type PageRoute } from '../../routing/pagination';

export const EnvironmentListQuery = pagedQuery({ include_archived: Type.Optional(QueryBoolean) });

export const environmentListRoute: PageRoute<typeof EnvironmentListQuery, typeof EnvironmentListFilters, typeof Environment> = {
  endpoint: 'environments.list',
  query: EnvironmentListQuery,
  subject: environmentSubjects.list,
  toFilters: (q): EnvironmentListFilters => ({ include_archived: q.include_archived === 'true' }),
};
