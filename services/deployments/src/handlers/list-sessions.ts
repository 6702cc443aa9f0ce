import type { Handler } from '@shared/bus/bus-server';
import type { sessionSubjects } from '@shared/bus/subjects/sessions';
import type { RunsCore } from '../runs-core';

type S = typeof sessionSubjects.list;

export const listSessions =
  (core: RunsCore): Handler<S> =>
  (request, ctx) =>
    core.listSessions(ctx, request);
