/**
 * A GitHub and a Google on loopback, for the third-party login suites: each authorizes at once
 * (as a user who clicks "Authorize"), exchanges a code for a token when its client id and secret
 * are right, and answers the token's profile. Who logs in next is set with `nextUser`.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { randomBytes } from 'node:crypto';

export interface FakeUser {
  readonly login: string;
  /** GitHub's public profile email (null: none), and the email Google's tokeninfo answers. */
  readonly email: string | null;
  /** GitHub's /user/emails; Google's email_verified is the first one's `verified`. */
  readonly emails?: readonly { readonly email: string; readonly primary: boolean; readonly verified: boolean }[];
}

export const CLIENT = { key: 'loopback-client', secret: 'loopback-secret' };

export class OAuthProvider {
  private next: FakeUser = { login: 'octo', email: 'octo@example.com' };
  private readonly codes = new Map<string, FakeUser>();
  private readonly tokens = new Map<string, FakeUser>();
  /** Every request received, as `METHOD path`. */
  readonly requests: string[] = [];

  private constructor(
    private readonly server: Server,
    readonly url: string,
  ) {}

  static async start(): Promise<OAuthProvider> {
    let provider: OAuthProvider | null = null;
    const server = createServer((request, response) => void provider!.handle(request, response));
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', () => done()));
    const address = server.address();
    provider = new OAuthProvider(server, `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`);
    return provider;
  }

  /** The user who authorizes next. */
  nextUser(user: FakeUser): void {
    this.next = user;
  }

  /** GitHub's and Google's endpoints, here. */
  endpoints(provider: 'github' | 'google') {
    return provider === 'github'
      ? { authorizeUrl: `${this.url}/login/oauth/authorize`, accessUrl: `${this.url}/login/oauth/access_token`, profileUrl: this.url }
      : { authorizeUrl: `${this.url}/o/oauth2/v2/auth`, accessUrl: `${this.url}/token`, profileUrl: `${this.url}/tokeninfo` };
  }

  /** A token for `user` as the provider would give one, for calls that skip the dance. */
  tokenFor(user: FakeUser): string {
    const token = randomBytes(12).toString('hex');
    this.tokens.set(token, user);
    return token;
  }

  close(): Promise<void> {
    return new Promise((done) => this.server.close(() => done()));
  }

  private async handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const url = new URL(request.url ?? '/', this.url);
    this.requests.push(`${request.method} ${url.pathname}`);
    const json = (status: number, body: unknown) => {
      response.writeHead(status, { 'content-type': 'application/json' });
      response.end(JSON.stringify(body));
    };
    if (url.pathname === '/login/oauth/authorize' || url.pathname === '/o/oauth2/v2/auth') return this.authorize(url, response);
    if (url.pathname === '/login/oauth/access_token' || url.pathname === '/token') return json(...(await this.exchange(request)));
    const bearer = /^Bearer (.+)$/.exec(request.headers.authorization ?? '')?.[1];
    const user = this.tokens.get(bearer ?? url.searchParams.get('access_token') ?? '');
    if (!user) return json(401, { message: 'Bad credentials' });
    if (url.pathname === '/user') return json(200, { login: user.login, email: user.email });
    if (url.pathname === '/user/emails') return json(200, user.emails ?? []);
    if (url.pathname === '/tokeninfo') return json(200, { email: user.email, email_verified: String(user.emails?.[0]?.verified ?? true) });
    json(404, { message: 'Not Found' });
  }

  private authorize(url: URL, response: ServerResponse): void {
    const redirect = url.searchParams.get('redirect_uri');
    if (url.searchParams.get('client_id') !== CLIENT.key || !redirect) {
      response.writeHead(400).end('bad client');
      return;
    }
    const code = randomBytes(8).toString('hex');
    this.codes.set(code, this.next);
    const back = new URL(redirect);
    back.searchParams.set('code', code);
    const state = url.searchParams.get('state');
    if (state) back.searchParams.set('state', state);
    response.writeHead(302, { location: back.toString() }).end();
  }

  private async exchange(request: IncomingMessage): Promise<[number, unknown]> {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const form = new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
    const user = this.codes.get(form.get('code') ?? '');
    if (!user || form.get('client_id') !== CLIENT.key || form.get('client_secret') !== CLIENT.secret) return [400, { error: 'bad_verification_code' }];
    this.codes.delete(form.get('code')!);
    return [200, { access_token: this.tokenFor(user), token_type: 'bearer', scope: 'user' }];
  }
}
