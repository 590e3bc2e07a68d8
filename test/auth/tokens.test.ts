/**
 * Login tokens both ways between the reference and the plugin. The reference's token (recorded at
 * the first login of test/auth/recorded, HS256 with the recording's secret) is verified here at a
 * time inside its lifetime, since HS256 verification depends on nothing else. The reverse (the
 * reference accepting a token the plugin signed) is recorded: case "me with a token the plugin
 * signed" of recorded/me.json was signed by dist/plugin/auth/jwt.js and answered 200 by Strapi.
 */
import { createHmac } from 'node:crypto';
import { expect } from 'chai';
import { expiresInSeconds, looksLikeJwt, signUserToken, verifyToken } from '../../plugin/auth/jwt.js';
import { testDatabaseKinds } from '../support/databases.js';
import type { ServedApi } from '../support/api.js';
import type { FreshFixture } from '../writes/support/fixture.js';
import { authFixture, JWT_SECRET, recordedCases, serveUsers, usersOption } from './support.js';

const OFF = { register: false, emailConfirmation: false };

function claimsOf(token: string): Record<string, unknown> {
  return JSON.parse(Buffer.from(token.split('.')[1], 'base64url').toString('utf8')) as Record<string, unknown>;
}

function signWith(header: object, payload: object, secret = JWT_SECRET, algorithm = 'sha256'): string {
  const encode = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
  const body = `${encode(header)}.${encode(payload)}`;
  return `${body}.${createHmac(algorithm, secret).update(body).digest('base64url')}`;
}

const referenceLogin = recordedCases().find((recorded) => recorded.name === 'logs in by username')!;
const referenceToken = (referenceLogin.response as { jwt: string }).jwt;
const referenceClaims = claimsOf(referenceToken) as { id: number; iat: number; exp: number };

describe('login tokens: HS256 as jsonwebtoken writes them', () => {
  it('signs { id, iat, exp } with the header jsonwebtoken writes, and verifies its own tokens', () => {
    const now = Date.UTC(2025, 0, 1, 12, 0, 0, 700);
    const token = signUserToken(7, 'secret', expiresInSeconds('30d'), now);
    expect(token.split('.')[0]).to.equal(referenceToken.split('.')[0]);
    expect(claimsOf(token)).to.deep.equal({ id: 7, iat: Math.floor(now / 1000), exp: Math.floor(now / 1000) + 2_592_000 });
    expect(verifyToken(token, 'secret', now)).to.deep.equal(claimsOf(token));
  });

  it('signs the very token the reference signed, for the same user, secret and second', () => {
    const token = signUserToken(referenceClaims.id, JWT_SECRET, referenceClaims.exp - referenceClaims.iat, referenceClaims.iat * 1000);
    expect(token).to.equal(referenceToken);
  });

  it("reads expiresIn as Strapi's jwt.expiresIn: seconds, or a timespan", () => {
    expect(expiresInSeconds('30d')).to.equal(2_592_000);
    expect(expiresInSeconds('12h')).to.equal(43_200);
    expect(expiresInSeconds('2.5 hrs')).to.equal(9000);
    expect(expiresInSeconds('1y')).to.equal(31_557_600);
    expect(expiresInSeconds(3600)).to.equal(3600);
    for (const bad of ['soon', '', '-1d', 0, 1.5, -60]) expect(() => expiresInSeconds(bad), String(bad)).to.throw(/jwtExpiresIn/);
  });

  it('refuses a token expired, not yet valid, tampered with, of another secret, or of another algorithm', () => {
    const now = referenceClaims.iat * 1000;
    expect(verifyToken(referenceToken, JWT_SECRET, now)).to.deep.equal(referenceClaims);
    expect(verifyToken(referenceToken, JWT_SECRET, referenceClaims.exp * 1000), 'at exp').to.equal(null);
    expect(verifyToken(referenceToken, 'another secret', now)).to.equal(null);
    const [header, , signature] = referenceToken.split('.');
    const forged = Buffer.from(JSON.stringify({ ...referenceClaims, id: 2 })).toString('base64url');
    expect(verifyToken(`${header}.${forged}.${signature}`, JWT_SECRET, now), 'tampered').to.equal(null);
    expect(verifyToken(signWith({ alg: 'none', typ: 'JWT' }, referenceClaims).replace(/[^.]+$/, ''), JWT_SECRET, now), 'alg none').to.equal(null);
    expect(verifyToken(signWith({ alg: 'HS512', typ: 'JWT' }, referenceClaims, JWT_SECRET, 'sha512'), JWT_SECRET, now), 'HS512').to.equal(null);
    expect(verifyToken(signWith({ alg: 'HS256', typ: 'JWT' }, { id: 1, nbf: referenceClaims.iat + 60 }), JWT_SECRET, now), 'nbf').to.equal(null);
    expect(verifyToken('a.b', JWT_SECRET, now)).to.equal(null);
    expect(verifyToken('a.b.c', JWT_SECRET, now)).to.equal(null);
  });

  it('tells a JWT from an API token by its shape', () => {
    expect(looksLikeJwt(referenceToken)).to.equal(true);
    expect(looksLikeJwt('cat_abcDEF123-_')).to.equal(false);
    expect(looksLikeJwt('demo-editor-token')).to.equal(false);
  });
});

