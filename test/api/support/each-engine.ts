/**
 * The frame of every all-types suite: the same tests once per engine, each run on its own copy
 * of the all-types app, served before the first test and closed after the last.
 */
import { testDatabaseKinds } from '../../support/databases.js';
import { serveAllTypes, type AllTypesApp } from './all-types.js';

/**
 * `describe(`${title} (${engine})`)` for each engine under test. `app()` is the served app: it
 * exists only while tests and hooks run, so the suite body reads it inside them.
 */
export function describeEachEngine(title: string, suite: (app: () => AllTypesApp) => void): void {
  for (const kind of testDatabaseKinds()) {
    describe(`${title} (${kind.name})`, function () {
      let served: AllTypesApp | undefined;

      before(async function () {
        served = await serveAllTypes(kind.client);
      });

      after(async function () {
        await served?.close();
      });

      suite(() => {
        if (!served) throw new Error(`the all-types app (${kind.name}) is read before it is served`);
        return served;
      });
    });
  }
}
