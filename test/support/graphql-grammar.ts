/**
 * Random GraphQL operations written against a served schema, the GraphQL counterpart of
 * query-grammar.ts: one to three root fields, arguments of valid types (graphql-values.ts),
 * selections at random depth up to the depth limit with aliases (the same relation twice under
 * two names among them), named fragments, inline fragments (on zone members, with `__typename`),
 * `@include`/`@skip`, variables, and now and then a second operation chosen by name. A few are
 * broken on purpose (a parse error, an unknown field, a wrong argument type, an undefined or
 * mistyped variable, a selection past the depth limit): those say why, and must be refused whole.
 * Deterministic for a seed.
 */
import {
  getNamedType,
  isLeafType,
  isObjectType,
  isUnionType,
  type GraphQLField,
  type GraphQLInputType,
  type GraphQLObjectType,
  type GraphQLSchema,
  type GraphQLUnionType,
} from 'graphql';
import { picker, seededRandom } from './seeded-random.js';
import { literal, valueSource, type ValueSource } from './graphql-values.js';

export interface GeneratedOperation {
  readonly query: string;
  readonly variables: Record<string, unknown>;
  readonly operationName?: string;
  /** What breaks the operation on purpose (it must be a 400 before anything runs), or null. */
  readonly invalid: string | null;
}

type Composite = GraphQLObjectType | GraphQLUnionType;

/** Fields one operation may hold, so that it stays far below the parser's token limit. */
const FIELD_BUDGET = 120;
const INVALID_SHARE = 0.08;

export interface GrammarOptions {
  readonly depthLimit: number;
  /** Root fields chosen three times in four (those that read content); any root field otherwise. */
  readonly preferredRoots?: readonly string[];
}

/** The randomness a grammar draws from, deterministic for its seed. */
interface Draw {
  readonly random: () => number;
  readonly pick: <T>(list: readonly T[]) => T;
  readonly chance: (probability: number) => boolean;
  /** `count` items of `list`, none twice. */
  readonly sample: <T>(list: readonly T[], count: number) => T[];
  readonly values: ValueSource;
}

function drawFor(schema: GraphQLSchema, seed: number): Draw {
  const random = seededRandom(seed);
  const pick = picker(random);
  const sample = <T>(list: readonly T[], count: number): T[] => {
    const pool = [...list];
    const out: T[] = [];
    while (out.length < count && pool.length) out.push(pool.splice(Math.floor(random() * pool.length), 1)[0]);
    return out;
  };
  return { random, pick, chance: (probability) => random() < probability, sample, values: valueSource(schema, random, pick) };
}

export function graphqlGrammar(schema: GraphQLSchema, seed: number, options: GrammarOptions): () => GeneratedOperation {
  const draw = drawFor(schema, seed);
  return () => {
    const writer = new OperationWriter(schema, options, draw);
    const valid = writer.write();
    if (!draw.chance(INVALID_SHARE)) return { ...valid, variables: writer.variables, invalid: null };
    return broken(schema, options, draw, valid.query, writer.variables);
  };
}

/** One operation being written: its variables, its fragments, and how many more fields it may hold. */
class OperationWriter {
  readonly variables: Record<string, unknown> = {};
  private readonly declarations: string[] = [];
  private readonly fragments: string[] = [];
  private counter = 0;
  private budget = FIELD_BUDGET;

  constructor(
    private readonly schema: GraphQLSchema,
    private readonly options: GrammarOptions,
    private readonly draw: Draw,
  ) {}

