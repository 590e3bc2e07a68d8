/**
 * The explorer in headless Chromium: pick a type, build a two-level populate by clicking, run it,
 * and read the response and the SQL the page shows. Skipped, saying so, where Chromium is absent
 * (CI installs Debian's `chromium`; CHROMIUM_PATH names another binary).
 */
import { expect } from 'chai';
import { existsSync } from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
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
      before(async () => {
        served = await serveFixture(kind.client, 'small', { explorer: true });
        server = served.app.listen(0, '127.0.0.1');
        await new Promise((resolve) => server.once('listening', resolve));
        base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
        page = await browser.newPage();
      });
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
        expect(await page.textContent('#sql')).to.match(/-- statement\nSELECT/);
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
