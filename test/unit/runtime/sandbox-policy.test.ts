import { describe, expect, test } from 'bun:test';
import type { CloudConfig } from '@shared/schema/environment';
import { LOCKED_DOWN, sandboxPolicy } from '../../../services/runtime/src/domain/sandbox-policy';
import { unreachableCredentialHosts } from '../../../services/runtime/src/domain/sandbox-secrets';
import { sessionAgent } from './session-log-fixture';

/** What a claimed cloud item's sandbox enforces, from its environment's config and its session's agent alone. */

const packages = { type: 'packages' as const, apt: [], cargo: [], gem: [], go: [], npm: ['is-number'], pip: ['requests==2.32.3'] };
const limited = { type: 'limited' as const, allowed_hosts: ['api.example.com', '*.example.org'], allow_package_managers: true, allow_mcp_servers: true };
const cloud = (networking: CloudConfig['networking']): CloudConfig => ({ type: 'cloud', networking, packages });
const withServers = (...urls: string[]) => ({ agent: sessionAgent({ mcp_servers: urls.map((url, i) => ({ type: 'url' as const, name: `s${i}`, url })) }) });

describe('sandboxPolicy', () => {
  test("a cloud environment's networking and packages as they are, and the agent's MCP server URLs in its order", () => {
    expect(sandboxPolicy(cloud(limited), withServers('https://mcp.example.com/sse', 'https://tools.example.net/mcp'))).toEqual({
      networking: limited,
      packages,
      mcp_server_urls: ['https://mcp.example.com/sse', 'https://tools.example.net/mcp'],
    });
    expect(sandboxPolicy(cloud({ type: 'unrestricted' }), withServers()).networking).toEqual({ type: 'unrestricted' });
  });

  test('no MCP servers, or no session any more: none to let out, the environment still holds', () => {
    expect(sandboxPolicy(cloud(limited), withServers()).mcp_server_urls).toEqual([]);
    expect(sandboxPolicy(cloud(limited), undefined)).toEqual({ networking: limited, packages, mcp_server_urls: [] });
  });

  test('an environment gone, or no longer a cloud one: locked down (limited, no hosts, no packages, no MCP servers), whatever the agent names', () => {
    expect(sandboxPolicy(undefined, withServers('https://mcp.example.com/sse'))).toEqual(LOCKED_DOWN);
    expect(sandboxPolicy({ type: 'self_hosted' }, withServers('https://mcp.example.com/sse'))).toEqual(LOCKED_DOWN);
    expect(LOCKED_DOWN).toEqual({
      networking: { type: 'limited', allowed_hosts: [], allow_package_managers: false, allow_mcp_servers: false },
      packages: { type: 'packages', apt: [], cargo: [], gem: [], go: [], npm: [], pip: [] },
      mcp_server_urls: [],
    });
  });
});

describe('credential hosts the environment does not let out', () => {
  const vaults = [
    {
      id: 'vlt_1',
      state: 'ok' as const,
      credentials: [
        { id: 'vcrd_1', display_name: null, auth: { type: 'environment_variable' as const, secret_name: 'A', secret_value: 'x', networking: { type: 'limited' as const, allowed_hosts: ['api.example.com', 'other.test'] } } },
        { id: 'vcrd_2', display_name: null, auth: { type: 'environment_variable' as const, secret_name: 'B', secret_value: 'y', networking: { type: 'unrestricted' as const } } },
      ],
    },
  ];
  test('limited networking names the hosts a limited credential needs; what it leaves out is one error per credential', () => {
    const limited = { type: 'limited' as const, allowed_hosts: ['*.example.com'], allow_package_managers: false, allow_mcp_servers: false };
    const errors = unreachableCredentialHosts(vaults, limited);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatchObject({ type: 'session.error', error: { type: 'credential_host_unreachable_error', credential_id: 'vcrd_1', retry_status: { type: 'retrying' } } });
    expect(JSON.stringify(errors)).toContain('other.test');
    expect(JSON.stringify(errors)).not.toContain('"x"');
  });
  test('unrestricted networking reaches every host', () => {
    expect(unreachableCredentialHosts(vaults, { type: 'unrestricted' })).toEqual([]);
  });
});
