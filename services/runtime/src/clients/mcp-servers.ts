import { lookup } from 'node:dns/promises';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import type { McpServer } from '@shared/schema/agent-mcp-tools';
import { allowedPrivateHost, refusedMcpAddresses, refusedMcpUrl } from '@shared/agents/mcp-hosts';
import type { ToolDefinition } from '../domain/model-request';
import { captureResponse } from '@shared/http/captured-response';
import type { CapturedHttpResponse } from '@shared/schema/vault-credential-validation';

/**
 * The agent's MCP servers as the runtime reaches them, with the official MCP client: streamable
 * HTTP first, the older HTTP+SSE transport when a server does not take it. One connection per
 * listing or call, closed after it: no connection outlives a step, so a replica that takes a
 * session over needs nothing of the one before it. Every wait is bounded.
 */

/** Why an MCP server could not be used: the SDK's `mcp_connection_failed_error` / `mcp_authentication_failed_error`. */
export class McpFailure extends Error {
  constructor(
    readonly kind: 'connection' | 'authentication',
    message: string,
    /** The HTTP status the server refused with (401: the token may be refreshed and tried again). */
    readonly status?: number,
  ) {
    super(message);
  }
}

export interface McpCallResult {
  content?: unknown;
  structuredContent?: unknown;
  isError: boolean;
}

export interface McpServers {
  /** The server's tools (every page of tools/list). */
  listTools(server: McpServer, token: string | undefined): Promise<ToolDefinition[]>;
  /** One tools/call. A tool's own error is a result with isError; a server that cannot be used throws McpFailure. */
  callTool(server: McpServer, token: string | undefined, tool: string, input: Record<string, unknown>): Promise<McpCallResult>;
  /** A credential's live probe: initialize and a first tools/list, with the failing step's HTTP answer (scrubbed of the token). */
  probe(server: McpServer, token: string): Promise<McpProbeResult>;
}

export type McpProbeResult =
  | { ok: true }
  | { ok: false; method: 'initialize' | 'tools/list'; status: number | undefined; http_response: CapturedHttpResponse | null };

export interface McpClientSettings {
  allowedPrivateHosts: ReadonlySet<string>;
  connectTimeoutMs: number;
  callTimeoutMs: number;
  /** Name -> addresses; injected so tests may resolve a name as they need. */
  resolve?: (hostname: string) => Promise<string[]>;
}

const TOOL_PAGES_MAX = 20;
const MESSAGE_MAX = 500;

const systemResolve = async (hostname: string) => (await lookup(hostname, { all: true })).map((a) => a.address);

/** The HTTP status an MCP transport error carries (StreamableHTTPError and SseError both name it `code`). */
const statusOf = (err: unknown): number | undefined => {
  const code = (err as { code?: unknown })?.code;
  return typeof code === 'number' && code >= 100 && code < 600 ? code : undefined;
};

