/**
 * The end-user routes in the OpenAPI document when the API serves them: valid OpenAPI 3.1, the
 * routes listed as served (registration only when on), and the schemas describing the real
 * answers exactly.
 */
import { Validator } from '@seriousme/openapi-schema-validator';
import { expect } from 'chai';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { grantsFor, parsePermissions } from '../../plugin/access/permissions.js';
import { generateOpenApi } from '../../plugin/openapi/document.js';
import { loadSchema } from '../../plugin/schema/load.js';
import { repoRoot, type ServedApi } from '../support/api.js';
import type { FreshFixture } from '../writes/support/fixture.js';
import { AUTH_PERMISSIONS, authFixture, serveUsers, usersOption } from './support.js';

type Document = { paths: Record<string, unknown>; components: Record<string, Record<string, unknown>>; security: unknown[] };

describe('OpenAPI document with end users', function () {
  this.timeout(60_000);
  let fixture: FreshFixture;
  let api: ServedApi;

  before(async () => {
    fixture = await authFixture('sqlite');
    api = await serveUsers(fixture, usersOption({ register: true, emailConfirmation: false }), { openapi: true });
  });

  after(async () => {
    await api?.close();
    await fixture?.drop();
  });

  it('is valid OpenAPI 3.1 listing login and /users/me, and registration only when it is on', async () => {
    const registry = await loadSchema(repoRoot);
    const grants = grantsFor(parsePermissions(AUTH_PERMISSIONS, 'permissions.yaml', registry), 'public');
    const withRegister = generateOpenApi(registry, grants, { users: { register: true } }) as Document;
    const result = await new Validator().validate(withRegister as Parameters<Validator['validate']>[0]);
    expect(result.errors ?? [], JSON.stringify(result.errors)).to.deep.equal([]);
    expect(withRegister.paths).to.include.keys('/api/auth/local', '/api/auth/local/register', '/api/users/me');
    expect(withRegister.components.securitySchemes).to.have.property('loginToken');
    expect(Object.keys((generateOpenApi(registry, grants, { users: { register: false } }) as Document).paths)).to.not.include('/api/auth/local/register');
    const without = generateOpenApi(registry, grants) as Document;
    expect(Object.keys(without.paths).filter((path) => path.includes('auth') || path.endsWith('/me'))).to.deep.equal([]);
    expect(without.components.securitySchemes).to.not.have.property('loginToken');
  });

  it('describes the answers of login, registration and /users/me exactly', async () => {
    const document = (await api.request.get('/api/openapi.json')).body as Document;
    const ajv = new Ajv2020({ strict: false, allErrors: true });
    addFormats.default(ajv);
    ajv.addSchema({ $id: 'openapi', components: document.components });
    const schema = (name: string) => ajv.getSchema(`openapi#/components/schemas/${name}`)!;
    const login = await api.request.post('/api/auth/local').set('X-Forwarded-For', '10.9.0.1').send({ identifier: 'user01', password: 'Password-1!' });
    const registered = await api.request.post('/api/auth/local/register').set('X-Forwarded-For', '10.9.0.2').send({ username: 'described', email: 'described@example.com', password: 'Password-d!' });
    const me = await api.request.get('/api/users/me').set('Authorization', `Bearer ${login.body.jwt as string}`);
    for (const [name, body] of [['AuthAnswer', login.body], ['AuthAnswer', registered.body], ['AuthUser', me.body]] as const) {
      const validate = schema(name);
      expect(validate(body), `${name}: ${JSON.stringify(validate.errors?.slice(0, 3))}`).to.equal(true);
      expect(validate({ ...body, password: 'x' }), `${name} with a password`).to.equal(false);
    }
  });
});
