/**
 * The explorer in headless Chromium: pick a type, build a two-level populate by clicking, run it,
 * and read the response and the SQL the page shows; a token, a zone's components and filters
 * through relations and components. Skipped, saying so, where Chromium is absent (CI installs
 * Debian's `chromium`; CHROMIUM_PATH names another binary). The layout test leaves a screenshot
 * in the OS temp dir and prints its path, for a person to look at.
 */
import { expect } from 'chai';
import { existsSync } from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { pino } from 'pino';
import { chromium, type Browser, type Page } from 'playwright-core';
import { serveFixture, type ServedApi } from '../support/api.js';
import { testDatabaseKinds } from '../support/databases.js';

const chromiumPath = process.env.CHROMIUM_PATH ?? ['/usr/bin/chromium', '/usr/bin/chromium-browser'].find((path) => existsSync(path));

describe('explorer', function () {
  let browser: Browser;
  before(async function () {
    if (!chromiumPath) {
      console.log('    (skipped: no Chromium found; install Debian\'s chromium or set CHROMIUM_PATH)');
      this.skip();
    }
    browser = await chromium.launch({ executablePath: chromiumPath, args: ['--no-sandbox'] });
  });
  after(async () => {
    await browser?.close();
  });

  for (const kind of testDatabaseKinds()) {
    describe(kind.name, () => {
      let served: ServedApi;
      let server: Server;
      let base: string;
      let page: Page;
      const logged: string[] = [];
      before(async () => {
        const destination = new Writable({
          write(chunk: Buffer, _encoding, done) {
            logged.push(chunk.toString('utf8'));
            done();
          },
        });
        served = await serveFixture(kind.client, 'small', { explorer: true, logger: pino({ base: null }, destination) });
        server = served.app.listen(0, '127.0.0.1');
        await new Promise((resolve) => server.once('listening', resolve));
        base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
        page = await browser.newPage({ viewport: { width: 1280, height: 720 } });
        // A missing control fails the test in seconds rather than at mocha's timeout.
        page.setDefaultTimeout(5000);
      });

      async function open(): Promise<void> {
        await page.goto(`${base}/api/_explorer`);
        await page.waitForSelector('body[data-ready="true"]');
      }

      async function runAndRead(): Promise<{ query: string; shown: { data: Record<string, any>[] } }> {
        const ran = Number((await page.getAttribute('body', 'data-ran')) ?? 0);
        await page.click('#run');
        await page.waitForSelector(`body[data-ran="${ran + 1}"]`);
        return { query: (await page.textContent('#query'))!, shown: JSON.parse((await page.textContent('#response'))!) };
      }
      after(async () => {
        await page?.close();
        await new Promise((resolve) => server.close(resolve));
        await served.close();
      });

      it('builds a two-level populate by clicking and shows the response, its timing and its SQL', async () => {
        await page.goto(`${base}/api/_explorer`);
        await page.waitForSelector('body[data-ready="true"]');
        await page.selectOption('#type', 'api::category.category');
        await page.check('#tree > .fields input[data-field="name"]');
        await page.check('#tree input[data-populate="articles"]');
        await page.check('[data-path="articles"] > .fields input[data-field="title"]');
        await page.check('[data-path="articles"] input[data-populate="category"]');
        await page.check('[data-path="articles.category"] > .fields input[data-field="slug"]');
        await page.fill('#page-size', '2');
        await page.dispatchEvent('#page-size', 'input');
        const query = await page.textContent('#query');
        expect(query).to.equal('/api/categories?fields[0]=name&populate[articles][fields][0]=title&populate[articles][populate][category][fields][0]=slug&pagination[page]=1&pagination[pageSize]=2');
        await page.click('#run');
        await page.waitForSelector('body[data-ran="1"]');
        expect(await page.textContent('#status')).to.equal('200');
        const shown = JSON.parse((await page.textContent('#response'))!);
        const expected = await served.request.get(query!);
        expect(shown).to.deep.equal(expected.body);
        expect(shown.data).to.have.length(2);
        const article = shown.data[0].attributes.articles.data[0];
        expect(Object.keys(article.attributes)).to.deep.equal(['title', 'category']);
        expect(article.attributes.category.data.attributes).to.have.keys(['slug']);
        expect(await page.textContent('#timing')).to.match(/statements=1/); // the body, with the page and its count inside
        // On SQLite the list's count comes first, in a CTE the body reads (sql/compile-body.ts).
        expect(await page.textContent('#sql')).to.match(/-- statement\n(SELECT|WITH "counted" AS MATERIALIZED \(SELECT count\(\*\))/);
      });

      it('offers only what the role may read', async () => {
        await page.goto(`${base}/api/_explorer`);
        await page.waitForSelector('body[data-ready="true"]');
        const options = await page.$$eval('#type option', (items) => items.map((item) => item.getAttribute('value')));
        expect(options).to.include('api::article.article').and.not.include('api::restaurant.restaurant');
        await page.selectOption('#type', 'api::article.article');
        expect(await page.$$('#tree > .fields input[data-field="internalNotes"]')).to.have.length(0);
        expect(await page.$$('#tree input[data-populate="relatedRestaurants"]')).to.have.length(0);
      });

      it('keeps the response readable when the SQL is long, the SQL scrolling instead', async () => {
        await open();
        await page.selectOption('#type', 'api::article.article');
        for (const name of ['category', 'categories', 'author']) await page.check(`#tree input[data-populate="${name}"]`);
        const { shown } = await runAndRead();
        expect(await page.textContent('#status')).to.equal('200');
        expect(shown.data).to.have.length(10);
        expect(await page.isVisible('#response')).to.equal(true);
        const response = (await page.locator('#response').boundingBox())!;
        expect(response.height).to.be.at.least(200);
        expect(response.y + 200).to.be.at.most(720); // its first 200 px on screen, not pushed below
        const sql = await page.$eval('#sql', (item) => ({ height: item.clientHeight, scrolled: item.scrollHeight }));
        expect(sql.height).to.be.greaterThan(0);
        expect(sql.scrolled).to.be.greaterThan(sql.height); // the long SQL scrolls in its own box
        const screenshot = join(tmpdir(), `koa-content-api-explorer-${kind.name}.png`);
        await page.screenshot({ path: screenshot });
        console.log(`      (screenshot: ${screenshot})`);
      });

      it('reads with the token given, the tree then offering what its role may read', async () => {
        await open();
        const sent: { url: string; authorization: string | undefined }[] = [];
        const consoled: string[] = [];
        page.on('request', (request) => sent.push({ url: request.url(), authorization: request.headers().authorization }));
        page.on('console', (message) => consoled.push(message.text()));
        const typesOffered = () => page.$$eval('#type option', (items) => items.map((item) => item.getAttribute('value')));
        expect(await typesOffered()).to.not.include('api::restaurant.restaurant');
        await page.fill('#token', 'demo-editor-token');
        await page.press('#token', 'Enter');
        await page.waitForSelector('#type option[value="api::restaurant.restaurant"]', { state: 'attached' });
        expect(await typesOffered()).to.include('plugin::users-permissions.role');
        await page.selectOption('#type', 'api::article.article');
        expect(await page.$$('#tree input[data-populate="relatedRestaurants"]')).to.have.length(1);
        await page.selectOption('#type', 'api::restaurant.restaurant');
        const { query, shown } = await runAndRead();
        expect(query).to.not.include('demo-editor-token');
        expect(await page.textContent('#status')).to.equal('200'); // the public role may not list restaurants
        const expected = await served.request.get(query).set('Authorization', 'Bearer demo-editor-token');
        expect(shown).to.deep.equal(expected.body);
        expect(shown.data).to.not.be.empty;
        expect(await page.textContent('#sql')).to.match(/SELECT/); // explained with the token's role too
        // Every request after the token was entered (the schema, the run, its SQL) carried it.
        for (const route of ['/api/_explorer/schema', '/api/restaurants', '/api/_explorer/explain']) {
          const requests = sent.filter((request) => new URL(request.url).pathname === route);
          expect(requests, route).to.not.be.empty;
          for (const request of requests) expect(request.authorization, route).to.equal('Bearer demo-editor-token');
        }
        expect(sent.map((request) => request.url).join(' ')).to.not.include('demo-editor-token');
        expect(consoled.join('\n')).to.not.include('demo-editor-token');
        expect(logged).to.not.be.empty;
        expect(logged.join('')).to.not.include('demo-editor-token');
      });

      it('opens a zone into its components, each with its fields and populates, as `on` populates', async () => {
        await open();
        await page.selectOption('#type', 'api::article.article');
        await page.check('#tree > .fields input[data-field="title"]');
        await page.check('#tree input[data-populate="blocks"]');
        await page.check('[data-path="blocks"] input[data-component="shared.quote"]');
        await page.check('[data-path="blocks.on.shared.quote"] > .fields input[data-field="title"]');
        await page.check('[data-path="blocks.on.shared.quote"] input[data-populate="category"]');
        await page.check('[data-path="blocks.on.shared.quote.category"] > .fields input[data-field="name"]');
        const { query, shown } = await runAndRead();
        expect(query).to.equal('/api/articles?fields[0]=title&populate[blocks][on][shared.quote][fields][0]=title&populate[blocks][on][shared.quote][populate][category][fields][0]=name&pagination[page]=1&pagination[pageSize]=10');
        expect(await page.textContent('#status')).to.equal('200');
        expect(shown).to.deep.equal((await served.request.get(query)).body);
        const blocks = shown.data.flatMap((article) => article.attributes.blocks);
        expect(blocks).to.not.be.empty;
        for (const block of blocks) {
          expect(block.__component).to.equal('shared.quote');
          expect(block).to.have.keys(['id', '__component', 'title', 'category']);
        }
      });

      it('filters through relations and components at any depth', async () => {
        await open();
        await page.selectOption('#type', 'api::article.article');
        await page.check('#tree input[data-populate="category"]');
        await page.check('#tree input[data-populate="seo"]');
        for (const [index, path, operator, value] of [[0, ['category', 'name'], '$eq', 'Food'], [1, ['seo', 'metaTitle'], '$notNull', 'true']] as const) {
          await page.click('#add-filter');
          const row = page.locator('#filters .filter-row').nth(index);
          for (const [level, name] of path.entries()) await row.locator(`select[data-level="${level}"]`).selectOption(name);
          await row.locator('select.filter-operator').selectOption(operator);
          await row.locator('input.filter-value').fill(value);
        }
        const { query, shown } = await runAndRead();
        expect(query).to.equal('/api/articles?populate[category]=true&populate[seo]=true&filters[category][name][$eq]=Food&filters[seo][metaTitle][$notNull]=true&pagination[page]=1&pagination[pageSize]=10');
        expect(await page.textContent('#status')).to.equal('200');
        expect(shown).to.deep.equal((await served.request.get(query)).body);
        expect(shown.data).to.not.be.empty;
        for (const article of shown.data) {
          expect(article.attributes.category.data.attributes.name).to.equal('Food');
          expect(article.attributes.seo.metaTitle).to.be.a('string');
        }
      });
    });
  }

  it('is not served unless enabled', async () => {
    const served = await serveFixture('sqlite');
    try {
      expect((await served.request.get('/api/_explorer')).status).to.equal(404);
    } finally {
      await served.close();
    }
  });
});
