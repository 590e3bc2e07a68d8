/**
 * Recordings kept as groups of cases (test/auth/recorded, test/accounts/recorded): `index.json`
 * lists the groups in order with their counts, each `<group>.json` holds `{ group, order, cases }`,
 * and every case has its `seq` in the whole run, which the replays follow.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

export interface GroupedIndex {
  readonly jwtSecret: string;
  readonly recordedAt: string;
  readonly total: number;
  readonly groups: readonly { readonly group: string; readonly file: string; readonly cases: number }[];
}

export function readGroupedIndex(dir: string): GroupedIndex {
  return JSON.parse(readFileSync(join(dir, 'index.json'), 'utf8')) as GroupedIndex;
}

/** Every case of `dir` in `seq` order, with its group; throws when the files disagree with index.json. */
export function readGroupedCases<T extends { readonly seq: number; readonly group: string }>(dir: string): T[] {
  const index = readGroupedIndex(dir);
  const cases: T[] = [];
  for (const { group, file, cases: count } of index.groups) {
    const parsed = JSON.parse(readFileSync(join(dir, file), 'utf8')) as { cases: Omit<T, 'group'>[] };
    if (parsed.cases.length !== count) throw new Error(`${file}: ${parsed.cases.length} cases, index.json says ${count}`);
    cases.push(...parsed.cases.map((recorded) => ({ ...recorded, group }) as T));
  }
  cases.sort((a, b) => a.seq - b.seq);
  if (cases.length !== index.total || cases.some((recorded, position) => recorded.seq !== position + 1)) throw new Error(`${dir}: seq numbers do not run 1…total`);
  return cases;
}
