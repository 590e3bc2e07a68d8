/**
 * The routes of the locales, the account flows, users, roles and third-party login in the OpenAPI
 * document: listed when the API serves them to the role (the `users` option's mail and providers,
 * the role's actions on `user`, `role` and `locale`), the document valid OpenAPI 3.1, and the real
 * answers of those routes described by its schemas.
 */
import { Validator } from '@seriousme/openapi-schema-validator';
import { expect } from 'chai';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { grantsFor, parsePermissions } from '../../plugin/access/permissions.js';
import { generateOpenApi } from '../../plugin/openapi/document.js';
import { loadSchema } from '../../plugin/schema/load.js';
import { repoRoot, type ServedApi } from '../support/api.js';
import { MailBox } from '../support/mail-box.js';
import { freshFixture, type FreshFixture } from '../writes/support/fixture.js';
import { serveUsers } from '../auth/support.js';
import { CountingSender, permissionsFor, usersOption, type Settings } from './support.js';

type Document = { paths: Record<string, Record<string, unknown>>; components: Record<string, Record<string, unknown>> };

const SETTINGS: Settings = {
  register: true,
  emailConfirmation: false,
  resetPasswordUrl: 'https://front.example.com/reset-password',
  confirmationRedirect: 'https://front.example.com/confirmed',
  templates: 'stock',
  locales: { public: true, authenticated: true },
  authenticated: ['user.count', 'user.create', 'user.update', 'user.destroy', 'role.find', 'role.findOne'],
  providers: ['github'],
};

const ACCOUNT_PATHS = ['/api/auth/change-password', '/api/auth/forgot-password', '/api/auth/reset-password', '/api/auth/send-email-confirmation', '/api/auth/email-confirmation'];
const GRANTED_PATHS = ['/api/i18n/locales', '/api/users/count', '/api/users', '/api/users/{id}', '/api/users-permissions/roles', '/api/users-permissions/roles/{id}', '/api/users-permissions/permissions'];

async function expectValid(document: unknown): Promise<void> {
  const result = await new Validator().validate(document as Parameters<Validator['validate']>[0]);
  expect(result.errors ?? [], JSON.stringify(result.errors)).to.deep.equal([]);
}

