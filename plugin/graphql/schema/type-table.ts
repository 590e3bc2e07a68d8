/**
 * The named types of a schema under construction, and fields written as SDL type references
 * (`'[ArticleEntity!]!'`): every type is defined once, fields are thunks resolved when the schema
 * is assembled, so types may refer to each other in any order.
 */
import {
  GraphQLList,
  GraphQLNonNull,
  isInputType,
  isOutputType,
  specifiedScalarTypes,
  type GraphQLArgumentConfig,
  type GraphQLFieldConfig,
  type GraphQLFieldConfigMap,
  type GraphQLInputFieldConfigMap,
  type GraphQLInputType,
  type GraphQLNamedType,
  type GraphQLOutputType,
  type GraphQLType,
} from 'graphql';

/** An argument or input field: its type reference, and a default value (internal, as graphql-js takes it). */
export interface InputSpec {
  readonly type: string;
  readonly defaultValue?: unknown;
}

/** An output field: its type reference, arguments and description. */
export interface FieldSpec {
  readonly type: string;
  readonly args?: Readonly<Record<string, string | InputSpec>>;
  readonly description?: string;
}

/** ID, String, Int, Float, Boolean: named without being defined. */
const STANDARD = new Map<string, GraphQLNamedType>(specifiedScalarTypes.map((type) => [type.name, type]));

export class TypeTable {
  private readonly types = new Map<string, GraphQLNamedType>();

  /** Defines `type`; two definitions of one name are a schema that cannot be served. */
  add<T extends GraphQLNamedType>(type: T): T {
    if (this.types.has(type.name)) throw new Error(`two GraphQL types would be named ${type.name}`);
    this.types.set(type.name, type);
    return type;
  }

  has(name: string): boolean {
    return this.types.has(name);
  }

  named(name: string): GraphQLNamedType {
    const type = this.types.get(name) ?? STANDARD.get(name);
    if (!type) throw new Error(`no GraphQL type named ${name}`);
    return type;
  }

  all(): GraphQLNamedType[] {
    return [...this.types.values()];
  }

  /** `'[X!]!'` → the wrapped type. */
  reference(text: string): GraphQLType {
    if (text.endsWith('!')) return new GraphQLNonNull(this.reference(text.slice(0, -1)) as GraphQLList<GraphQLType>);
    if (text.startsWith('[') && text.endsWith(']')) return new GraphQLList(this.reference(text.slice(1, -1)));
    return this.named(text);
  }

  output(text: string): GraphQLOutputType {
    const type = this.reference(text);
    if (!isOutputType(type)) throw new Error(`${text} is not an output type`);
    return type;
  }

  input(text: string): GraphQLInputType {
    const type = this.reference(text);
    if (!isInputType(type)) throw new Error(`${text} is not an input type`);
    return type;
  }

  /** The field map of an object type, resolved against this table. */
  fields(specs: Readonly<Record<string, string | FieldSpec>>): GraphQLFieldConfigMap<unknown, unknown> {
    return Object.fromEntries(Object.entries(specs).map(([name, spec]) => [name, this.field(typeof spec === 'string' ? { type: spec } : spec)]));
  }

  /** The field map of an input object type. */
  inputFields(specs: Readonly<Record<string, string | InputSpec>>): GraphQLInputFieldConfigMap {
    return Object.fromEntries(Object.entries(specs).map(([name, spec]) => [name, this.argument(spec)]));
  }

  private field(spec: FieldSpec): GraphQLFieldConfig<unknown, unknown> {
    const args = spec.args && Object.fromEntries(Object.entries(spec.args).map(([name, arg]) => [name, this.argument(arg)]));
    return { type: this.output(spec.type), ...(args ? { args } : {}), ...(spec.description ? { description: spec.description } : {}) };
  }

  private argument(spec: string | InputSpec): GraphQLArgumentConfig {
    if (typeof spec === 'string') return { type: this.input(spec) };
    return { type: this.input(spec.type), ...('defaultValue' in spec ? { defaultValue: spec.defaultValue } : {}) };
  }
}
