/**
 * The write side's canaries, generated from the schema of test/rules/write-app: for each caller,
 * each type it may write and each of the type's relations and media, every form of write (an id,
 * `{ id }`, a list, connect with and without a position, set, disconnect, a position anchored on
 * it), and every path naming a row by id (update, delete, localization, multipart files, an
 * upload attached to it, a file's new information, replacement and deletion) is sent twice: once
 * naming a row the caller's rules hide, once naming an id that exists nowhere. The two answers
 * must be the same; a refused write changes no table, and one that succeeds changes no row that
 * was there but for the written entry's `updatedAt`.
 */
import { expect } from 'chai';
import type Koa from 'koa';
import supertest from 'supertest';
import { join } from 'node:path';
import { createTestApi, testDatabases, type TestApi } from '../../plugin/testing/index.js';
import type { Model, Registry } from '../../plugin/schema/registry.js';
import { repoRoot } from '../support/api.js';
import { appWithMembers } from '../support/member-app.js';
import { answerOf, changedRows, NOWHERE, snapshot } from '../support/write-probes.js';

const APP = join(repoRoot, 'test/rules/write-app');
const NOW = Date.parse('2026-06-01T00:00:00.000Z');
const CALLERS: Record<string, Record<string, string>> = {
  alice: { 'x-member': 'alice' },
  bob: { 'x-member': 'bob' },
  titler: { Authorization: 'Bearer write-rules-titler-token' },
};

/** One write naming `target`, and what it is. */
interface Probe {
  readonly name: string;
  readonly send: (request: supertest.Agent, target: number) => supertest.Test;
  /** The uid of the row it names. */
  readonly names: string;
}

/** The values of a relation or media attribute naming `target`, in each form a body may give. */
function valueForms(toMany: boolean, media: boolean): [string, (target: number, other: number) => unknown][] {
  if (media) return [['an id', (target) => (toMany ? [target] : target)], ['{ id }', (target) => (toMany ? [{ id: target }] : { id: target })]];
  const forms: [string, (target: number, other: number) => unknown][] = [
    ['an id', (target) => (toMany ? [target] : target)],
    ['{ id }', (target) => ({ id: target })],
    ['connect', (target) => ({ connect: [target] })],
    ['set', (target) => ({ set: [target] })],
    ['disconnect', (target) => ({ disconnect: [target] })],
  ];
  if (toMany) {
    forms.push(['connect at the start', (target) => ({ connect: [{ id: target, position: { start: true } }] })]);
    forms.push(['a position after it', (target, other) => ({ connect: [{ id: other, position: { after: target } }] })]);
  }
  return forms;
}

/** Every write form of the schema, for a caller whose own entries of each type are `own`. */
function probesOf(registry: Registry, own: (model: Model) => number | null): Probe[] {
  const probes: Probe[] = [];
  const routeOf = (model: Model) => `/api/${model.kind === 'singleType' ? model.singularName : model.pluralName}`;
  for (const model of registry.contentTypes) {
    const route = routeOf(model);
    const entry = own(model);
    type Write = [string, (request: supertest.Agent, data: Record<string, unknown>) => supertest.Test];
    const writes: Write[] = model.kind === 'singleType' ? [['a single type PUT', (request, data) => request.put(route).send({ data })]] : [['a create', (request, data) => request.post(route).send({ data })]];
    if (model.kind === 'collectionType' && entry !== null) writes.push(['an update', (request, data) => request.put(`${route}/${entry}`).send({ data })]);
    for (const attribute of model.attributes.values()) {
      if ((attribute.kind !== 'relation' && attribute.kind !== 'media') || attribute.name === 'localizations' && !model.localized) continue;
      const target = attribute.kind === 'media' ? registry.file.uid : attribute.target;
      const other = own(attribute.kind === 'media' ? registry.file : registry.models.get(attribute.target)!) ?? NOWHERE;
      for (const [form, value] of valueForms(attribute.kind === 'media' ? attribute.multiple : attribute.toMany, attribute.kind === 'media')) {
        for (const [write, send] of writes) {
          // A create that disconnects succeeds either way, making two entries that differ by id.
          if (write === 'a create' && form === 'disconnect') continue;
          probes.push({ name: `${model.singularName}.${attribute.name}: ${form}, in ${write}`, names: target, send: (request, id) => send(request, { [attribute.name]: value(id, other) }) });
        }
      }
      if (attribute.kind === 'media' && model.kind === 'collectionType') {
        probes.push({
          name: `an upload attached to ${model.singularName}.${attribute.name}`,
          names: model.uid,
          send: (request, id) => request.post('/api/upload').field('ref', model.uid).field('refId', String(id)).field('field', attribute.name).attach('files', Buffer.from('text'), 'a.txt'),
        });
      }
    }
    if (model.kind !== 'collectionType') continue;
    probes.push({ name: `an update of a ${model.singularName}`, names: model.uid, send: (request, id) => request.put(`${route}/${id}`).send({ data: {} }) });
    probes.push({ name: `a delete of a ${model.singularName}`, names: model.uid, send: (request, id) => request.delete(`${route}/${id}`) });
    const media = [...model.attributes.values()].find((attribute) => attribute.kind === 'media');
    if (media) probes.push({ name: `a multipart update of a ${model.singularName} with files`, names: model.uid, send: (request, id) => request.put(`${route}/${id}`).field('data', '{}').attach(`files.${media.name}`, Buffer.from('text'), 'a.txt') });
    if (model.localized) probes.push({ name: `a localization of a ${model.singularName}`, names: model.uid, send: (request, id) => request.post(`${route}/${id}/localizations`).send({ locale: 'de' }) });
  }
  probes.push({ name: "a file's new information", names: registry.file.uid, send: (request, id) => request.post(`/api/upload?id=${id}`).field('fileInfo', JSON.stringify({ caption: 'x' })) });
  probes.push({ name: "a file's replacement", names: registry.file.uid, send: (request, id) => request.post(`/api/upload?id=${id}`).attach('files', Buffer.from('<html></html>'), 'a.html') });
  probes.push({ name: "a file's deletion", names: registry.file.uid, send: (request, id) => request.delete(`/api/upload/files/${id}`) });
  return probes;
}