describe('OpenAPI document: locales, account flows, users and roles', function () {
  this.timeout(60_000);

  it('lists each route where the options serve it and the role may call it, and is valid', async () => {
    const registry = await loadSchema(repoRoot);
    const permissions = parsePermissions(permissionsFor(SETTINGS), 'permissions.yaml', registry);
    const authenticated = grantsFor(permissions, 'authenticated');
    const full = generateOpenApi(registry, authenticated, { users: { register: true, email: true, providers: ['github', 'google'] } }) as Document;
    await expectValid(full);
    expect(full.paths).to.include.keys(...ACCOUNT_PATHS, ...GRANTED_PATHS, '/api/connect/github', '/api/auth/github/callback', '/api/connect/google', '/api/auth/google/callback');
    expect(Object.keys(full.paths['/api/users/{id}'])).to.have.members(['put', 'delete']);

    const withoutMail = generateOpenApi(registry, authenticated, { users: { register: false, providers: [] } }) as Document;
    await expectValid(withoutMail);
    expect(withoutMail.paths).to.include.keys('/api/auth/change-password', ...GRANTED_PATHS);
    expect(Object.keys(withoutMail.paths).filter((path) => path.includes('password') && !path.endsWith('change-password'))).to.deep.equal([]);
    expect(Object.keys(withoutMail.paths).filter((path) => path.includes('connect') || path.includes('confirmation'))).to.deep.equal([]);

    // The Public role reads the locales and users, and may not count, write users nor read roles.
    const anonymous = generateOpenApi(registry, grantsFor(permissions, 'public'), { users: { register: true, email: true, providers: [] } }) as Document;
    await expectValid(anonymous);
    expect(anonymous.paths).to.include.keys('/api/i18n/locales', '/api/users/count');
    expect(Object.keys(anonymous.paths).filter((path) => path.includes('users-permissions'))).to.deep.equal([]);
    expect(Object.keys(anonymous.paths['/api/users/{id}'])).to.deep.equal(['get']);
    expect(anonymous.paths['/api/users']).to.not.have.property('post');

    // Without the `users` option only the locales are served; a role that may not list them has none.
    const noUsers = generateOpenApi(registry, grantsFor(parsePermissions(permissionsFor({ ...SETTINGS, locales: { public: false, authenticated: false } }), 'permissions.yaml', registry), 'public')) as Document;
    expect(Object.keys(noUsers.paths).filter((path) => path.includes('auth') || path.includes('users-permissions') || path.includes('i18n') || path === '/api/users/count')).to.deep.equal([]);
  });

  describe('describes the real answers', () => {
    let fixture: FreshFixture;
    let box: MailBox;
    let sender: CountingSender;
    let api: ServedApi;

    before(async () => {
      box = await MailBox.start();
      sender = new CountingSender(box);
      fixture = await freshFixture('sqlite', permissionsFor(SETTINGS));
      api = await serveUsers(fixture, usersOption(SETTINGS, sender), { openapi: true });
    });

    after(async () => {
      await api?.close();
      await sender?.close();
      await box?.close();
      await fixture?.drop();
    });

    it('of the locales, users, roles and account routes', async () => {
      const login = await api.request.post('/api/auth/local').set('X-Forwarded-For', '10.9.1.1').send({ identifier: 'user01', password: 'Password-1!' });
      const bearer = `Bearer ${login.body.jwt as string}`;
      const document = (await api.request.get('/api/openapi.json').set('Authorization', bearer)).body as Document;
      await expectValid(document);
      const ajv = new Ajv2020({ strict: false, allErrors: true });
      addFormats.default(ajv);
      const answerSchema = (path: string, method: string, status: number) => {
        const operation = document.paths[path][method] as { responses: Record<string, { content: { 'application/json': { schema: unknown } } }> };
        // The document's components beside the answer's schema, so that its `#/components/…` references resolve.
        return ajv.compile({ ...(operation.responses[status].content['application/json'].schema as object), components: document.components });
      };
      const check = async (path: string, method: string, status: number, request: Promise<{ status: number; body: unknown }>) => {
        const response = await request;
        expect(response.status, `${method} ${path}: ${JSON.stringify(response.body)}`).to.equal(status);
        const validate = answerSchema(path, method, status);
        expect(validate(response.body), `${method} ${path}: ${JSON.stringify(validate.errors?.slice(0, 3))}`).to.equal(true);
      };
      const get = (path: string) => api.request.get(path).set('Authorization', bearer).then((response) => response);
      await check('/api/i18n/locales', 'get', 200, get('/api/i18n/locales'));
      await check('/api/users/count', 'get', 200, get('/api/users/count'));
      await check('/api/users-permissions/roles', 'get', 200, get('/api/users-permissions/roles'));
      await check('/api/users-permissions/roles/{id}', 'get', 200, get('/api/users-permissions/roles/1'));
      await check('/api/users-permissions/permissions', 'get', 200, get('/api/users-permissions/permissions'));
      await check('/api/users', 'post', 201, api.request.post('/api/users').set('Authorization', bearer).send({ username: 'described', email: 'described@example.com', password: 'Password-d!', role: 1 }));
      await check('/api/auth/forgot-password', 'post', 200, api.request.post('/api/auth/forgot-password').set('X-Forwarded-For', '10.9.1.2').send({ email: 'user02@example.com' }));
      await check('/api/auth/send-email-confirmation', 'post', 200, api.request.post('/api/auth/send-email-confirmation').set('X-Forwarded-For', '10.9.1.3').send({ email: 'user04@example.com' }));
      await check('/api/auth/change-password', 'post', 200, api.request.post('/api/auth/change-password').set('Authorization', bearer).set('X-Forwarded-For', '10.9.1.4').send({ currentPassword: 'Password-1!', password: 'Password-1b!', passwordConfirmation: 'Password-1b!' }));
      await sender.idle();
    });
  });
});
