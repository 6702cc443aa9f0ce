import type { CallContext } from '@shared/bus/call-context';
import { invalidRequest, notFound } from '@shared/errors/api-error';
import type { PagePosition } from '@shared/schema/common';
import type { DeploymentRun, DeploymentRunListFilters } from '@shared/schema/deployment-run';
import type { Session, SessionListRequest } from '@shared/schema/session';
import { findRun, listRunPage } from './db/run-queries';
import { findSession, listSessionPage } from './db/session-queries';
import { tenantOf, type DeploymentsCoreDeps } from './deployments-core';
import { toDeploymentRun, toSession } from './domain/run-view';

type PageRequest<F> = { filters: F; limit: number; after: PagePosition | null };

/** Reads of what fires recorded: runs and sessions, tenant-scoped (another tenant's is not found). */
export function createRunsCore(deps: Pick<DeploymentsCoreDeps, 'db'>) {
  const { db } = deps;
  return {
    async listRuns(ctx: CallContext, request: PageRequest<DeploymentRunListFilters>) {
      return listRunPage(db, tenantOf(ctx), request.filters, request.limit, request.after, toDeploymentRun);
    },
    async getRun(ctx: CallContext, id: string): Promise<DeploymentRun> {
      const row = await findRun(db, tenantOf(ctx), id);
      if (!row) throw notFound(`deployment run '${id}' not found`);
      return toDeploymentRun(row);
    },
    async listSessions(ctx: CallContext, request: SessionListRequest) {
      if (request.after && request.before) throw invalidRequest('a sessions page starts after a position or before one, not both');
      const anchor = request.before ? { before: request.before } : request.after ? { after: request.after } : null;
      return listSessionPage(db, tenantOf(ctx), request.filters, request.limit, anchor, toSession);
    },
    async getSession(ctx: CallContext, id: string): Promise<Session> {
      const row = await findSession(db, tenantOf(ctx), id);
      if (!row) throw notFound(`session '${id}' not found`);
      return toSession(row);
    },
  };
}
export type RunsCore = ReturnType<typeof createRunsCore>;
