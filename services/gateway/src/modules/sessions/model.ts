import { Type } from '@sinclair/typebox';
import { sessionSubjects } from '../../../../../shared/bus/subjects/sessions';
import { Session, SessionListFilters } from '../../../../../shared/schema/session';
import { pagedQuery, type PageRoute } from '../../routing/pagination';

export const SessionListQuery = pagedQuery({
  deployment_id: Type.Optional(Type.String({ minLength: 1, maxLength: 128 })),
});

export const sessionListRoute: PageRoute<typeof SessionListQuery, typeof SessionListFilters, typeof Session> = {
  endpoint: 'sessions.list',
  query: SessionListQuery,
  subject: sessionSubjects.list,
  toFilters: (q): SessionListFilters => ({ deployment_id: q.deployment_id }),
};