for (const database of testDatabases()) {
  describe(`write canaries generated from the schema (${database})`, () => {
    let kit: TestApi;
    let app: Koa;

    before(async () => {
      kit = await createTestApi({ root: APP, data: join(APP, 'data.yaml'), database, locales: ['en', 'fr', 'de'], now: () => NOW });
      const id = (type: string, name: string) => kit.ids.get(`api::${type}.${type}`)!.get(name)!;
      const members: Record<string, Record<string, unknown>> = { alice: { id: id('member', 'alice'), role: 'author' }, bob: { id: id('member', 'bob'), role: 'author' } };
      app = appWithMembers(kit.api, members);
    });
    after(() => kit?.close());

    for (const caller of Object.keys(CALLERS)) {
      it(`answers ${caller}'s writes naming a hidden row as writes naming none, and changes nothing`, async () => {
        const registry = kit.api.registry;
        const request = supertest.agent(app.callback()).set(CALLERS[caller]!);
        // What the caller sees of each type, asked of the API itself; the rest of the table is hidden from it.
        const visible = new Map<string, number[]>();
        const hidden = new Map<string, number[]>();
        for (const model of [...registry.contentTypes.filter((type) => type.kind === 'collectionType'), registry.file]) {
          const all = ((await kit.knex(model.tableName).select('id')) as { id: number | bigint }[]).map((row) => Number(row.id));
          const listed = model === registry.file ? await request.get('/api/upload/files') : await request.get(`/api/${model.pluralName}?pagination[pageSize]=100&locale=all`);
          const seen = listed.status === 200 ? ((model === registry.file ? listed.body : listed.body.data) as { id: number }[]).map((entry) => entry.id) : [];
          visible.set(model.uid, seen);
          // Two hidden rows of each type are enough: the data file's, before the writes of other callers added more.
          hidden.set(model.uid, all.filter((id) => !seen.includes(id)).sort((a, b) => a - b).slice(0, 2));
        }
        const probes = probesOf(registry, (model) => visible.get(model.uid)?.[0] ?? null);
        let pairs = 0;
        let before = await snapshot(kit.knex);
        for (const probe of probes) {
          for (const target of hidden.get(probe.names) ?? []) {
            const [seen, missing] = [answerOf(await probe.send(request, target), target), answerOf(await probe.send(request, NOWHERE), NOWHERE)];
            const label = `${caller}: ${probe.name} (#${target})`;
            expect(seen, label).to.deep.equal(missing);
            expect(seen.status, label).to.be.below(500);
            const after = await snapshot(kit.knex);
            // A refused write changes nothing; one that succeeds (a disconnect of what is not linked, a value a rule forces) changes no row that was there but its own time.
            if (seen.status === 200) expect(changedRows(before, after), label).to.deep.equal([]);
            else expect(after, label).to.deep.equal(before);
            before = after;
            pairs += 1;
          }
        }
        console.log(`      ${pairs} pairs of writes`);
        expect(pairs, 'pairs sent').to.be.greaterThan(caller === 'titler' ? 0 : 50);
      });
    }
  });
}