for (const { client, name } of testDatabaseKinds()) {
  describe(`login tokens between the reference and the plugin (${name})`, function () {
    this.timeout(60_000);
    let fixture: FreshFixture;
    let clock: number;
    let api: ServedApi;

    before(async () => {
      fixture = await authFixture(client);
      api = await serveUsers(fixture, usersOption(OFF), { now: () => clock });
    });

    after(async () => {
      await api?.close();
      await fixture?.drop();
    });

    it('accepts the token the reference issued at a login, within its lifetime, as its user and role', async () => {
      clock = (referenceClaims.iat + 60) * 1000;
      const me = await api.request.get('/api/users/me').set('Authorization', `Bearer ${referenceToken}`);
      expect(me.status).to.equal(200);
      expect(me.body).to.include({ id: 1, username: 'user01' });
      const restaurants = await api.request.get('/api/restaurants?fields[0]=name').set('Authorization', `Bearer ${referenceToken}`);
      expect(restaurants.status, 'the authenticated role may list restaurants').to.equal(200);
    });

    it('refuses it once expired, as the reference does', async () => {
      clock = referenceClaims.exp * 1000;
      const me = await api.request.get('/api/users/me').set('Authorization', `Bearer ${referenceToken}`);
      expect(me.status).to.equal(401);
      expect(me.body.error).to.deep.equal({ status: 401, name: 'UnauthorizedError', message: 'Missing or invalid credentials', details: {} });
    });

    it("issues tokens with Strapi's claims { id, iat, exp } and its 30-day lifetime", async () => {
      clock = Date.UTC(2026, 0, 15, 10, 0, 0);
      const login = await api.request.post('/api/auth/local').set('X-Forwarded-For', '10.1.0.1').send({ identifier: 'user03', password: 'Password-3!' });
      expect(login.status).to.equal(200);
      const claims = claimsOf(login.body.jwt as string);
      expect(Object.keys(claims)).to.deep.equal(['id', 'iat', 'exp']);
      expect(claims).to.deep.equal({ id: 3, iat: clock / 1000, exp: clock / 1000 + 30 * 86_400 });
    });

    it('issues tokens of the configured lifetime (jwtExpiresIn)', async () => {
      const short = await serveUsers(fixture, usersOption(OFF, { jwtExpiresIn: '1h' }), { now: () => clock });
      try {
        const login = await short.request.post('/api/auth/local').set('X-Forwarded-For', '10.1.0.2').send({ identifier: 'user03', password: 'Password-3!' });
        const claims = claimsOf(login.body.jwt as string) as { iat: number; exp: number };
        expect(claims.exp - claims.iat).to.equal(3600);
        clock += 3600 * 1000;
        const me = await short.request.get('/api/users/me').set('Authorization', `Bearer ${login.body.jwt as string}`);
        expect(me.status, 'an hour later').to.equal(401);
      } finally {
        await short.close();
      }
    });
  });
}
