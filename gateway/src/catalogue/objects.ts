import type { GraphQLResolveInfo } from 'graphql';
import type { GraphqlContext } from '../graphql/context.js';
import { described } from './sdl.js';

/**
 * GraphQL object types declared once (docs/gateway.md, "Object types"): a declaration names the type, its
 * description, the interface it implements and, per field, its GraphQL type, description and where its
 * value comes from: a property of the source (a proto message's field, read as the service answered it),
 * or a function of the source (with the field's arguments, the request's context and info). The SDL of
 * the type and its resolvers are written from it, so the objects GraphQL resolves are the messages
 * themselves, with no mapping pass, and only the fields a query selects are read.
 */

/** The TypeScript value of an argument of a scalar's SDL type: null or absent when the type is nullable. */
interface Scalars {
  Int: number;
  Float: number;
  Decimal: number;
  String: string;
  ID: string;
  Boolean: boolean;
}
type Named<N extends string> = N extends keyof Scalars ? Scalars[N] : unknown;
type ArgValue<T extends string> = T extends `${infer N}!` ? Named<N> : Named<T> | null | undefined;

export interface Arg {
  type: string;
  doc: string;
  /** The GraphQL default, written as JSON (a scalar's literal). */
  default?: string | number | boolean;
}

/** An argument of a field: its SDL type, description and default. */
export const arg = <const T extends string>(type: T, doc: string, byDefault?: string | number | boolean) =>
  ({ type, doc, ...(byDefault === undefined ? {} : { default: byDefault }) }) as Arg & { type: T };

type ArgsOf<A> = A extends Record<string, Arg> ? { [K in keyof A]: ArgValue<A[K]['type']> } : never;

type Resolver<S, A = unknown> = (source: S, args: A, ctx: GraphqlContext, info: GraphQLResolveInfo) => unknown;

/** A declared field: the resolver is absent when the value is the source's property of the field's name. */
export interface ObjectField {
  type: string;
  doc: string;
  /** Declared arguments, or the SDL of shared ones (PAGE_ARGS). */
  args?: Record<string, Arg> | string;
  /** The source's property it reads (a proto field). */
  from?: string;
  /** What computes it, when not a property. */
  resolve?: Resolver<never, never>;
  /** The reason of its @deprecated. */
  deprecated?: string;
}

/** The field builder a declaration gets, typed by its source `S`. */
export interface FieldOf<S> {
  /** From the source's property `from`, or computed from the source (and the request). */
  (type: string, doc: string, from: (keyof S & string) | Resolver<S>): ObjectField;
  /** With arguments, resolved by `resolve`. */
  <const A extends Record<string, Arg>>(type: string, doc: string, args: A, resolve: Resolver<S, ArgsOf<A>>): ObjectField;
  /** With the SDL of shared arguments (PAGE_ARGS), resolved by `resolve`. */
  (type: string, doc: string, args: string, resolve: Resolver<S, never>): ObjectField;
}

const field = ((type: string, doc: string, from: string | Resolver<never, never> | Record<string, Arg>, resolve?: Resolver<never, never>): ObjectField =>
  typeof from === 'string' && resolve === undefined
    ? { type, doc, from }
    : typeof from === 'function'
      ? { type, doc, resolve: from }
      : { type, doc, args: from, resolve }) as FieldOf<never>;

const NODE_ID_DOC = "Globally unique, opaque id for node(id:) and nodes(ids:) (Relay's Node); id is unchanged.";

/** A Node type's nodeId: resolved from the key the type gives it (resolvers/node-types.ts, node-resolvers.ts). */
export const nodeId = (doc = NODE_ID_DOC): ObjectField => ({ type: 'ID!', doc });

/** The field, deprecated for `reason`. */
export const deprecated = (f: ObjectField, reason: string): ObjectField => ({ ...f, deprecated: reason });

/**
 * What the gateway adds by hand to a type generated from its proto ((object).composed): `resolve` says
 * where a proto field's value comes from when it is not the message's own (its type and description stay
 * the proto's), `after` places fields the proto has no counterpart of after the named field.
 */
export interface Completion<S> {
  resolve?: Record<string, Resolver<S>>;
  after?: Record<string, Record<string, ObjectField>>;
}

/** The generated `fields` completed by `more`, in the order of the schema. */
export function completed<S>(fields: Record<string, ObjectField>, more: Completion<S>): Record<string, ObjectField> {
  for (const name of [...Object.keys(more.resolve ?? {}), ...Object.keys(more.after ?? {})]) {
    if (!Object.hasOwn(fields, name)) throw new Error(`completed: the proto has no field ${name}`);
  }
  return Object.fromEntries(
    Object.entries(fields).flatMap(([name, f]) => {
      const resolve = more.resolve?.[name];
      const own: [string, ObjectField] = [name, resolve ? { type: f.type, doc: f.doc, resolve: resolve as Resolver<never, never>, ...(f.deprecated ? { deprecated: f.deprecated } : {}) } : f];
      return [own, ...Object.entries(more.after?.[name] ?? {})];
    }),
  );
}

export interface ObjectType<S> {
  name: string;
  sdl: string;
  resolvers: Record<string, Resolver<S, never>>;
}

function argsSdl(args: ObjectField['args']): string {
  if (args === undefined) return '';
  if (typeof args === 'string') return `(${args}\n    )`;
  const lines = Object.entries(args).map(([name, a]) => described(a.doc, `${name}: ${a.type}${a.default === undefined ? '' : ` = ${JSON.stringify(a.default)}`}`));
  return `(\n      ${lines.join('\n      ')}\n    )`;
}

/**
 * Declares the object type `name` whose values are `S` (the proto message GraphQL resolves it from):
 * `fields(field)` names its fields in the order of the schema.
 */
export function objectType<S>(
  name: string,
  doc: string,
  fields: (field: FieldOf<S>) => Record<string, ObjectField>,
  options: { implements?: string } = {},
): ObjectType<S> {
  const declared = Object.entries(fields(field as FieldOf<S>));
  const lines = declared.map(([fieldName, f]) => `\n    ${JSON.stringify(f.doc)}\n    ${fieldName}${argsSdl(f.args)}: ${f.type}${f.deprecated ? ` @deprecated(reason: ${JSON.stringify(f.deprecated)})` : ''}`);
  const resolvers: Record<string, Resolver<S, never>> = {};
  for (const [fieldName, f] of declared) {
    const { from, resolve } = f;
    if (resolve) resolvers[fieldName] = resolve as Resolver<S, never>;
    else if (from !== undefined && from !== fieldName) resolvers[fieldName] = (source) => (source as Record<string, unknown>)[from];
  }
  const header = `type ${name}${options.implements ? ` implements ${options.implements}` : ''}`;
  return { name, sdl: `\n  ${JSON.stringify(doc)}\n  ${header} {${lines.join('')}\n  }\n`, resolvers };
}

/** The SDL of object types, in the order given (the order of the printed schema). */
export const objectTypesSdl = (types: readonly ObjectType<never>[]) => types.map((t) => t.sdl).join('');

/** The resolver map of object types: `{ Type: { field: resolver } }`. */
export const objectResolvers = (types: readonly ObjectType<never>[]) => Object.fromEntries(types.map((t) => [t.name, t.resolvers]));
