/**
 * An app's own suite for its schema, written with the testing kit: a fresh database per engine,
 * filled from data.yaml, and requests against the API. (Paths are relative to the app's folder,
 * where `npm test` runs.)
 */
import { expect } from 'chai';
import { createTestApi, testDatabases, type TestApi } from 'koa-content-api/testing';

const root = 'examples/recipes';

for (const database of testDatabases()) {
  describe(`recipes app (${database})`, () => {
    let api: TestApi;
    before(async () => {
      api = await createTestApi({ root, data: `${root}/test/data.yaml`, database });
    });
    after(() => api.close());

    it('lists published recipes of the default locale', async () => {
      const response = await api.request.get('/api/recipes?fields[0]=title');
      expect(response.status).to.equal(200);
      expect(response.body.data.map((entry: { attributes: { title: string } }) => entry.attributes.title)).to.deep.equal(['Tomato soup']);
      expect(response.body.meta.pagination.total).to.equal(1);
    });

    it('populates the chef, the photo, the ingredients and the steps in order', async () => {
      const id = api.ids.get('api::recipe.recipe')!.get('soup')!;
      const response = await api.request.get(`/api/recipes/${id}?populate[chef][fields][0]=name&populate[photo][fields][0]=url&populate[ingredients]=true&populate[steps][populate]=*`);
      const recipe = response.body.data.attributes;
      expect(recipe.chef.data.attributes).to.deep.equal({ name: 'Ana' });
      expect(recipe.photo.data.attributes).to.deep.equal({ url: '/uploads/soup.jpg' });
      expect(recipe.ingredients.map((item: { name: string; grams: number }) => [item.name, item.grams])).to.deep.equal([['tomato', 800], ['onion', 150]]);
      expect(recipe.steps.map((step: { __component: string }) => step.__component)).to.deep.equal(['recipe.step', 'recipe.tip', 'recipe.step']);
      expect(recipe.steps[1].chef.data.attributes.name).to.equal('Ben');
      expect(recipe).not.to.have.property('secret');
    });

    it('links localizations both ways', async () => {
      const response = await api.request.get('/api/recipes?locale=all&fields[0]=locale&populate[localizations][fields][0]=title&sort=locale');
      const byLocale = Object.fromEntries(response.body.data.map((entry: { attributes: { locale: string; localizations: { data: { attributes: { title: string } }[] } } }) => [entry.attributes.locale, entry.attributes.localizations.data.map((other) => other.attributes.title)]));
      expect(byLocale).to.deep.equal({ en: ['Soupe à la tomate'], fr: ['Tomato soup'] });
    });

    it('keeps drafts for roles that may preview', async () => {
      expect((await api.request.get('/api/recipes?publicationState=preview')).status).to.equal(403);
      const chef = await api.request.get(`/api/chefs/${api.ids.get('api::chef.chef')!.get('ben')!}?populate[recipes][fields][0]=title`);
      expect(chef.body.data.attributes.recipes.data).to.deep.equal([]);
    });

    it('refuses a data file holding a value the API would refuse, naming its place', async () => {
      const error = await createTestApi({ root, database, data: { file: 'bad.yaml', text: 'recipe:\n  soup: { title: Soup, minutes: four }\n' } }).then(
        (unexpected) => unexpected.close(),
        (caught: unknown) => caught,
      );
      expect(String(error)).to.match(/^SchemaError: 1 schema problem:\nbad\.yaml:2:33 recipe\.soup\.minutes: minutes must be a `number` type/);
    });

    it('reads the same rows through the models', async () => {
      const recipes = await api.models.model('api::recipe.recipe').query().withGraphFetched('chef').orderBy('id');
      expect(recipes.map((recipe) => (recipe as unknown as { chef: { name: string } }).chef.name)).to.deep.equal(['Ana', 'Ana', 'Ben']);
    });
  });
}
