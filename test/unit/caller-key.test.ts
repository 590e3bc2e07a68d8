/**
 * The caller key heavy statement slots are shared by (access/caller.ts, sql/admission.ts): an API
 * token by its name, else the end user by id, else the client's address (behind a proxy, only
 * when the app trusts it).
 */
import { expect } from 'chai';
import Koa from 'koa';
import supertest from 'supertest';
import { resolveCaller } from '../../plugin/http/caller.js';
import { tokenHash, TokenVerifier } from '../../plugin/access/tokens.js';

const tokens = new TokenVerifier([{ name: 'reports', role: 'editor', hash: tokenHash('reports-token', 'caller-key-test-salt'), expiresAt: null }]);

/** The key resolveCaller gives a request sent by `send`, in an app set up by `setup`. */
async function keyOf(send: (request: supertest.Agent) => supertest.Test, setup: (app: Koa) => void = () => undefined): Promise<string> {
  const app = new Koa();
  setup(app);
  let key = '';
  app.use(async (ctx) => {
    key = (await resolveCaller(ctx, tokens, undefined, Date.now())).key;
    ctx.body = {};
  });
  await send(supertest.agent(app.callback())).expect(200);
  return key;
}

describe('caller key', () => {
  it('names an API token by its name', async () => {
    expect(await keyOf((request) => request.get('/').set('Authorization', 'Bearer reports-token'))).to.equal('token:reports');
  });

  it("names the host's end user by id", async () => {
    const key = await keyOf(
      (request) => request.get('/'),
      (app) => app.use((ctx, next) => ((ctx.state.user = { id: 7, role: 'editor' }), next())),
    );
    expect(key).to.equal('user:7');
  });

  it('names an anonymous caller by its address, a forwarded one only behind a trusted proxy', async () => {
    expect(await keyOf((request) => request.get('/'))).to.match(/^address:(::ffff:)?127\.0\.0\.1$/);
    expect(await keyOf((request) => request.get('/').set('X-Forwarded-For', '203.0.113.9'))).to.match(/^address:(::ffff:)?127\.0\.0\.1$/);
    const trusted = await keyOf(
      (request) => request.get('/').set('X-Forwarded-For', '203.0.113.9'),
      (app) => (app.proxy = true),
    );
    expect(trusted).to.equal('address:203.0.113.9');
  });
});