  /** The document, and the operation to run when it holds two. */
  write(): { query: string; operationName?: string } {
    const { chance, pick, sample } = this.draw;
    const all = Object.values(this.schema.getQueryType()!.getFields());
    const preferred = all.filter((field) => this.options.preferredRoots?.includes(field.name));
    const roots = preferred.length && chance(0.75) ? preferred : all;
    const parts: string[] = [];
    for (const field of sample(roots, pick([1, 1, 1, 2, 2, 3]))) {
      const text = this.fieldText(field, 0, true, chance(0.15));
      if (text) parts.push(text);
      if (chance(0.1)) parts.push(this.fieldText(field, 0, true, true) ?? '');
    }
    if (chance(0.05)) parts.push('__typename');
    const body = `{ ${parts.filter(Boolean).join(' ')} }`;
    const named = this.declarations.length > 0 || chance(0.5);
    const head = named ? `query ${this.unique('Q')}${this.declarations.length ? `(${this.declarations.join(', ')})` : ''} ` : '';
    const text = [`${head}${body}`, ...this.fragments].join('\n');
    if (!named || !chance(0.05)) return { query: text };
    // A second operation in the document: the one to run is named.
    return { query: `query Other { __typename }\n${text}`, operationName: head.split(/[ (]/)[1] };
  }

  private unique(prefix: string): string {
    this.counter += 1;
    return `${prefix}${this.counter}`;
  }

  private variable(type: string, value: unknown): string {
    const name = this.unique('v');
    this.declarations.push(`$${name}: ${type}`);
    this.variables[name] = value;
    return `$${name}`;
  }

  private argumentsText(field: GraphQLField<unknown, unknown>, root: boolean): string {
    const parts: string[] = [];
    for (const arg of field.args) {
      if (!this.draw.chance(arg.name === 'id' ? 0.9 : root ? 0.45 : 0.35)) continue;
      const value = this.draw.values.argument(field, arg.name);
      const text = this.draw.chance(0.2) ? this.variable(String(arg.type), value) : literal(value, arg.type as GraphQLInputType);
      parts.push(`${arg.name}: ${text}`);
    }
    return parts.length ? `(${parts.join(', ')})` : '';
  }

  private directive(): string {
    const { chance, pick } = this.draw;
    if (!chance(0.05)) return '';
    const which = pick(['include', 'skip']);
    return ` @${which}(if: ${chance(0.5) ? this.variable('Boolean!', chance(0.5)) : String(chance(0.5))})`;
  }

  /** One field of a selection set at `depth`; null when it would nest past the limit. */
  private fieldText(field: GraphQLField<unknown, unknown>, depth: number, root: boolean, alias: boolean): string | null {
    const named = getNamedType(field.type);
    // Decided before the arguments, so that no variable is declared for a field left out.
    if (!isLeafType(named) && (depth + 1 > this.options.depthLimit || this.budget <= 0)) return null;
    const head = `${alias ? `${this.unique(field.name)}: ` : ''}${field.name}${field.args.length ? this.argumentsText(field, root) : ''}${this.directive()}`;
    return isLeafType(named) ? head : `${head} ${this.selection(named as Composite, depth + 1)}`;
  }

  /** Some fields of an object; in a union's fragments, a key another member gives another type is aliased (`taken`). */
  private objectParts(type: GraphQLObjectType, depth: number, taken: Map<string, string>): string[] {
    const { chance, random, sample } = this.draw;
    const parts: string[] = [];
    for (const field of sample(Object.values(type.getFields()), 1 + Math.floor(random() * 5))) {
      this.budget -= 1;
      const clash = taken.get(field.name);
      const text = this.fieldText(field, depth, false, chance(0.12) || (clash !== undefined && clash !== String(field.type)));
      if (!text) continue;
      parts.push(text);
      taken.set(field.name, String(field.type));
      // The same list twice, under an alias, with its own arguments.
      if (field.args.length && chance(0.1)) parts.push(this.fieldText(field, depth, false, true) ?? '');
    }
    if (!parts.length || chance(0.1)) parts.push(chance(0.2) ? `${this.unique('t')}: __typename` : '__typename');
    return parts.filter(Boolean);
  }

  /** A union (a zone, `GenericMorph`): `__typename` and inline fragments on some of its members. */
  private unionParts(type: GraphQLUnionType, depth: number): string[] {
    const taken = new Map<string, string>();
    const members = this.draw.sample(type.getTypes(), 1 + Math.floor(this.draw.random() * 3));
    return ['__typename', ...members.map((member) => `... on ${member.name} { ${this.objectParts(member, depth, taken).join(' ')} }`)];
  }

  /** A selection set of `type` at `depth`, now and then through a named or an inline fragment. */
  private selection(type: Composite, depth: number): string {
    const parts = isUnionType(type) ? this.unionParts(type, depth) : this.objectParts(type, depth, new Map());
    const roll = this.draw.random();
    if (roll < 0.08) {
      const name = this.unique('F');
      this.fragments.push(`fragment ${name} on ${type.name} { ${parts.join(' ')} }`);
      return `{ ...${name}${this.directive()} }`;
    }
    if (roll < 0.14 && parts.length > 1) {
      const split = 1 + Math.floor(this.draw.random() * (parts.length - 1));
      const condition = this.draw.chance(0.5) ? ` on ${type.name}` : '';
      return `{ ${parts.slice(0, split).join(' ')} ...${condition}${this.directive()} { ${parts.slice(split).join(' ')} } }`;
    }
    return `{ ${parts.join(' ')} }`;
  }
}

/** A valid operation broken in one way a client can break one. */
function broken(schema: GraphQLSchema, options: GrammarOptions, draw: Draw, query: string, variables: Record<string, unknown>): GeneratedOperation {
  const kind = draw.pick(['parse', 'unknown field', 'argument type', 'undefined variable', 'mistyped variable', 'too deep', 'leaf selection', 'subscription'] as const);
  const firstRoot = query.search(/\{ /) + 2;
  const insert = (text: string) => `${query.slice(0, firstRoot)}${text} ${query.slice(firstRoot)}`;
  const listField = () => draw.pick(Object.values(schema.getQueryType()!.getFields()).filter((field) => field.args.some((arg) => arg.name === 'pagination'))).name;
  switch (kind) {
    case 'parse':
      return { query: query.replace(/\}\s*$/, ''), variables, invalid: kind };
    case 'unknown field':
      return { query: insert('nope { id }'), variables, invalid: kind };
    case 'argument type':
      return { query: insert(`__typename ${listField()}(pagination: { page: "one" }) { __typename }`), variables, invalid: kind };
    case 'undefined variable':
      return { query: insert('__typename @include(if: $undefinedVariable)'), variables, invalid: kind };
    case 'mistyped variable':
      return { query: `query Typed($flag: Boolean!) { __typename @include(if: $flag) }`, variables: { flag: 'yes' }, invalid: kind };
    case 'too deep':
      return { query: `{ ${tooDeep(schema, options, draw)} }`, variables: {}, invalid: kind };
    case 'leaf selection':
      return { query: insert('__typename { id }'), variables, invalid: kind };
    case 'subscription':
      return { query: 'subscription { __typename }', variables: {}, invalid: kind };
  }
}

/** A chain of object fields from the root that nests one selection set past the limit. */
function tooDeep(schema: GraphQLSchema, options: GrammarOptions, draw: Draw): string {
  for (;;) {
    let type: GraphQLObjectType = schema.getQueryType()!;
    const path: string[] = [];
    while (path.length <= options.depthLimit) {
      const composite = Object.values(type.getFields()).filter((field) => isObjectType(getNamedType(field.type)));
      if (!composite.length) break;
      const field = draw.pick(composite);
      path.push(field.name);
      type = getNamedType(field.type) as GraphQLObjectType;
    }
    if (path.length > options.depthLimit) return `${path.join(' { ')} { __typename${' }'.repeat(path.length)}`;
  }
}

/**
 * Operations built to be answered by far more than a small budget: a list of 100 entries, each
 * with a to-many relation or media of 100 entries, each again with one, as deep as the limit lets
 * them nest, every scalar selected at each level.
 */
export function hostileGrammar(schema: GraphQLSchema, seed: number, options: GrammarOptions): () => GeneratedOperation {
  const random = seededRandom(seed);
  const pick = picker(random);
  const isList = (field: GraphQLField<unknown, unknown>) => field.args.some((arg) => arg.name === 'pagination') && 'data' in (getNamedType(field.type) as GraphQLObjectType).getFields();

  /** `data { id attributes { scalars… list(pagination: { limit: 100 }) { … } } }`, `depth` being the depth of `data`'s set. */
  function entries(wrapper: GraphQLObjectType, depth: number): string {
    const entity = getNamedType(wrapper.getFields().data.type) as GraphQLObjectType;
    const attributes = getNamedType(entity.getFields().attributes.type) as GraphQLObjectType;
    const fields = Object.values(attributes.getFields());
    const scalars = fields.filter((field) => isLeafType(getNamedType(field.type))).map((field) => field.name);
    const lists = depth + 4 <= options.depthLimit ? fields.filter(isList) : [];
    // A list whose entries hold lists again, while another level fits.
    const fanning = depth + 7 <= options.depthLimit ? lists.filter((field) => listsOf(getNamedType(field.type) as GraphQLObjectType).length) : [];
    const nested = fanning.length ? pick(fanning) : lists.length ? pick(lists) : null;
    const inner = nested ? ` ${nested.name}(pagination: { limit: 100 }) { ${entries(getNamedType(nested.type) as GraphQLObjectType, depth + 3)} }` : '';
    return `data { id attributes { ${scalars.join(' ')}${inner} } }`;
  }

  /** The list fields of the entries a response type wraps. */
  function listsOf(wrapper: GraphQLObjectType): GraphQLField<unknown, unknown>[] {
    const entity = getNamedType(wrapper.getFields().data.type) as GraphQLObjectType;
    return Object.values((getNamedType(entity.getFields().attributes.type) as GraphQLObjectType).getFields()).filter(isList);
  }

  return () => {
    const roots = Object.values(schema.getQueryType()!.getFields()).filter(
      (field) => isList(field) && (!options.preferredRoots || options.preferredRoots.includes(field.name)) && listsOf(getNamedType(field.type) as GraphQLObjectType).length > 1,
    );
    const root = pick(roots);
    return { query: `{ ${root.name}(pagination: { limit: 100 }) { ${entries(getNamedType(root.type) as GraphQLObjectType, 2)} } }`, variables: {}, invalid: null };
  };
}

