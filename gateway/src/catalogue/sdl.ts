import { PAGE_ARGS } from '../graphql/pagination.js';
import type { Field, Fields } from './fields.js';
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
  number: 'Float',
  json: 'JSON',
};

/** A field's GraphQL type: its declared `graphql` name, else the one of its type; non-null when required. */
export function graphqlTypeOf(field: Field, required = field.required): string {
  const named = field.type === 'list' ? `[${graphqlTypeOf(field.element!, true)}]` : (field.graphql ?? BASE_TYPES[field.type]);
  if (!named) throw new Error(`A ${field.type} field (${field.v1}) needs its GraphQL type named (graphql: 'EnumName').`);
  return required ? `${named}!` : named;
}

const described = (doc: string | undefined, sdl: string) => `${doc ? `${JSON.stringify(doc)} ` : ''}${sdl}`;

/** The arguments a face adds to its declared fields: the envelope's network, the Idempotency-Key, a page. */
function faceArgs(op: Operation): string[] {
  const face = op.graphql!;
  return [
    ...(op.envelope?.network ? [described('Network to act on, one of networks.', 'network: String!')] : []),
    ...(face.idempotent ? [described('Idempotency-Key of the job: the same key and call answer the first job again.', 'idempotencyKey: String')] : []),
  ];
}

const fieldLines = (fields: Fields, docs: Readonly<Record<string, string>> = {}) =>
  Object.entries(fields).map(([name, field]) => described(docs[name] ?? field.doc, `${name}: ${graphqlTypeOf(field)}`));

/** The name of a nested declaration's input type. */
export const inputTypeName = (op: Operation) => op.graphql!.input?.name ?? `${op.graphql!.field[0]!.toUpperCase()}${op.graphql!.field.slice(1)}Input`;

/** The description of a root field: the declaration's summary, and its /v1/call name. */
const fieldDoc = (op: Operation) => op.graphql!.doc ?? (op.operation ? `${op.summary} On /v1/call: ${op.operation}.` : op.summary);

/** The root fields of `root` that `operations` declare, in their order: the body of a `type`/`extend type` block. */
export function rootFieldsSdl(root: 'Query' | 'Mutation', operations: readonly Operation[]): string {
  return operations
    .filter((op) => op.graphql?.root === root)
    .map((op) => {
      const face = op.graphql!;
      const args = face.nested
        ? [described(`The fields of the change, each described on ${inputTypeName(op)}.`, `input: ${inputTypeName(op)}!`)]
        : [...fieldLines(op.input), ...faceArgs(op)];
      const page = face.paged || face.pages ? PAGE_ARGS : '';
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
    const body = [...fieldLines(op.input, op.graphql.input?.fields), ...faceArgs(op)].join('\n    ');
    const users = operations.filter((o) => o.graphql?.nested && inputTypeName(o) === name).map((o) => o.graphql!.field);
    const doc = op.graphql.input?.doc ?? `Input of ${users.join(', ').replace(/, ([^,]*)$/, ' and $1')}.`;
    const sdl = `\n  ${JSON.stringify(doc)}\n  input ${name} {\n    ${body}\n  }\n`;
    const before = written.get(name);
    if (before === undefined) written.set(name, sdl);
    else if (before !== sdl) throw new Error(`${op.graphql.field} declares ${name} unlike the declarations before it.`);
  }
  return [...written.values()].join('');
}
