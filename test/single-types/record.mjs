#!/usr/bin/env node
// Asks a running reference (Strapi 4.26.2) how it answers the single-type cases of
// cases.source.mjs, and writes the transcripts to recorded/<group>.json: the expectations of
// single-type-replay.test.ts. Run by hand, never by `npm test`, against a reference started fresh:
//
//   test/single-types/reference-app/serve.sh 4600 &      # the conformance app + homepage, promo and member
//   node test/single-types/record.mjs [--port 4600]
//
// The cases are sent in order (ids and states depend on every earlier case). Date-times the run
// itself produced are replaced by "<now>", as in test/writes/recorded/.
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { groups } from './cases.source.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const at = process.argv.indexOf('--port');
const port = at > 0 ? Number(process.argv[at + 1]) : 4600;
const base = `http://127.0.0.1:${port}`;
const out = join(here, 'recorded');

async function send({ method, path, body }) {
  const headers = { Accept: 'application/json', Authorization: 'Bearer writer-token' };
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  const response = await fetch(base + path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await response.text();
  return { status: response.status, response: text === '' ? null : JSON.parse(text) };
}

const ISO_DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;
const DAY = 24 * 60 * 60 * 1000;

function normalize(value, startedAt) {
  if (typeof value === 'string' && ISO_DATE_TIME.test(value)) return Math.abs(Date.parse(value) - startedAt) <= DAY ? '<now>' : value;
  if (Array.isArray(value)) return value.map((item) => normalize(item, startedAt));
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, normalize(item, startedAt)]));
  return value;
}

async function main() {
  const startedAt = Date.now();
  mkdirSync(out, { recursive: true });
  for (const { group, fixture, cases } of groups) {
    const recorded = [];
    for (const [index, { name, note, ...request }] of cases.entries()) {
      const answer = await send(request);
      recorded.push(normalize({ seq: index + 1, name, ...(note ? { note } : {}), request, ...answer }, startedAt));
      console.log(`${answer.status >= 500 ? '!' : ' '}${String(index + 1).padStart(3)} ${group} ${answer.status} ${name}`);
    }
    const file = { reference: 'Strapi 4.26.2', group, fixture, cases: recorded };
    writeFileSync(join(out, `${group}.json`), JSON.stringify(file, null, 2) + '\n');
  }
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
