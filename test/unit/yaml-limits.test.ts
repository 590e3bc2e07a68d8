/**
 * YAML files are parsed within limits (size, nesting, nodes, aliases): a file past one is a
 * problem with file, line and column, found by a linear scan before the `yaml` library builds
 * anything, so a bracket bomb costs milliseconds instead of seconds and hundreds of MB. Files
 * within the limits load as before, brackets and quotes in text included.
 */
import { expect } from 'chai';
import { performance } from 'node:perf_hooks';
import { parsePermissions } from '../../plugin/access/permissions.js';
import { loadSchema } from '../../plugin/schema/load.js';
import { SchemaError, type SchemaProblem } from '../../plugin/schema/problems.js';
import type { Registry } from '../../plugin/schema/registry.js';
import { exceededYamlLimit, MAX_YAML_DEPTH } from '../../plugin/schema/yaml-limits.js';
import { parseWebhooks } from '../../plugin/webhooks/config.js';
import { repoRoot } from '../support/api.js';

function refusal(parse: () => unknown): { problems: readonly SchemaProblem[]; ms: number } {
  const started = performance.now();
  try {
    parse();
  } catch (error) {
    if (error instanceof SchemaError) return { problems: error.problems, ms: performance.now() - started };
    throw error;
  }
  throw new Error('the file was accepted');
}

const BILLION_LAUGHS =
  'lol: &a0 [lol, lol, lol, lol, lol, lol, lol, lol, lol]\n' +
  Array.from({ length: 9 }, (_, level) => `l${level + 1}: &a${level + 1} [${Array(9).fill(`*a${level}`).join(', ')}]\n`).join('') +
  'roles: *a9\n';

describe('YAML limits', () => {
  let registry: Registry;
  before(async () => {
    registry = await loadSchema(repoRoot);
  });

  it('refuses a 400 KB bracket bomb in permissions.yaml within milliseconds, at its line and column', () => {
    const text = `# roles\nroles: ${'['.repeat(200_000)}${']'.repeat(200_000)}\n`;
    const { problems, ms } = refusal(() => parsePermissions(text, 'permissions.yaml', registry));
    expect(problems).to.deep.equal([
      { file: 'permissions.yaml', path: '', line: 2, column: 8 + MAX_YAML_DEPTH - 1, message: 'the YAML nests deeper than 64 levels (collections inside collections); at most 64 are read' },
    ]);
    // Seconds before the limits; a few ms after (the margin is for a busy machine).
    expect(ms).to.be.below(250);
  });

  it('refuses a shallow flood of nodes, a compact block bomb, and a file over 1 MiB', () => {
    const flood = refusal(() => parsePermissions(`roles: [${'[], '.repeat(100_000)}]\n`, 'permissions.yaml', registry));
    expect(flood.problems[0]!.message).to.equal('the YAML has more than 10000 nodes (lines, collections and their entries); at most 10000 are read');
    expect(flood.ms).to.be.below(250);
    const dashes = refusal(() => parsePermissions(`roles:\n${'- '.repeat(100_000)}x\n`, 'permissions.yaml', registry));
    expect(dashes.problems[0]).to.include({ line: 2, message: 'the YAML nests deeper than 64 levels (collections inside collections); at most 64 are read' });
    const large = refusal(() => parsePermissions(`roles: {}\n${'# a comment line\n'.repeat(70_000)}`, 'permissions.yaml', registry));
    expect(large.problems).to.deep.equal([{ file: 'permissions.yaml', path: '', line: 1, column: 1, message: 'the file is 1190010 bytes; at most 1048576 bytes (1 MiB) are read' }]);
  });

  it('refuses a "billion laughs" at its first alias, as a problem', () => {
    const { problems } = refusal(() => parsePermissions(BILLION_LAUGHS, 'permissions.yaml', registry));
    expect(problems).to.have.length(1);
    expect(problems[0]).to.include({ file: 'permissions.yaml', line: 2, column: 10 });
    expect(problems[0]!.message).to.match(/^aliases expand to too many nodes \(at most 100\)/);
  });

  it('applies to webhooks.yaml too', () => {
    const { problems } = refusal(() => parseWebhooks(`targets: ${'{a: '.repeat(1000)}1${'}'.repeat(1000)}\n`, 'webhooks.yaml', registry, {}));
    expect(problems[0]).to.include({ file: 'webhooks.yaml', line: 1, message: 'the YAML nests deeper than 64 levels (collections inside collections); at most 64 are read' });
  });

  it('still loads a normal file: aliases, and brackets or quotes in text, comments and block scalars', () => {
    const text = [
      'roles:',
      '  public: &readers',
      '    article: [find, findOne] # public [[[[[[ reads',
      '    category: ["find"]',
      '  authenticated: *readers',
      '# [[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[',
      '',
    ].join('\n');
    const permissions = parsePermissions(text, 'permissions.yaml', registry);
    expect(permissions.roles.size).to.equal(2);
    const deepText = ['a: |', `  ${'['.repeat(100)} it's`, `  '${'{'.repeat(100)}`, `b: "${'['.repeat(100)}"`, `c: '${'['.repeat(100)}'`, `d: Array${'['.repeat(100)}`, `e: it's ${'['.repeat(100)}`, ''].join('\n');
    expect(exceededYamlLimit(deepText)).to.equal(null);
  });

  it('is not fooled by quotes that are not quotes or a block scalar hiding nothing', () => {
    // A closing bracket inside a quoted scalar closes nothing.
    expect(exceededYamlLimit(`a: ${'[ "]", '.repeat(100)}`)).to.include({ offset: 3 + 7 * (MAX_YAML_DEPTH - 1) });
    // A lone quote in a block scalar or a plain scalar does not swallow what follows.
    expect(exceededYamlLimit(`a: |\n  '\nb: it's\nc: ${'['.repeat(100)}`)).to.not.equal(null);
  });
});
