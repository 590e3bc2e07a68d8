/**
 * CORS on the API's paths with Strapi's default settings, an allow-list, `cors: false`, and the
 * host's own routes left without CORS headers.
 */
import { expect } from 'chai';
import { serveFixture, type ServedApi } from '../support/api.js';

describe('CORS', () => {
  describe('by default (as Strapi)', () => {
    let served: ServedApi;
    before(async () => {
      served = await serveFixture('sqlite');
    });
    after(() => served.close());

    it('allows any origin on a GET, a 400 and a 404 of the API', async () => {
      for (const path of ['/api/articles?fields[0]=title', '/api/articles?fields[0]=nope', '/api/articles/999999', '/_health']) {
        const response = await served.request.get(path).set('Origin', 'https://app.example');
        expect(response.headers['access-control-allow-origin'], path).to.equal('*');
        expect(response.headers.vary, path).to.match(/Origin/);
      }
    });

    it("answers a preflight with 204 and Strapi's methods and headers", async () => {
      const response = await served.request
        .options('/api/articles')
        .set('Origin', 'https://app.example')
        .set('Access-Control-Request-Method', 'GET')
        .set('Access-Control-Request-Headers', 'Authorization');
      expect(response.status).to.equal(204);
      expect(response.headers['access-control-allow-origin']).to.equal('*');
      expect(response.headers['access-control-allow-methods']).to.equal('GET,POST,PUT,PATCH,DELETE,HEAD,OPTIONS');
      expect(response.headers['access-control-allow-headers']).to.equal('Content-Type,Authorization,Origin,Accept');
    });

    it('leaves the paths outside the API alone', async () => {
      const response = await served.request.get('/elsewhere').set('Origin', 'https://app.example');
      expect(response.headers['access-control-allow-origin']).to.equal(undefined);
    });
  });

  it('echoes an origin of an allow-list, and none other', async () => {
    const served = await serveFixture('sqlite', 'small', { cors: { origin: ['https://a.example', 'https://b.example'] } });
    try {
      const allowed = await served.request.get('/api/articles').set('Origin', 'https://b.example');
      expect(allowed.headers['access-control-allow-origin']).to.equal('https://b.example');
      const refused = await served.request.get('/api/articles').set('Origin', 'https://evil.example');
      expect(refused.status).to.equal(200);
      expect(refused.headers['access-control-allow-origin']).to.equal(undefined);
    } finally {
      await served.close();
    }
  });

  it('sends no CORS header with cors: false (the host handles it)', async () => {
    const served = await serveFixture('sqlite', 'small', { cors: false });
    try {
      const response = await served.request.get('/api/articles').set('Origin', 'https://app.example');
      expect(response.status).to.equal(200);
      expect(response.headers['access-control-allow-origin']).to.equal(undefined);
      const preflight = await served.request.options('/api/articles').set('Origin', 'https://app.example').set('Access-Control-Request-Method', 'GET');
      expect(preflight.headers['access-control-allow-origin']).to.equal(undefined);
    } finally {
      await served.close();
    }
  });
});
