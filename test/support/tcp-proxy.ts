import { connect, createServer, type Server, type Socket } from 'node:net';

/**
 * A real TCP relay between a client and a real server (MariaDB, the gateway), which a test can
 * cut and restore: cutting drops every open connection and stops listening, so new connections
 * are refused, as when the database is killed; restoring listens on the same port again. It can
 * also lose what the server answers (`dropReplies`): the request arrives and runs, the client
 * never hears, as when a network fails after the request went out.
 */
export class TcpProxy {
  private server: Server | undefined;
  private readonly sockets = new Set<Socket>();
  private listenPort = 0;
  private frozen = false;
  private repliesDropped = false;

  private constructor(
    private readonly targetHost: string,
    private readonly targetPort: number,
  ) {}

  static async start(target: { host: string; port: number }): Promise<TcpProxy> {
    const proxy = new TcpProxy(target.host, target.port);
    await proxy.restore();
    return proxy;
  }

  get port(): number {
    return this.listenPort;
  }

  /** `mysql://user@127.0.0.1:<proxy port>` for a `mysql://user@host:port` URL of the target. */
  rewrite(url: string): string {
    const rewritten = new URL(url);
    rewritten.hostname = '127.0.0.1';
    rewritten.port = String(this.listenPort);
    return rewritten.toString();
  }

  async restore(): Promise<void> {
    if (this.server) return;
    const server = createServer((client) => {
      const upstream = connect(this.targetPort, this.targetHost);
      for (const socket of [client, upstream]) {
        this.sockets.add(socket);
        socket.on('close', () => this.sockets.delete(socket));
        socket.on('error', () => undefined);
      }
      // Forwarded by hand rather than piped, so a frozen relay can swallow bytes both ways.
      client.on('data', (data) => this.frozen || upstream.write(data));
      upstream.on('data', (data) => this.frozen || this.repliesDropped || client.write(data));
      client.on('close', () => upstream.destroy());
      upstream.on('close', () => client.destroy());
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(this.listenPort, '127.0.0.1', () => resolve());
    });
    this.listenPort = (server.address() as { port: number }).port;
    this.server = server;
  }

  async cut(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    for (const socket of this.sockets) socket.destroy();
    this.sockets.clear();
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  /**
   * The server stops answering without closing anything (a hung host, a black-holed network):
   * connections stay open and accept bytes, and nothing comes back.
   */
  freeze(): void {
    this.frozen = true;
  }

  /** What the server sends is lost; what the client sends still arrives. */
  dropReplies(): void {
    this.repliesDropped = true;
  }

  /** Ends a freeze or lost replies; the connections left half-spoken are closed, as a real timeout would. */
  thaw(): void {
    this.frozen = false;
    this.repliesDropped = false;
    for (const socket of this.sockets) socket.destroy();
    this.sockets.clear();
  }

  stop(): Promise<void> {
    return this.cut();
  }
}
