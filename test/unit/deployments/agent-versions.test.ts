import { expect, test } from 'bun:test';
import type { BusClient } from '@shared/bus/bus-client';
import type { CallContext } from '@shared/bus/call-context';
import { AgentVersions } from '../../../services/deployments/src/clients/agent-versions';

const ctx = { request_id: 'req_test', tenant: { organization_id: 'org_a', workspace_id: 'wrkspc_a' } } as CallContext;

/** A catalog that answers every version with a system prompt of the asked size, counting the questions. */
function catalog() {
  const asked: string[] = [];
  const bus = {
    call: async (_subject: unknown, _ctx: unknown, request: { agent_id: string; version: number }) => {
      asked.push(`${request.agent_id}@${request.version}`);
      return {
        type: 'agent',
        id: request.agent_id,
        version: request.version,
        name: 'a',
        description: null,
        model: { id: 'claude-opus-4-5' },
        system: 'x'.repeat(Number(request.agent_id.split('_')[1])),
        metadata: {},
        execution_identity: { type: 'service_account' },
        tools: [],
        mcp_servers: [],
        skills: [],
        multiagent: null,
        created_at: '2026-11-24T00:00:00Z',
        updated_at: '2026-11-24T00:00:00Z',
        archived_at: null,
      };
    },
  } as unknown as BusClient;
  return { bus, asked };
}

test('agent versions are kept within a byte budget, least recently used first, each asked once while kept', async () => {
  const { bus, asked } = catalog();
  const versions = new AgentVersions(bus, 5_000);
  await versions.get(ctx, 'agent_2000', 1);
  await versions.get(ctx, 'agent_2000', 1);
  expect(asked).toEqual(['agent_2000@1']);
  await versions.get(ctx, 'agent_2001', 1);
  // Read again: now the most recently used.
  await versions.get(ctx, 'agent_2000', 1);
  // Over the budget: the least recently used (agent_2001) goes, the others stay.
  await versions.get(ctx, 'agent_2002', 1);
  expect(versions.size).toBe(2);
  await versions.get(ctx, 'agent_2000', 1);
  await versions.get(ctx, 'agent_2001', 1);
  expect(asked).toEqual(['agent_2000@1', 'agent_2001@1', 'agent_2002@1', 'agent_2001@1']);
  // One answer larger than the whole budget is still kept (alone): it is the one in use.
  await versions.get(ctx, 'agent_9000', 1);
  expect(versions.size).toBe(1);
  await versions.get(ctx, 'agent_9000', 1);
  expect(asked.filter((a) => a === 'agent_9000@1')).toHaveLength(1);
});
