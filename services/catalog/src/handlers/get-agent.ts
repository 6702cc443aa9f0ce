import type { Handler } from '@shared/bus/bus-server';
import { tenantOf } from '@shared/bus/call-context';
import type { agentSubjects } from '@shared/bus/subjects/catalog';
import { findAgent } from '../db/agents';
import { agentNotFound, agentVersionNotFound } from '../domain/not-found';
import { presentAgent } from '../domain/present';
import type { CatalogDeps } from '../deps';

type S = typeof agentSubjects.get;
export const getAgent =
  (deps: CatalogDeps): Handler<S> =>
  async ({ agent_id: id, version }, ctx) => {
    const found = await findAgent(deps.db, tenantOf(ctx), id, version);
    if (!found) throw version === undefined ? agentNotFound(id) : agentVersionNotFound(id, version);
    return presentAgent(found.agent, found.version);
  };
