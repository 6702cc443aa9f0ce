import type { Handler } from '@shared/bus/bus-server';
import type { sessionSubjects } from '@shared/bus/subjects/sessions';
import type { RunsCore } from '../runs-core';

type S = typeof sessionSubjects.get;

export const getSession =
  (core: RunsCore): Handler<S> =>
  (request, ctx) =>
    core.getSession(ctx, request.session_id);
