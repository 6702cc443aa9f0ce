import { createServer, type IncomingMessage, type Server as HttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';

/**
 * A real MCP server on loopback, written with the official SDK (its server and streamable HTTP
 * transport, stateless: a server per request) behind a bearer check, as an operator's MCP server
 * would be: a request without the token is refused 401 before MCP sees it. It has two tools:
 * `lookup_order` answers `order <id>: shipped`, `slow` never answers (a hung server). A test may
 * change the token it takes (`token = ...`): the one a credential holds is then refused, as an
 * expired or revoked OAuth access token is.
 */
export class TestMcpServer {
  /** The Authorization header of every HTTP request, as received. */
  readonly authorizations: Array<string | undefined> = [];
  /** Every tools/call the server ran: tool and arguments. */
  readonly calls: Array<{ tool: string; arguments: Record<string, unknown> }> = [];

  private constructor(
    private readonly http: HttpServer,
    public token: string,
  ) {}

  static async start(token: string): Promise<TestMcpServer> {
    let self!: TestMcpServer;
    const http = createServer((req, res) => {
      void self.handle(req, res).catch(() => {
        if (!res.headersSent) res.writeHead(500).end();
      });
    });
    self = new TestMcpServer(http, token);
    await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
    return self;
  }

  get url(): string {
    return `http://127.0.0.1:${(this.http.address() as AddressInfo).port}/mcp`;
  }

  /** `host:port`, as MCP_ALLOW_PRIVATE_HOSTS names it. */
  get hostPort(): string {
    return `127.0.0.1:${(this.http.address() as AddressInfo).port}`;
  }

  private async handle(req: IncomingMessage, res: import('node:http').ServerResponse): Promise<void> {
    this.authorizations.push(req.headers.authorization);
    if (req.headers.authorization !== `Bearer ${this.token}`) {
      res.writeHead(401, { 'content-type': 'application/json', 'www-authenticate': 'Bearer' }).end(JSON.stringify({ error: 'unauthorized' }));
      return;
    }
    if (req.method !== 'POST') {
      // Stateless: no standalone SSE stream, no session to delete.
      res.writeHead(405, { allow: 'POST' }).end();
      return;
    }
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as unknown;
    const server = this.mcpServer();
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    res.on('close', () => {
      void transport.close();
      void server.close();
    });
    await server.connect(transport);
    await transport.handleRequest(req, res, body);
  }

  private mcpServer(): Server {
    const server = new Server({ name: 'test-orders', version: '1.0.0' }, { capabilities: { tools: {} } });
    server.setRequestHandler(ListToolsRequestSchema, async () => ({
      tools: [
        {
          name: 'lookup_order',
          description: 'Looks an order up by its id',
          inputSchema: { type: 'object', properties: { order_id: { type: 'string' } }, required: ['order_id'] },
        },
        { name: 'slow', description: 'Never answers', inputSchema: { type: 'object', properties: {} } },
      ],
    }));
    server.setRequestHandler(CallToolRequestSchema, async (request) => {
      const args = (request.params.arguments ?? {}) as Record<string, unknown>;
      this.calls.push({ tool: request.params.name, arguments: args });
      if (request.params.name === 'lookup_order') return { content: [{ type: 'text', text: `order ${String(args.order_id)}: shipped` }] };
      if (request.params.name === 'slow') return new Promise<never>(() => undefined);
      return { content: [{ type: 'text', text: `no tool ${request.params.name}` }], isError: true };
    });
    return server;
  }

  async stop(): Promise<void> {
    this.http.closeAllConnections();
    await new Promise<void>((resolve) => this.http.close(() => resolve()));
  }
}
