import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  buildSchema,
  getNamedType,
  isEnumType,
  isInputObjectType,
  isInterfaceType,
  isObjectType,
  Kind,
  parse,
  print,
  validate,
  type ConstValueNode,
  type DefinitionNode,
  type DocumentNode,
  type FieldDefinitionNode,
  type GraphQLArgument,
  type GraphQLField,
  type InputValueDefinitionNode,
  type ObjectTypeDefinitionNode,
} from 'graphql';

/**
 * Every GraphQL block of the docs against the committed contract (docs/schema.graphql): example
 * operations must validate, and schema excerpts (`extend type Query { … }`, enums, inputs) must show
 * the fields, arguments, defaults and types the schema has. Docs that drift from the schema fail here.
 */

const docsDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../docs');
const schema = buildSchema(readFileSync(path.join(docsDir, 'schema.graphql'), 'utf8'));

interface Block {
  file: string;
  line: number;
  text: string;
}

function graphqlBlocks(): Block[] {
  const blocks: Block[] = [];
  for (const file of readdirSync(docsDir).filter((f) => f.endsWith('.md'))) {
    const lines = readFileSync(path.join(docsDir, file), 'utf8').split('\n');
    for (let i = 0; i < lines.length; i++) {
      if (lines[i]!.trim() !== '```graphql') continue;
      const start = i + 1;
      while (i + 1 < lines.length && lines[i + 1]!.trim() !== '```') i++;
      blocks.push({ file, line: start, text: lines.slice(start, i + 1).join('\n') });
      i++;
    }
  }
  return blocks;
}

const signatureOfArgs = (args: readonly GraphQLArgument[]) =>
  `(${args.map((a) => `${a.name}: ${String(a.type)}${a.defaultValue !== undefined ? ` = ${JSON.stringify(a.defaultValue)}` : ''}`).join(', ')})`;
const signatureOfField = (f: GraphQLField<unknown, unknown>) => `${f.name}${signatureOfArgs(f.args)}: ${String(f.type)}`;
const literal = (node: ConstValueNode) => JSON.stringify(node.kind === Kind.ENUM ? node.value : JSON.parse(print(node)));
const signatureOfArgNodes = (args: readonly InputValueDefinitionNode[] = []) =>
  `(${args.map((a) => `${a.name.value}: ${print(a.type)}${a.defaultValue ? ` = ${literal(a.defaultValue)}` : ''}`).join(', ')})`;
const signatureOfNode = (f: FieldDefinitionNode) => `${f.name.value}${signatureOfArgNodes(f.arguments)}: ${print(f.type)}`;

/** A top-level piece of a block: the text before its `{` and its body. */
interface Chunk {
  header: string;
  body: string | undefined;
}

/** Splits a block (comments removed) at its top-level braces. */
function chunks(text: string): Chunk[] {
  const out: Chunk[] = [];
  let header = '';
  for (let i = 0; i < text.length; i++) {
    if (text[i] !== '{') {
      header += text[i];
      continue;
    }
    const end = matching(text, i, '{', '}');
    out.push({ header: header.trim(), body: text.slice(i + 1, end) });
    header = '';
    i = end;
  }
  if (header.trim()) out.push({ header: header.trim(), body: undefined });
  return out;
}

function matching(text: string, at: number, open: string, close: string): number {
  let depth = 0;
  for (let i = at; i < text.length; i++) {
    if (text[i] === open) depth++;
    else if (text[i] === close && --depth === 0) return i;
  }
  throw new Error(`unbalanced ${open} in ${text.slice(at, at + 60)}…`);
}

interface ShortField {
  name: string;
  args: string | undefined;
  type: string | undefined;
  sub: string | undefined;
}

/**
 * The docs' shorthand of a type: field names, each optionally with its arguments, `: Type` and a
 * `{ … }` of the fields of its type; a parenthesis after a space is a remark.
 */
function shorthand(body: string): ShortField[] | string {
  const fields: ShortField[] = [];
  let i = 0;
  const ws = () => {
    while (i < body.length && /\s/.test(body[i]!)) i++;
  };
  for (ws(); i < body.length; ws()) {
    if (body[i] === '(') {
      i = matching(body, i, '(', ')') + 1;
      continue;
    }
    const name = /^[A-Za-z_]\w*/.exec(body.slice(i))?.[0];
    if (!name) return `cannot read "${body.slice(i, i + 30)}"`;
    i += name.length;
    let args: string | undefined;
    if (body[i] === '(') {
      const end = matching(body, i, '(', ')');
      args = body.slice(i, end + 1);
      i = end + 1;
    }
    ws();
    let type: string | undefined;
    if (body[i] === ':') {
      i++;
      ws();
      type = /^[[\]\w!]+/.exec(body.slice(i))?.[0];
      if (!type) return `${name}: cannot read its type`;
      i += type.length;
    }
    const save = i;
    ws();
    let sub: string | undefined;
    if (body[i] === '{') {
      const end = matching(body, i, '{', '}');
      sub = body.slice(i + 1, end);
      i = end + 1;
    } else i = save;
    fields.push({ name, args, type, sub });
  }
  return fields;
}

