/**
 * Lifecycle hooks of files (`lifecycles: { 'plugin::upload.file': … }` and `'*'`) and the `media.*`
 * events of `api.events`, on every write of the media library: an upload (by the route, with an
 * entry, by host code), new information, a replacement, a deletion. `before*` hooks run in the
 * write's transaction and may change the file's information or refuse it (nothing written or
 * stored); `after*` hooks and events run after the commit with the file as answered, and their
 * failures never fail the request. On SQLite and PostgreSQL.
 */
import { expect } from 'chai';
import { FileHooks } from '../../plugin/upload/file-hooks.js';
import { loadSchema } from '../../plugin/schema/load.js';
import { Lifecycles } from '../../plugin/write/lifecycles.js';
import type { RowStore } from '../../plugin/write/row-store.js';
import { repoRoot } from '../support/api.js';
import { ForbiddenError, ValidationError, type LifecycleEvent, type LifecycleHooks, type MediaEvent } from '../../plugin/index.js';
import { testDatabaseKinds } from '../support/databases.js';
import { memoryLog } from './support/memory-log.js';
import { receivingFolders, testFile, UPLOAD_PERMISSIONS, uploadApi, type UploadApi } from './support/upload-api.js';

const FILE_UID = 'plugin::upload.file';

for (const kind of testDatabaseKinds()) {
  describe(`lifecycle hooks and events of files (${kind.name})`, function () {
    this.timeout(60_000);
    let api: UploadApi;
    /** The hooks of the test running: the option's objects are read at each write. */
    const fileHooks: LifecycleHooks = {};
    const allHooks: LifecycleHooks = {};
    const log = memoryLog();
    const heard: string[] = [];

    before(async () => {
      api = await uploadApi(kind.client, {}, {}, UPLOAD_PERMISSIONS, { logger: log.logger, lifecycles: { [FILE_UID]: fileHooks, '*': allHooks } });
    });
    beforeEach(() => {
      for (const hooks of [fileHooks, allHooks]) for (const name of Object.keys(hooks)) delete hooks[name as keyof LifecycleHooks];
      api.api.events.removeAllListeners();
      log.clear();
      heard.length = 0;
    });
    after(async () => api?.close());

    const upload = (name = 'photo.jpg', fileInfo?: object) => {
      const test = api.as('editor', api.request.post('/api/upload')).attach('files', testFile(name), name);
      return fileInfo ? test.field('fileInfo', JSON.stringify(fileInfo)) : test;
    };
    const hookFailures = () => log.records().filter((record) => /lifecycle hook or event listener failed/.test(String(record.msg)));

    it('runs beforeCreate in the transaction with the information and what the content is, then afterCreate and media.create with the file answered', async function () {
      fileHooks.beforeCreate = (event) => {
        heard.push(`before ${event.model.uid} ${event.role} ${JSON.stringify(event.data)} ${JSON.stringify(event.file)}`);
        event.data!.caption = `${event.file!.width}×${event.file!.height}`;
      };
      fileHooks.afterCreate = (event) => void heard.push(`after ${event.id} ${(event.entry as { caption: string }).caption}`);
      api.api.events.on('media.create', (payload: MediaEvent) => void heard.push(`${payload.event} ${(payload.media as { id: number }).id}`));
      const response = await upload('photo.jpg', { alternativeText: 'A photo' });
      expect(response.status).to.equal(200);
      const [file] = response.body as { id: number; caption: string; size: number }[];
      expect(file.caption).to.match(/^\d+×\d+$/);
      expect(heard).to.deep.equal([
        `before ${FILE_UID} editor {"name":"photo.jpg","alternativeText":"A photo","caption":null} {"mime":"image/jpeg","ext":".jpg","size":${file.size},"width":${file.caption.split('×')[0]},"height":${file.caption.split('×')[1]}}`,
        `after ${file.id} ${file.caption}`,
        `media.create ${file.id}`,
      ]);
    });

    it('writes and stores nothing when a before hook refuses, with its 400 or 403', async function () {
      const [files, objects, folders] = [await api.fileCount(), api.objects(), receivingFolders()];
      fileHooks.beforeCreate = (event) => {
        if (event.file!.mime !== 'application/pdf') throw new ValidationError('PDFs only');
      };
      const refused = await upload('photo.jpg');
      expect(refused.status).to.equal(400);
      expect(refused.body.error.message).to.equal('PDFs only');
      allHooks.beforeCreate = () => {
        throw new ForbiddenError('uploads are closed');
      };
      expect((await upload('report.pdf')).status).to.equal(403);
      expect(await api.fileCount()).to.equal(files);
      expect(api.objects()).to.deep.equal(objects);
      expect(receivingFolders()).to.deep.equal(folders);
    });

    it('checks the information a hook changed: a name no file system takes, a key that is not information', async function () {
      const files = await api.fileCount();
      fileHooks.beforeCreate = (event) => void (event.data!.name = 'a/b.jpg');
      const badName = await upload();
      expect(badName.status).to.equal(400);
      expect(badName.body.error.message).to.match(/File name contains invalid characters/);
      fileHooks.beforeCreate = (event) => void (event.data!.url = '/elsewhere.jpg');
      const notInformation = await upload();
      expect(notInformation.status).to.equal(400);
      expect(notInformation.body.error.message).to.match(/url is set by its content/);
      expect(await api.fileCount()).to.equal(files);
    });

    it('runs the update hooks on new information and on a replacement, and the delete hooks around a deletion', async function () {
      const [created] = (await upload('photo.jpg', { caption: 'first' })).body as { id: number; hash: string }[];
      fileHooks.beforeUpdate = (event) => {
        heard.push(`beforeUpdate ${event.id} ${JSON.stringify(event.data)} ${event.file ? event.file.mime : 'no content'}`);
        if (event.data!.name) event.data!.name = `renamed-${event.data!.name}`;
      };
      fileHooks.afterUpdate = (event) => void heard.push(`afterUpdate ${event.id} ${(event.entry as { name: string }).name}`);
      fileHooks.beforeDelete = (event) => void heard.push(`beforeDelete ${event.id} ${(event.entry as { name: string }).name}`);
      fileHooks.afterDelete = (event) => void heard.push(`afterDelete ${event.id}`);
      api.api.events.on('media.update', (payload: MediaEvent) => void heard.push(payload.event));
      api.api.events.on('media.delete', (payload: MediaEvent) => void heard.push(`${payload.event} ${(payload.media as { name: string }).name}`));

      const info = await api.as('editor', api.request.post(`/api/upload?id=${created.id}`)).field('fileInfo', JSON.stringify({ name: 'harbour.jpg' }));
      expect(info.status).to.equal(200);
      expect(info.body.name).to.equal('renamed-harbour.jpg');
      const replaced = await api.as('editor', api.request.post(`/api/upload?id=${created.id}`)).attach('files', testFile('icon.png'), 'icon.png');
      expect(replaced.status).to.equal(200);
      expect(replaced.body).to.include({ name: 'renamed-icon.png', hash: created.hash });
      const deleted = await api.as('editor', api.request.delete(`/api/upload/files/${created.id}`));
      expect(deleted.status).to.equal(200);
      expect(heard).to.deep.equal([
        `beforeUpdate ${created.id} {"name":"harbour.jpg"} no content`,
        `afterUpdate ${created.id} renamed-harbour.jpg`,
        'media.update',
        `beforeUpdate ${created.id} {"name":"icon.png"} image/png`,
        `afterUpdate ${created.id} renamed-icon.png`,
        'media.update',
        `beforeDelete ${created.id} renamed-icon.png`,
        `afterDelete ${created.id}`,
        'media.delete renamed-icon.png',
      ]);
    });

    it('keeps a file whose beforeDelete refuses, and its objects', async function () {
      const [created] = (await upload()).body as { id: number }[];
      const objects = api.objects();
      fileHooks.beforeDelete = () => {
        throw new ValidationError('kept');
      };
      const refused = await api.as('editor', api.request.delete(`/api/upload/files/${created.id}`));
      expect(refused.status).to.equal(400);
      expect((await api.as('editor', api.request.get(`/api/upload/files/${created.id}`))).status).to.equal(200);
      expect(api.objects()).to.deep.equal(objects);
    });

    it('never fails the request for an after hook or a listener that throws: the failure goes to the logger', async function () {
      fileHooks.afterCreate = () => {
        throw new Error('after hook broke');
      };
      api.api.events.on('media.create', () => {
        throw new Error('listener broke');
      });
      const response = await upload();
      expect(response.status).to.equal(200);
      expect(hookFailures().map((record) => (record.err as { message: string }).message)).to.deep.equal(['after hook broke', 'listener broke']);
    });

    it('runs the file hooks of files sent with an entry, in its transaction, after its own after hooks', async function () {
      allHooks.afterCreate = (event: LifecycleEvent) => void heard.push(`afterCreate ${event.model.uid}`);
      fileHooks.beforeCreate = (event) => void heard.push(`beforeCreate ${event.model.uid} ${event.data!.name as string}`);
      const articles = Number(((await api.api.knex('articles').count({ count: '*' }).first()) as { count: number | string }).count);
      const created = await api.as('editor', api.request.post('/api/articles')).field('data', JSON.stringify({ title: 'With a photo' })).attach('files.gallery', testFile('photo.jpg'), 'entry-photo.jpg');
      expect(created.status).to.equal(200);
      expect(heard).to.deep.equal([`beforeCreate ${FILE_UID} entry-photo.jpg`, 'afterCreate api::article.article', `afterCreate ${FILE_UID}`]);

      // A file refused by its hook refuses the entry written with it.
      fileHooks.beforeCreate = () => {
        throw new ValidationError('no photos today');
      };
      const refused = await api.as('editor', api.request.post('/api/articles')).field('data', JSON.stringify({ title: 'Refused' })).attach('files.gallery', testFile('photo.jpg'), 'entry-photo.jpg');
      expect(refused.status).to.equal(400);
      expect(Number(((await api.api.knex('articles').count({ count: '*' }).first()) as { count: number | string }).count)).to.equal(articles + 1);
    });

    it('keeps a name in its composed form, sent with the file, in fileInfo, or given by a hook', async function () {
      const decomposed = 'cafe\u0301.jpg';
      const sent = (await upload('photo.jpg', { name: decomposed })).body as { id: number; name: string }[];
      expect(sent[0].name).to.equal(decomposed.normalize());
      const replaced = await api.as('editor', api.request.post(`/api/upload?id=${sent[0].id}`)).field('fileInfo', JSON.stringify({ name: decomposed })).attach('files', testFile('icon.png'), 'icon.png');
      expect(replaced.body.name).to.equal(decomposed.normalize());
      fileHooks.beforeCreate = (event) => void (event.data!.name = decomposed);
      expect(((await upload()).body as { name: string }[])[0].name).to.equal(decomposed.normalize());
    });

    it("runs them for host code's uploads too, as role ''", async function () {
      fileHooks.beforeCreate = (event) => void (event.data!.alternativeText = `by '${event.role}'`);
      const file = await api.api.media.upload(testFile('icon.png'), { filename: 'logo.png' });
      expect(file.alternativeText).to.equal("by ''");
    });
  });
}

describe('file hooks of a write run again after a conflict', () => {
  it('run the after hooks of its last run only, with that run\'s ids', async () => {
    const heard: string[] = [];
    const lifecycles = new Lifecycles({ [FILE_UID]: { afterCreate: (event) => void heard.push(`afterCreate ${event.id}`) } });
    const registry = await loadSchema(repoRoot);
    const hooks = FileHooks.of(lifecycles, registry.file, { role: 'editor', state: {}, report: (error) => heard.push(String(error)), read: async (id) => ({ id }) })!;
    const [firstRun, secondRun] = [{}, {}] as RowStore[];
    hooks.wrote(firstRun, 'create', 7);
    hooks.wrote(secondRun, 'create', 8);
    hooks.wrote(secondRun, 'create', 9);
    await hooks.afterCommit();
    expect(heard).to.deep.equal(['afterCreate 8', 'afterCreate 9']);
  });
});
