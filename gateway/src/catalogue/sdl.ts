import { BACKWARD_PAGE_ARGS, orderArg, orderTypes, PAGE_ARGS } from '../graphql/pagination.js';
import type { Field } from './fields.js';
import type { Operation } from './operation.js';

/**
 * The GraphQL SDL of what the catalogue declares (docs/gateway.md, "A new operation's GraphQL field"):
 * each declaration's root field (its name, arguments or `input` argument, their types and descriptions,
 * its answer's type) and the input type of a nested one. The schema files of graphql/ place them, in the
 * order given, among the types they still write by hand (answers, enums, nested fields).
 */

const BASE_TYPES: Partial<Record<Field['type'], string>> = {
  string: 'String',
  identifier: 'String',
  int: 'Int',
  wideInt: 'Float',
  number: 'Decimal',
  json: 'JSON',
};

/** A field's GraphQL type: its declared `graphql` name, else the one of its type; non-null when required. */
export function graphqlTypeOf(field: Field, required = field.required): string {
  const named = field.type === 'list' ? `[${graphqlTypeOf(field.element!, true)}]` : (field.graphql ?? BASE_TYPES[field.type]);
  if (!named) throw new Error(`A ${field.type} field (${field.v1}) needs its GraphQL type named (graphql: 'EnumName').`);
  return required ? `${named}!` : named;
}

/** An SDL line with its description before it, when it has one. */
export const described = (doc: string | undefined, sdl: string) => `${doc ? `${JSON.stringify(doc)} ` : ''}${sdl}`;

/**
 * The arguments of a declaration's field (or the fields of its input type), in the face's order: its
 * declared fields, and what the face adds: the envelope's network and the Idempotency-Key.
 */
function argLines(op: Operation, docs: Readonly<Record<string, string>> = {}): string[] {
  const face = op.graphql!;
  const lines = new Map(Object.entries(op.input).map(([name, field]) => [name, described(docs[name] ?? field.doc, `${name}: ${graphqlTypeOf(field)}${field.graphqlDefault === undefined ? '' : ` = ${JSON.stringify(field.graphqlDefault)}`}`)]));
  const network = op.envelope?.network ? [['network', described('Network name, one of networks.', 'network: String!')] as const] : [];
  const key = face.idempotent ? [['idempotencyKey', described('Same key, same job: a retry never queues a second one.', 'idempotencyKey: String')] as const] : [];
  const all = new Map([...network, ...lines, ...key]);
  const order = face.order ?? [...all.keys()];
  if (order.length !== all.size || order.some((name) => !all.has(name))) throw new Error(`${face.field}'s order names other arguments than it has.`);
  return order.map((name) => all.get(name)!);
}

/** The name of a nested declaration's input type. */
const inputTypeName = (op: Operation) => op.graphql!.input?.name ?? `${op.graphql!.field[0]!.toUpperCase()}${op.graphql!.field.slice(1)}Input`;

/** The description of a root field: the declaration's summary, and its /v1/call name. */
const fieldDoc = (op: Operation) => (op.operation ? `${op.summary} On /v1/call: ${op.operation}.` : op.summary);

/** The root fields of `root` that `operations` declare, in their order: the body of a `type`/`extend type` block. */
export function rootFieldsSdl(root: 'Query' | 'Mutation', operations: readonly Operation[]): string {
  return operations
    .filter((op) => op.graphql?.root === root)
    .map((op) => {
      const face = op.graphql!;
      const args = face.nested
        ? [described(`The fields of the change, each described on ${inputTypeName(op)}.`, `input: ${inputTypeName(op)}!`)]
        : argLines(op);
      const paged = face.paged;
      const page = paged ? PAGE_ARGS + (paged.backward ? BACKWARD_PAGE_ARGS : '') + (paged.orderBy ? orderArg(paged.orderBy.type, paged.orderBy.default?.doc) : '') : '';
      const list = args.length || page ? `(\n      ${args.join('\n      ')}${page}\n    )` : '';
      return `\n    ${JSON.stringify(fieldDoc(op))}\n    ${face.field}${list}: ${face.returns}`;
    })
    .join('');
}

/**
 * The input types of the nested declarations among `operations`, in their order, each once: declarations
 * that share an input type (`graphql.input.name`) must declare the same fields.
 */
export function inputTypesSdl(operations: readonly Operation[]): string {
  const written = new Map<string, string>();
  for (const op of operations) {
    if (!op.graphql?.nested) continue;
    const name = inputTypeName(op);
    const body = argLines(op, op.graphql.input?.fields).join('\n    ');
    const users = operations.filter((o) => o.graphql?.nested && inputTypeName(o) === name).map((o) => o.graphql!.field);
    const doc = op.graphql.input?.doc ?? `Input of ${users.join(', ').replace(/, ([^,]*)$/, ' and $1')}.`;
    const sdl = `\n  ${JSON.stringify(doc)}\n  input ${name} {\n    ${body}\n  }\n`;
    const before = written.get(name);
    if (before === undefined) written.set(name, sdl);
    else if (before !== sdl) throw new Error(`${op.graphql.field} declares ${name} unlike the declarations before it.`);
  }
  return [...written.values()].join('');
}

/** The order types (`<type>Order`, `<type>OrderField`) of the ordered connections among `operations`. */
export function orderTypesSdl(operations: readonly Operation[]): string {
  return operations
    .map((op) => op.graphql?.paged?.orderBy)
    .filter((order) => order !== undefined)
    .map((order) => orderTypes(order.type, order.plural, order.fields))
    .join('');
}