function shorthandDrift(typeName: string, body: string): string[] {
  const type = schema.getType(typeName);
  if (!isObjectType(type) && !isInterfaceType(type)) return [`type ${typeName} is not an object type of the schema`];
  const fields = shorthand(body);
  if (typeof fields === 'string') return [`${typeName}: ${fields}`];
  const real = type.getFields();
  return fields.flatMap((f) => {
    const field = real[f.name];
    if (!field) return [`${typeName}.${f.name} is not in the schema`];
    const problems: string[] = [];
    if (f.args !== undefined) {
      const node = parse(`type T { f${f.args}: Int }`).definitions[0] as ObjectTypeDefinitionNode;
      const shown = signatureOfArgNodes(node.fields![0]!.arguments);
      if (shown !== signatureOfArgs(field.args)) problems.push(`${typeName}.${f.name}${shown} — the schema has ${signatureOfField(field)}`);
    }
    if (f.type !== undefined && f.type !== String(field.type)) problems.push(`${typeName}.${f.name}: ${f.type} — the schema has ${String(field.type)}`);
    if (f.sub !== undefined) problems.push(...shorthandDrift(getNamedType(field.type).name, f.sub));
    return problems;
  });
}

/** What an excerpt's definition says that the schema does not. */
function excerptDrift(def: DefinitionNode): string[] {
  const problems: string[] = [];
  if (def.kind === Kind.OBJECT_TYPE_EXTENSION || def.kind === Kind.OBJECT_TYPE_DEFINITION) {
    const type = schema.getType(def.name.value);
    if (!isObjectType(type)) return [`type ${def.name.value} is not an object type of the schema`];
    const fields = type.getFields();
    for (const f of def.fields ?? []) {
      const real = fields[f.name.value];
      if (!real) problems.push(`${def.name.value}.${f.name.value} is not in the schema`);
      else if (signatureOfNode(f) !== signatureOfField(real)) problems.push(`${def.name.value}.${signatureOfNode(f)} — the schema has ${signatureOfField(real)}`);
    }
  } else if (def.kind === Kind.ENUM_TYPE_DEFINITION) {
    const type = schema.getType(def.name.value);
    if (!isEnumType(type)) return [`enum ${def.name.value} is not in the schema`];
    const shown = (def.values ?? []).map((v) => v.name.value);
    const real = type.getValues().map((v) => v.name);
    if (shown.join(' ') !== real.join(' ')) problems.push(`enum ${def.name.value} { ${shown.join(' ')} } — the schema has { ${real.join(' ')} }`);
  } else if (def.kind === Kind.INPUT_OBJECT_TYPE_DEFINITION) {
    const type = schema.getType(def.name.value);
    if (!isInputObjectType(type)) return [`input ${def.name.value} is not in the schema`];
    const fields = type.getFields();
    for (const f of def.fields ?? []) {
      const real = fields[f.name.value];
      if (!real) problems.push(`${def.name.value}.${f.name.value} is not in the schema`);
      else if (print(f.type) !== String(real.type)) problems.push(`${def.name.value}.${f.name.value}: ${print(f.type)} — the schema has ${String(real.type)}`);
    }
  } else if (def.kind === Kind.SCALAR_TYPE_DEFINITION && !schema.getType(def.name.value)) {
    problems.push(`scalar ${def.name.value} is not in the schema`);
  }
  return problems;
}

/** Problems of one block: each operation must validate; each excerpt must match the schema. */
function blockDrift(text: string): string[] {
  const problems: string[] = [];
  for (const chunk of chunks(text.replace(/#[^\n]*/g, ''))) {
    // Definitions without a body (`scalar JSON`) may precede the next chunk's header.
    const head = /((?:extend\s+)?(?:type|enum|input|interface))\s+(\w+)[^]*$/.exec(chunk.header);
    const before = head ? chunk.header.slice(0, head.index) : chunk.header;
    for (const m of before.matchAll(/scalar\s+(\w+)/g)) problems.push(...excerptDrift(parse(`scalar ${m[1]}`).definitions[0]!));
    if (chunk.body === undefined) continue;
    const source = `${chunk.header} {${chunk.body}}`;
    if (!head) {
      // An operation (or an anonymous query): validated on its own.
      problems.push(...validate(schema, parse(source)).map((e) => `${e.message} in: ${source.slice(0, 80)}`));
      continue;
    }
    const sdl = `${head[1]} ${head[2]} {${chunk.body}}`;
    let strict: DocumentNode | undefined;
    try {
      strict = parse(sdl);
    } catch {
      // The docs' shorthand (`type Unit { id name … }`): read leniently below.
    }
    if (strict) problems.push(...strict.definitions.flatMap(excerptDrift));
    else if (/type$/.test(head[1]!)) problems.push(...shorthandDrift(head[2]!, chunk.body));
    else problems.push(`${head[1]} ${head[2]}: not valid SDL`);
  }
  return problems;
}

const blocks = graphqlBlocks();

test('the docs hold GraphQL examples and schema excerpts to check', () => {
  assert.ok(blocks.length >= 5, `found ${blocks.length} blocks`);
});

for (const block of blocks) {
  test(`docs/${block.file}:${block.line} agrees with docs/schema.graphql`, () => {
    assert.deepEqual(blockDrift(block.text), [], `docs/${block.file}:${block.line}`);
  });
}
