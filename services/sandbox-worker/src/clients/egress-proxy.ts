import { lookup } from 'node:dns/promises';
import { connect, createServer, isIP, type Server, type Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { connect as tlsConnect, TLSSocket } from 'node:tls';
import type { Logger } from '@shared/log/logger';
import { addressVerdict, isGateway, nameVerdict, normalHost, type ClosedAddresses, type EgressScope, type Endpoint } from '../domain/egress-rules';
import { isOriginRequest, parseProxyRequest, proxyRefusal, type ProxyRequest } from '../domain/proxy-request';
import { substitutionsFor, type Substitution } from '../domain/secret-substitution';
import type { Interception } from './interception';
import { rewriteRequest } from './request-rewrite';

/**
 * A session's only way out: an HTTP proxy (CONNECT for TLS and any TCP, absolute-form requests for
 * plain HTTP) on a unix socket that is bind-mounted into the session's sandbox, where the session
 * program forwards 127.0.0.1:3128 to it (the sandbox has no other network). Each connection goes
 * to one destination, judged by domain/egress-rules.ts by name and then by every address the name
 * resolves to; the proxy connects to the address it judged. A refusal is a 403 whose body says
 * why, so the tool that asked shows the agent a reason.
 */
export interface EgressProxy {
  close(): Promise<void>;
}

export interface EgressProxyOptions {
  socketPath: string;
  scope: EgressScope;
  closed: ClosedAddresses;
  logger: Logger;
  /**
   * A repository credential's authorization as it is now (a token rotated on the session takes
   * effect at the next request): undefined when the session no longer has that repository. The
   * one the sandbox started with serves when this cannot answer.
   */
  currentAuthorization?: (endpoint: Endpoint) => Promise<string | undefined>;
  /** Where environment-variable credentials apply over HTTPS: the CA the tunnel is intercepted with. */
  interception?: Interception;
  /** Resolves a name to its addresses (injected by tests); the system resolver by default. */
  resolve?: (host: string) => Promise<string[]>;
}

/** The longest request head the proxy reads before deciding: a request line and a few headers. */
const HEAD_LIMIT = 16 * 1024;
const CONNECT_TIMEOUT_MS = 15_000;

const systemResolve = async (host: string) => (await lookup(host, { all: true, verbatim: true })).map((a) => a.address);

export async function startEgressProxy(options: EgressProxyOptions): Promise<EgressProxy> {
  const resolve = options.resolve ?? systemResolve;
  const gateway = options.scope.gateway;
  const gatewayAddresses = gateway ? await resolve(gateway.host).catch(() => [] as string[]) : [];
  /** This session's tunnels: they end with the session (closing the server alone leaves them up). */
  const open = new Set<Socket>();
  const server: Server = createServer((client) => void handle(client).catch(() => client.destroy()));

  async function handle(client: Socket): Promise<void> {
    client.on('error', () => client.destroy());
    const head = await readHead(client);
    if (!head) return void client.destroy();
    const request = parseProxyRequest(head);
    if ('error' in request) return void client.end(proxyRefusal(400, request.error));
    const target: Endpoint = { host: request.host, port: request.port };
    const byName = nameVerdict(target, options.scope);
    if (!byName.allowed) return refuse(client, target, byName.reason);
    let addresses: string[];
    try {
      addresses = await resolve(target.host);
    } catch {
      return void client.end(proxyRefusal(502, `${target.host} could not be resolved`));
    }
    const verdicts = addresses.map((address) => ({ address, verdict: addressVerdict(address, target, options.scope, options.closed, gatewayAddresses) }));
    const refused = verdicts.find((v) => !v.verdict.allowed);
    // Every address must pass: a name that resolves to a public and a closed address is refused, not tried in turn.
    if (refused && !refused.verdict.allowed) return refuse(client, target, refused.verdict.reason);
    if (verdicts.length === 0) return void client.end(proxyRefusal(502, `${target.host} has no address`));
    const address = verdicts[0]!.address;
    // Never into the gateway: what the session sends there (tool results, events) would carry the real value back into the log.
    const toGateway = isGateway(target, gateway) || (target.port === gateway?.port && gatewayAddresses.includes(address));
    const substitutions = toGateway ? [] : substitutionsFor(normalHost(target.host), options.scope.substitutions ?? []);
    const known = toGateway ? undefined : options.scope.credentials?.find((c) => c.port === target.port && c.host === normalHost(target.host));
    const credential = known && { authorization: await current(known) };
    if (request.kind === 'connect' && (substitutions.length > 0 || credential?.authorization) && options.interception) {
      return intercept(client, { ...target, address }, { substitutions, authorization: credential?.authorization }, options.interception, open);
    }
    if (request.kind === 'http') {
      const rewritten = await rewriteRequest(client, request.head, substitutions, credential?.authorization);
      if (rewritten) return forward(client, address, { ...request, head: rewritten }, open);
    }
    await forward(client, address, request, open);
  }

  async function current(known: Endpoint & { authorization: string }): Promise<string | undefined> {
    if (!options.currentAuthorization) return known.authorization;
    return options.currentAuthorization(known).catch((err) => {
      options.logger.warn('the current repository token could not be read: the one the session started with is used', { host: known.host, error: err });
      return known.authorization;
    });
  }

  function refuse(client: Socket, target: Endpoint, reason: string): void {
    options.logger.info('sandbox egress refused', { host: target.host, port: target.port, reason });
    client.end(proxyRefusal(403, `egress to ${target.host}:${target.port} refused: ${reason}`));
  }

  await new Promise<void>((resolveListen, reject) => {
    server.once('error', reject);
    server.listen(options.socketPath, () => resolveListen());
  });
  return {
    close: () =>
      new Promise<void>((done) => {
        server.close(() => done());
        for (const socket of open) socket.destroy();
      }),
  };
}

/** The request head, up to the blank line; what came after it stays in the socket (unshifted). */
function readHead(client: Duplex): Promise<Buffer | undefined> {
  return new Promise((resolve) => {
    let buffered = Buffer.alloc(0);
    const onData = (chunk: Buffer) => {
      buffered = Buffer.concat([buffered, chunk]);
      const end = buffered.indexOf('\r\n\r\n');
      if (end >= 0) {
        client.off('data', onData);
        client.pause();
        const rest = buffered.subarray(end + 4);
        if (rest.length > 0) client.unshift(rest);
        resolve(buffered.subarray(0, end + 4));
      } else if (buffered.length > HEAD_LIMIT) {
        client.off('data', onData);
        resolve(undefined);
      }
    };
    client.on('data', onData);
    client.once('end', () => resolve(undefined));
  });
}

/**
 * A tunnel to a host a credential applies to (an environment variable's, a repository's token),
 * opened in the middle: the client's TLS ends here
 * (with a certificate of the per-installation CA only sandboxes trust), its request is rewritten
 * (clients/request-rewrite.ts) and sent on over a TLS connection of the proxy's own to the
 * judged address, verified as the host's. One request per connection: its answer closes it.
 */
async function intercept(
  client: Socket,
  target: Endpoint & { address: string },
  put: { substitutions: Substitution[]; authorization: string | undefined },
  interception: Interception,
  open: Set<Socket>,
): Promise<void> {
  client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
  const inner = new TLSSocket(client, { isServer: true, secureContext: interception.contextFor(target.host) });
  inner.on('error', () => client.destroy());
  const head = await readHead(inner);
  if (!head || !isOriginRequest(head)) return void inner.destroy();
  const rewritten = (await rewriteRequest(inner, head, put.substitutions, put.authorization)) ?? head;
  const upstream = tlsConnect({ host: target.address, port: target.port, servername: isIP(target.host) ? undefined : target.host, ca: interception.upstreamCa, timeout: CONNECT_TIMEOUT_MS });
  open.add(upstream).add(client);
  upstream.once('secureConnect', () => {
    upstream.setTimeout(0);
    upstream.write(rewritten);
    inner.pipe(upstream);
    upstream.pipe(inner);
    inner.resume();
  });
  const end = () => {
    open.delete(upstream);
    open.delete(client);
    inner.destroy();
    upstream.destroy();
  };
  upstream.once('timeout', end);
  upstream.once('error', (err) => {
    if (!inner.destroyed) inner.end(proxyRefusal(502, `${target.host}:${target.port} did not answer over TLS (${(err as NodeJS.ErrnoException).code ?? err.message})`));
    end();
  });
  upstream.once('close', end);
  inner.once('close', end);
}

/** Connects to the judged address and joins the two sockets (a tunnel for CONNECT; the rewritten request first otherwise). */
function forward(client: Socket, address: string, request: ProxyRequest, open: Set<Socket>): Promise<void> {
  return new Promise((done) => {
    const upstream = connect({ host: address, port: request.port, timeout: CONNECT_TIMEOUT_MS });
    open.add(upstream).add(client);
    const finish = () => {
      open.delete(upstream);
      open.delete(client);
      done();
    };
    upstream.once('connect', () => {
      upstream.setTimeout(0);
      if (request.kind === 'connect') client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      else upstream.write(request.head);
      client.pipe(upstream);
      upstream.pipe(client);
      client.resume();
    });
    upstream.once('timeout', () => upstream.destroy(new Error('timed out')));
    upstream.once('error', (err) => {
      if (!client.writableEnded && !client.destroyed) client.end(proxyRefusal(502, `${request.host}:${request.port} did not answer (${(err as NodeJS.ErrnoException).code ?? err.message})`));
      finish();
    });
    upstream.once('close', () => {
      client.destroy();
      finish();
    });
    client.once('close', () => upstream.destroy());
  });
}
