/**
 * The testing kit's data file naming local files for media (`cover: { file: ./a.jpg }`): each is
 * uploaded through the media library (type from the content, image formats), attached to its
 * entry — in components and zones too — into a folder of the test's own; bad values are reported
 * with file, line and column before anything is written.
 */
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'chai';
import { createTestApi, parseTestData } from '../../plugin/testing/index.js';
import { SchemaError } from '../../plugin/schema/problems.js';
import { loadSchema } from '../../plugin/schema/load.js';
import { repoRoot } from '../support/api.js';
import { testDatabaseKinds } from '../support/databases.js';

/** A data file beside test/uploads/files: the paths are relative to it. */
const DATA_FILE = join(repoRoot, 'test', 'uploads', 'data.yaml');

const DATA = `
file:
  listed: { name: listed.txt, url: /uploads/listed.txt, mime: text/plain, ext: .txt, hash: listed, size: 1 }
article:
  hello:
    title: Hello
    headerImage: { file: ./files/photo.jpg, alternativeText: The harbour }
    gallery: [listed, { file: files/icon.png }, { file: ./files/notes.txt, caption: Notes }]
    seo: { metaTitle: Hi, metaImage: { file: ./files/diagram.png } }
    blocks: [{ __component: shared.media, file: { file: ./files/report.pdf } }]
`;

for (const kind of testDatabaseKinds()) {
  describe(`testing kit data file: files uploaded for media (${kind.name})`, function () {
    this.timeout(60_000);

    it('uploads each file as the media library does and attaches it where the data says', async function () {
      const api = await createTestApi({ root: repoRoot, database: kind.client, data: { file: DATA_FILE, text: DATA }, permissionsFile: join(repoRoot, 'permissions.yaml') });
      let folder = '';
      try {
        const id = api.ids.get('api::article.article')!.get('hello')!;
        const query = 'populate[headerImage]=*&populate[gallery][fields][0]=name&populate[gallery][fields][1]=mime&populate[seo][populate][metaImage][fields][0]=name&populate[blocks][populate]=*&fields[0]=title';
        const response = await api.request.get(`/api/articles/${id}?${query}`);
        expect(response.status, JSON.stringify(response.body)).to.equal(200);
        const attributes = response.body.data.attributes;
        const header = attributes.headerImage.data.attributes;
        expect(header).to.include({ name: 'photo.jpg', alternativeText: 'The harbour', mime: 'image/jpeg', ext: '.jpg' });
        expect(Object.keys(header.formats).sort()).to.deep.equal(['large', 'medium', 'small', 'thumbnail']);
        expect(attributes.gallery.data.map((file: { attributes: { name: string } }) => file.attributes.name)).to.deep.equal(['listed.txt', 'icon.png', 'notes.txt']);
        // A type the content does not tell is the one its extension declares, as a browser's would be.
        expect(attributes.gallery.data.map((file: { attributes: { mime: string } }) => file.attributes.mime)).to.deep.equal(['text/plain', 'image/png', 'text/plain']);
        expect(attributes.seo.metaImage.data.attributes.name).to.equal('diagram.png');
        expect(attributes.blocks[0].file.data.attributes.name).to.equal('report.pdf');
        // Stored in a folder of the test's own, under the hashes the rows keep.
        const rows = (await api.knex('files').whereNot({ name: 'listed.txt' }).select('hash', 'ext')) as { hash: string; ext: string }[];
        const stored = rows.map((row) => `${row.hash}${row.ext}`);
        folder = join(repoRoot, 'public', 'uploads');
        expect(existsSync(folder) && readdirSync(folder).some((name) => stored.includes(name)), 'the app folder').to.equal(false);
      } finally {
        await api.close();
      }
    });

    it('refuses a file the attribute does not take, writing nothing', async function () {
      const text = 'article:\n  a: { title: A, seo: { metaTitle: M, metaImage: { file: ./files/report.pdf } } }\n';
      const error = await createTestApi({ root: repoRoot, database: kind.client, data: { file: DATA_FILE, text } }).then(
        (api) => api.close(),
        (caught: unknown) => caught,
      );
      expect((error as Error).message).to.match(/metaImage takes images; .*report\.pdf is application\/pdf/);
    });
  });
}

describe('testing kit data file: files to upload, checked', () => {
  it('reports a missing file, a bad key and a bad value with file, line and column', async () => {
    const registry = await loadSchema(repoRoot);
    const text = [
      'article:',
      '  a:',
      '    title: A',
      '    headerImage: { file: ./files/nope.jpg }',
      '    gallery: [{ file: ./files/icon.png, colour: red }, { file: 3 }]',
      '',
    ].join('\n');
    let error: unknown;
    try {
      parseTestData(text, DATA_FILE, registry);
    } catch (caught) {
      error = caught;
    }
    expect(error).to.be.instanceOf(SchemaError);
    const lines = (error as SchemaError).problems.map((problem) => `${problem.line}:${problem.column} ${problem.message}`);
    expect(lines).to.deep.equal([
      `4:18 no readable file at ${join(repoRoot, 'test', 'uploads', 'files', 'nope.jpg')}`,
      '5:15 a file to upload takes file, name, alternativeText, caption; not colour',
      '5:56 file must be the path of a local file, relative to the data file',
    ]);
  });
});
