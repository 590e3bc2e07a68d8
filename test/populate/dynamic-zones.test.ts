/**
 * Dynamic zones: shared options for every component, or `on` per component — unlisted
 * components are dropped; dot paths apply to the components that have the attribute.
 */
import { expect } from 'chai';
import { testDatabaseKinds } from '../support/databases.js';
import { serveFixture, type ServedApi } from '../support/api.js';

interface Block {
  id: number;
  __component: string;
  [key: string]: unknown;
}

for (const kind of testDatabaseKinds()) {
  describe(`dynamic zones (${kind.name})`, function () {
    let served: ServedApi;
    const blocksOf = async (query: string): Promise<Map<number, Block[]>> => {
      const response = await served.request.get(`/api/articles?fields[0]=title&pagination[pageSize]=100&${query}`);
      expect(response.status, response.text).to.equal(200);
      return new Map(response.body.data.map((entry: { id: number; attributes: { blocks: Block[] } }) => [entry.id, entry.attributes.blocks]));
    };
    let all: Map<number, Block[]>;
    before(async function () {
      this.timeout(120_000);
      served = await serveFixture(kind.client);
      all = await blocksOf('populate[blocks]=true');
    });
    after(() => served?.close());

    it('`on` keeps only the listed components, in zone order', async () => {
      const only = await blocksOf('populate[blocks][on][shared.slider]=true&populate[blocks][on][shared.quote]=true');
      let kept = 0;
      for (const [id, blocks] of all) {
        const expected = blocks.filter((block) => ['shared.slider', 'shared.quote'].includes(block.__component));
        expect(only.get(id)!.map((block) => [block.__component, block.id])).to.deep.equal(expected.map((block) => [block.__component, block.id]));
        kept += expected.length;
      }
      expect(kept).to.be.greaterThan(0);
    });

    it('each component under `on` has its own fields and populate', async () => {
      const blocks = await blocksOf('populate[blocks][on][shared.quote][fields][0]=title&populate[blocks][on][shared.quote][populate][category][fields][0]=name&populate[blocks][on][shared.slider][populate][files][fields][0]=name');
      let quotes = 0;
      for (const list of blocks.values()) {
        for (const block of list) {
          if (block.__component === 'shared.quote') {
            quotes += 1;
            expect(Object.keys(block)).to.deep.equal(['id', '__component', 'title', 'category']);
          } else {
            expect(block.__component).to.equal('shared.slider');
            expect(Object.keys(block)).to.deep.equal(['id', '__component', 'title', 'files']);
          }
        }
      }
      expect(quotes).to.be.greaterThan(0);
    });

    it('filters under `on` drop the entries of that component that do not match', async () => {
      const filtered = await blocksOf('populate[blocks][on][shared.rich-text][filters][body][$contains]=Quis&populate[blocks][on][shared.media]=true');
      for (const [id, blocks] of all) {
        const expected = blocks.filter(
          (block) => block.__component === 'shared.media' || (block.__component === 'shared.rich-text' && String(block.body).includes('Quis')),
        );
        expect(filtered.get(id)!.map((block) => block.id + block.__component)).to.deep.equal(expected.map((block) => block.id + block.__component));
      }
    });

    it('shared populate=* populates each component with its own attributes', async () => {
      const blocks = await blocksOf('populate[blocks][populate]=*');
      for (const list of blocks.values()) {
        for (const block of list) {
          if (block.__component === 'shared.media') expect(block).to.have.property('file');
          if (block.__component === 'shared.slider') expect(block).to.have.property('files');
          if (block.__component === 'shared.quote') expect(block).to.have.property('category');
          if (block.__component === 'shared.rich-text') expect(Object.keys(block)).to.deep.equal(['id', '__component', 'body']);
        }
      }
    });

    it('a dot path into the zone applies to the components that have the attribute', async () => {
      const blocks = await blocksOf('populate=blocks.files');
      for (const list of blocks.values()) {
        for (const block of list) expect('files' in block).to.equal(block.__component === 'shared.slider');
      }
    });

    it('shared fields must exist in every component of the zone', async () => {
      const response = await served.request.get('/api/articles?populate[blocks][fields][0]=title');
      expect(response.status).to.equal(400);
      expect(response.body.error.details.path).to.equal('populate.blocks.fields[0]');
    });

    it('a per-parent limit slices each entry\'s zone', async () => {
      const limited = await blocksOf('populate[blocks][limit]=2&populate[blocks][start]=1');
      for (const [id, blocks] of all) expect(limited.get(id)).to.deep.equal(blocks.slice(1, 3));
    });

    it('count gives the number of entries in the zone', async () => {
      const counted = await blocksOf('populate[blocks][count]=true');
      for (const [id, blocks] of all) expect(counted.get(id)).to.deep.equal({ count: blocks.length });
    });
  });
}
