import { createServer, type Server as HttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * An OAuth 2.0 token endpoint on loopback that takes the refresh_token grant (RFC 6749 section 6)
 * for one client, as an MCP server's authorization server would. Each exchange of the current
 * refresh token issues a new access token (handed to `onIssue`, so the MCP server can take it) and
 * rotates the refresh token; the old refresh token is refused afterwards (`invalid_grant`, with
 * the refresh token echoed, so a test can see it scrubbed). `refuseAll` refuses every request.
 */
export class TestTokenEndpoint {
  /** Every request: its form fields and Authorization header. */
  readonly requests: Array<{ form: Record<string, string>; authorization: string | undefined; contentType: string | undefined }> = [];
  refreshToken: string;
  refuseAll = false;
  onIssue: (accessToken: string) => void = () => undefined;
  private issued = 0;

  private constructor(
    private readonly http: HttpServer,
    readonly client: { id: string; secret?: string; auth: 'none' | 'client_secret_basic' | 'client_secret_post' },
    refreshToken: string,
  ) {
    this.refreshToken = refreshToken;
  }

  static async start(client: TestTokenEndpoint['client'], refreshToken: string): Promise<TestTokenEndpoint> {
    let self!: TestTokenEndpoint;
    const http = createServer(async (req, res) => {
      const chunks: Buffer[] = [];
      for await (const chunk of req) chunks.push(chunk as Buffer);
      const form = Object.fromEntries(new URLSearchParams(Buffer.concat(chunks).toString('utf8')));
      self.requests.push({ form, authorization: req.headers.authorization, contentType: req.headers['content-type'] });
      const answer = self.answer(form, req.headers.authorization);
      res.writeHead(answer.status, { 'content-type': 'application/json', 'cache-control': 'no-store' }).end(JSON.stringify(answer.body));
    });
    self = new TestTokenEndpoint(http, client, refreshToken);
    await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
    return self;
  }

  get url(): string {
    return `http://127.0.0.1:${(this.http.address() as AddressInfo).port}/oauth/token`;
  }

  get hostPort(): string {
    return `127.0.0.1:${(this.http.address() as AddressInfo).port}`;
  }

  private clientAuthenticated(form: Record<string, string>, authorization: string | undefined): boolean {
    const { id, secret, auth } = this.client;
    if (auth === 'client_secret_basic') {
      return authorization === `Basic ${Buffer.from(`${encodeURIComponent(id)}:${encodeURIComponent(secret!)}`).toString('base64')}` && !form.client_secret;
    }
    if (auth === 'client_secret_post') return form.client_id === id && form.client_secret === secret && !authorization;
    return form.client_id === id && !form.client_secret && !authorization;
  }

  private answer(form: Record<string, string>, authorization: string | undefined): { status: number; body: unknown } {
    if (this.refuseAll || form.grant_type !== 'refresh_token') return { status: 400, body: { error: 'invalid_grant', error_description: `refresh token ${form.refresh_token} refused` } };
    if (!this.clientAuthenticated(form, authorization)) return { status: 401, body: { error: 'invalid_client' } };
    if (form.refresh_token !== this.refreshToken) return { status: 400, body: { error: 'invalid_grant', error_description: `refresh token ${form.refresh_token} is not valid` } };
    this.issued += 1;
    const accessToken = `access-${this.issued}-${crypto.randomUUID()}`;
    this.refreshToken = `refresh-${this.issued}-${crypto.randomUUID()}`;
    this.onIssue(accessToken);
    return { status: 200, body: { access_token: accessToken, token_type: 'Bearer', expires_in: 3600, refresh_token: this.refreshToken } };
  }

  async stop(): Promise<void> {
    this.http.closeAllConnections();
    await new Promise<void>((resolve) => this.http.close(() => resolve()));
  }
}