/** Rejects after `ms` (and runs `onTimeout`), so a server that never answers is never waited on for ever. */
async function within<T>(ms: number, what: string, work: Promise<T>, onTimeout: () => void): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      onTimeout();
      reject(new McpFailure('connection', `${what} took longer than ${ms} ms`));
    }, ms);
  });
  try {
    return await Promise.race([work, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

export function mcpServers(settings: McpClientSettings): McpServers {
  const resolve = settings.resolve ?? systemResolve;

  /** The failure as the session reports it, with the token (should a server echo it) never in the message. */
  const failure = (server: McpServer, err: unknown, token: string | undefined, doing: string, timeoutMs: number): McpFailure => {
    if (err instanceof McpFailure) return err;
    if (err instanceof McpError && err.code === ErrorCode.RequestTimeout) {
      return new McpFailure('connection', `the MCP server ${server.name} did not answer within ${timeoutMs} ms while ${doing}`);
    }
    const status = statusOf(err);
    let detail = err instanceof Error ? err.message : String(err);
    if (token) detail = detail.replaceAll(token, '[redacted]');
    detail = detail.slice(0, MESSAGE_MAX);
    if (status === 401 || status === 403) {
      return new McpFailure('authentication', `the MCP server ${server.name} refused the session's credentials (HTTP ${status}) while ${doing}`, status);
    }
    return new McpFailure('connection', `the MCP server ${server.name} could not be reached while ${doing}: ${detail}`);
  };

  async function checkHost(server: McpServer): Promise<URL> {
    let url: URL;
    try {
      url = new URL(server.url);
    } catch {
      throw new McpFailure('connection', `the MCP server ${server.name} has no valid URL`);
    }
    const refused = refusedMcpUrl(url, settings.allowedPrivateHosts);
    if (refused) throw new McpFailure('connection', `the MCP server ${server.name} may not be reached: ${refused}`);
    // The operator's word for this host: no lookup decides otherwise.
    if (allowedPrivateHost(url, settings.allowedPrivateHosts)) return url;
    const addresses = await within(settings.connectTimeoutMs, `resolving ${url.hostname}`, resolve(url.hostname.replace(/^\[|\]$/g, '')), () => undefined).catch(
      (err: unknown) => {
        throw err instanceof McpFailure ? err : new McpFailure('connection', `the MCP server ${server.name}'s host ${url.hostname} could not be resolved`);
      },
    );
    const why = refusedMcpAddresses(url.hostname, addresses);
    if (why) throw new McpFailure('connection', `the MCP server ${server.name} may not be reached: ${why}`);
    return url;
  }

  /** An initialised client over streamable HTTP, or over SSE when the server does not speak it. */
  async function connect(server: McpServer, token: string | undefined, recorded?: { last?: CapturedHttpResponse }): Promise<Client> {
    const url = await checkHost(server);
    const requestInit: RequestInit = token ? { headers: { Authorization: `Bearer ${token}` } } : {};
    // A probe keeps the last HTTP error answer, which the transports' errors only summarise.
    const recording = recorded && (async (input: string | URL, init?: RequestInit): Promise<Response> => {
      const response: Response = await fetch(input, init);
      if (!response.ok) recorded.last = await captureResponse(response.clone(), [token]);
      return response;
    });
    const fetchOption = recording ? { fetch: recording } : {};
    const attempt = async (transport: Transport) => {
      const client = new Client({ name: 'agent-runtime', version: '1.0.0' });
      try {
        await within(settings.connectTimeoutMs, 'connecting', client.connect(transport, { timeout: settings.connectTimeoutMs }), () => void transport.close());
        return client;
      } catch (err) {
        await client.close().catch(() => undefined);
        throw err;
      }
    };
    try {
      return await attempt(new StreamableHTTPClientTransport(url, { requestInit, ...fetchOption }));
    } catch (first) {
      const status = statusOf(first);
      // Refused credentials, or no answer at all, are the server's word: SSE would hear the same.
      if (status === 401 || status === 403 || first instanceof McpFailure) throw failure(server, first, token, 'connecting', settings.connectTimeoutMs);
      try {
        return await attempt(new SSEClientTransport(url, { requestInit, eventSourceInit: {}, ...fetchOption }));
      } catch (second) {
        const sseStatus = statusOf(second);
        throw failure(server, sseStatus === 401 || sseStatus === 403 ? second : first, token, 'connecting', settings.connectTimeoutMs);
      }
    }
  }

  return {
    async probe(server, token) {
      const recorded: { last?: CapturedHttpResponse } = {};
      const failed = (method: 'initialize' | 'tools/list', err: unknown) => {
        const status = err instanceof McpFailure ? err.status : statusOf(err);
        return { ok: false as const, method, status, http_response: recorded.last ?? null };
      };
      let client: Client;
      try {
        client = await connect(server, token, recorded);
      } catch (err) {
        return failed('initialize', err);
      }
      recorded.last = undefined;
      try {
        await client.listTools({}, { timeout: settings.connectTimeoutMs });
        return { ok: true };
      } catch (err) {
        return failed('tools/list', err);
      } finally {
        await client.close().catch(() => undefined);
      }
    },

    async listTools(server, token) {
      const client = await connect(server, token);
      try {
        const tools: ToolDefinition[] = [];
        let cursor: string | undefined;
        for (let page = 0; page < TOOL_PAGES_MAX; page++) {
          const listed = await client.listTools(cursor ? { cursor } : {}, { timeout: settings.connectTimeoutMs });
          for (const tool of listed.tools) {
            tools.push({ name: tool.name, description: tool.description ?? tool.title ?? tool.name, input_schema: tool.inputSchema as ToolDefinition['input_schema'] });
          }
          cursor = listed.nextCursor;
          if (!cursor) break;
        }
        return tools;
      } catch (err) {
        throw failure(server, err, token, 'listing its tools', settings.connectTimeoutMs);
      } finally {
        await client.close().catch(() => undefined);
      }
    },

    async callTool(server, token, tool, input) {
      const client = await connect(server, token);
      try {
        const result = await within(
          settings.callTimeoutMs,
          `calling ${tool}`,
          client.callTool({ name: tool, arguments: input }, undefined, { timeout: settings.callTimeoutMs }),
          () => void client.close(),
        );
        return { content: result.content, structuredContent: result.structuredContent, isError: result.isError === true };
      } catch (err) {
        // A JSON-RPC error (an unknown tool, bad arguments) is the server's answer: the model hears it.
        if (err instanceof McpError && err.code !== ErrorCode.RequestTimeout && err.code !== ErrorCode.ConnectionClosed) {
          const text = err.message.slice(0, MESSAGE_MAX);
          return { content: [{ type: 'text', text: token ? text.replaceAll(token, '[redacted]') : text }], isError: true };
        }
        throw failure(server, err, token, `calling ${tool}`, settings.callTimeoutMs);
      } finally {
        await client.close().catch(() => undefined);
      }
    },
  };
}
