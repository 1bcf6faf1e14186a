#!/usr/bin/env node
// The proto is the catalogue (docs/gateway.md, "The proto is the catalogue"): reads the descriptors of
// proto/ (buf build, with comments and the custom options of greenimpact/options/v1/options.proto) and
// writes, for each annotated message and enum, its GraphQL object or enum type (the proto comment as the
// description), its /v1/call renderer and its OpenAPI answer schema, typed against each other, and the
// methods' operation table, into gateway/src/generated/ (gitignored; only files whose content changed are
// touched, so `tsc --build` stays incremental). `--proto <dir> --out <dir>` read and write elsewhere (tests).
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const arg = (name) => (process.argv.includes(name) ? process.argv[process.argv.indexOf(name) + 1] : undefined);
const protoDir = arg('--proto') ?? join(root, 'proto');
const outDir = arg('--out') ?? join(root, 'gateway', 'src', 'generated');
const OPT = '[greenimpact.options.v1.';

const image = JSON.parse(
  execFileSync(join(root, 'node_modules', '.bin', 'buf'), ['build', '--exclude-imports', '-o', '-#format=json'], { cwd: protoDir, maxBuffer: 64 << 20 }).toString(),
);

/** Every message and enum by full name (`.greenimpact.identity.v1.User`), with its file, descriptor and comment. */
const types = new Map();
const comment = (file, path) => {
  const at = (file.sourceCodeInfo?.location ?? []).find((l) => l.path && l.path.length === path.length && l.path.every((p, i) => p === path[i]));
  const text = at?.leadingComments;
  // The first paragraph is the description; what follows an empty comment line is for maintainers.
  return text ? text.split(/\n\s*\n/)[0].split('\n').map((l) => l.trim()).filter(Boolean).join(' ') : '';
};
for (const file of image.file) {
  const walk = (prefix, tsPrefix, messages, enums, path) => {
    (enums ?? []).forEach((e, i) => {
      const p = [...path, path.length ? 4 : 5, i];
      // Nested enums are field 4 of a message; top-level ones field 5 of the file.
      const enumPath = path.length ? [...path, 4, i] : [5, i];
      types.set(`${prefix}.${e.name}`, { kind: 'enum', file, d: e, ts: `${tsPrefix}${e.name}`, doc: comment(file, enumPath), path: enumPath });
      void p;
    });
    (messages ?? []).forEach((m, i) => {
      const msgPath = [...path, path.length ? 3 : 4, i];
      types.set(`${prefix}.${m.name}`, { kind: 'message', file, d: m, ts: `${tsPrefix}${m.name}`, doc: comment(file, msgPath), path: msgPath });
      walk(`${prefix}.${m.name}`, `${tsPrefix}${m.name}_`, m.nestedType, m.enumType, msgPath);
    });
  };
  walk(`.${file.package}`, '', file.messageType, file.enumType, []);
}

const moduleOf = (file) => `@green-impact/proto/${file.name.replace(/\.proto$/, '')}`;
const lowerFirst = (s) => s[0].toLowerCase() + s.slice(1);
/** The name of a message's /v1/call renderer: userRow for User, taxonomyRow for TaxonomyRow. */
const rowName = (t) => lowerFirst(t.ts).replace(/(Row)?$/, 'Row');
const str = (s) => JSON.stringify(s);
const fail = (msg) => {
  throw new Error(`catalogue-generate: ${msg}`);
};

/** An enum's values as the faces name them: GraphQL without the enum's prefix, /v1/call in lower case. */
function enumValues(t) {
  const prefix = t.d.name.replace(/([a-z0-9])([A-Z])/g, '$1_$2').toUpperCase() + '_';
  const values = t.d.value.map((v, i) => {
    const o = v.options?.[`${OPT}value]`] ?? {};
    const graphql = v.name.startsWith(prefix) ? v.name.slice(prefix.length) : v.name;
    return { name: v.name, number: v.number, graphql, v1: o.v1 || graphql.toLowerCase(), isDefault: !!o.default, doc: comment(t.file, [...t.path, 2, i]) };
  });
  return values.filter((v) => v.number !== 0);
}

const used = new Map(); // full name → what a module needs of it
const need = (full, what) => used.set(full, new Set([...(used.get(full) ?? []), what]));

/**
 * The TypeScript of an enum's mapping to the faces' names: zero and unknown values read as the default, or,
 * for an enum without one, are the service's breach of its contract (an internal error, never shown).
 */
function enumCode(full) {
  const t = types.get(full);
  const values = enumValues(t);
  const fallback = values.find((v) => v.isDefault);
  const otherwise = (face) =>
    fallback
      ? `      return ${str(fallback[face])};\n`
      : `      throw new InternalError('Internal error.', { cause: new Error(\`${t.d.name} \${value} from the service\`) });\n`;
  const fn = (face) =>
    `/** ${t.d.name} as ${face === 'graphql' ? 'GraphQL' : '/v1/call'} names it. */\nexport function ${lowerFirst(t.ts)}${face === 'graphql' ? 'Graphql' : 'V1'}(value: ${t.ts}): ${values.map((v) => str(v[face])).join(' | ')} {\n` +
    `  switch (value) {\n${values
      .filter((v) => v !== fallback)
      .map((v) => `    case ${t.ts}.${v.name}:\n      return ${str(v[face])};\n`)
      .join('')}    default:\n${otherwise(face)}  }\n}\n`;
  const graphqlName = t.d.options?.[`${OPT}enum]`]?.graphql;
  const sdl = graphqlName
    ? `\nexport const ${lowerFirst(t.ts)}EnumSdl = ${str(`\n  ${str(t.doc)}\n  enum ${graphqlName} {\n${values.map((v) => `    ${str(v.doc)}\n    ${v.graphql}\n`).join('')}  }\n`)};\n`
    : '';
  return { code: `${fn('graphql')}\n${fn('v1')}${sdl}`, values, graphqlName };
}

const SCALARS = {
  TYPE_STRING: { graphql: 'String', zod: 'z.string()' },
  TYPE_BOOL: { graphql: 'Boolean', zod: 'z.boolean()' },
  TYPE_INT32: { graphql: 'Int', zod: 'z.int()' },
  TYPE_SINT32: { graphql: 'Int', zod: 'z.int()' },
  TYPE_UINT32: { graphql: 'Int', zod: 'z.int()' },
  TYPE_INT64: { graphql: 'Float', zod: 'z.int()' },
  TYPE_SINT64: { graphql: 'Float', zod: 'z.int()' },
  TYPE_UINT64: { graphql: 'Float', zod: 'z.int()' },
  TYPE_DOUBLE: { graphql: 'Float', zod: 'z.number()' },
  TYPE_FLOAT: { graphql: 'Float', zod: 'z.number()' },
  // Bytes have no one reading: GraphQL's String, which a composed type resolves (a document's text).
  TYPE_BYTES: { graphql: 'String' },
};
const KINDS = {
  KIND_ID: { graphql: 'ID', zod: (f) => (f.type === 'TYPE_STRING' ? 'z.string()' : 'id()') },
  KIND_DATE_TIME: { graphql: 'DateTime', zod: () => 'timestamp()' },
  KIND_DATE: { graphql: 'Date', zod: () => 'isoDate()' },
  KIND_YEAR: { graphql: 'Int', zod: () => 'year()' },
  KIND_DECIMAL: { graphql: 'Decimal', zod: () => 'z.number()' },
  KIND_CURRENCY_CODE: { graphql: 'String', zod: () => 'currencyCode()' },
  KIND_YES_NO: { graphql: 'Boolean', zod: () => 'yesNo()', v1: (v) => `${v} ? 'yes' : 'no'` },
};

/** One annotated message: its GraphQL object type, /v1/call row renderer and answer schema. */
function messageCode(full) {
  const t = types.get(full);
  const object = t.d.options?.[`${OPT}object]`] ?? fail(`${full} is used by an annotated message but has no (greenimpact.options.v1.object)`);
  const objectName = lowerFirst(t.ts);
  const gqlFields = [];
  const v1Keys = [];
  const zodKeys = [];
  const deps = [];
  (t.d.field ?? []).forEach((f, i) => {
    const o = f.options?.[`${OPT}face]`] ?? {};
    const doc = comment(t.file, [...t.path, 2, i]);
    if (!doc) fail(`${full}.${f.name} has no comment: the proto comment is the field's one description`);
    // A field no face shows needs nothing more than its comment.
    if (!(object.graphql && !o.graphqlHidden) && !(object.v1 && !o.v1Hidden)) return;
    const prop = f.jsonName;
    const target = f.typeName ? types.get(f.typeName) : undefined;
    const map = !!target?.d.options?.mapEntry;
    const repeated = f.label === 'LABEL_REPEATED' && !map;
    const optional = !!f.proto3Optional;
    if (target && !map && target.d.options?.[`${OPT}object]`]) deps.push(f.typeName);
    const kind = o.kind && o.kind !== 'KIND_UNSPECIFIED' ? KINDS[o.kind] : undefined;
    let named;
    let zod;
    let graphqlValue = (v) => v;
    let v1Value = (v) => v;
    if (map) {
      if (o.kind !== 'KIND_GOAL_MAP') fail(`${full}.${f.name}: a map needs its kind (KIND_GOAL_MAP)`);
      if (object.graphql && !o.graphqlHidden) fail(`${full}.${f.name}: a goal map has no GraphQL mapping yet; hide it (graphql_hidden)`);
      zod = 'goalMap';
      v1Value = (v) => `goals(${v})`;
    } else if (f.type === 'TYPE_ENUM') {
      const e = enumCode(f.typeName);
      need(f.typeName, 'enum');
      named = e.graphqlName ?? (object.graphql && !o.graphqlHidden ? fail(`${f.typeName} (of ${full}.${f.name}) has no GraphQL name`) : undefined);
      zod = `z.enum([${e.values.map((v) => str(v.v1)).join(', ')}])`;
      // An optional enum's absence (or zero, UNSPECIFIED) is null on GraphQL.
      graphqlValue = optional ? (v) => `${v} ? ${lowerFirst(target.ts)}Graphql(${v}) : null` : (v) => `${lowerFirst(target.ts)}Graphql(${v})`;
      v1Value = (v) => `${lowerFirst(target.ts)}V1(${v})`;
    } else if (f.type === 'TYPE_MESSAGE') {
      // A message written by hand on GraphQL (graphql_type) needs no annotation of its own there.
      // So does one of another package (google.protobuf.Struct: JSON), on a GraphQL-only type.
      const to = target?.d.options?.[`${OPT}object]`] ?? (o.graphqlType && !object.v1 ? {} : fail(`${f.typeName} (of ${full}.${f.name}) is not annotated`));
      named = o.graphqlType || to.graphql;
      if (target) {
        zod = `${lowerFirst(target.ts)}Answer`;
        v1Value = (v) => `${rowName(target)}(${v})`;
      }
    } else {
      const s = SCALARS[f.type] ?? fail(`${full}.${f.name}: no mapping for ${f.type}`);
      if (!s.zod && object.v1 && !o.v1Hidden) fail(`${full}.${f.name}: ${f.type} has no /v1/call mapping; hide it (v1_hidden)`);
      named = o.graphqlType || kind?.graphql || s.graphql;
      zod = kind ? kind.zod(f) : s.zod;
      if (kind?.v1) v1Value = (v) => kind.v1(v);
    }
    const single = f.type === 'TYPE_MESSAGE' && !repeated && !map;
    const nullable = o.graphqlNullable ?? (optional || !!o.emptyAsNull || single);
    const read = (v) => (o.emptyAsNull ? `${v} || null` : optional || single ? `${v} ?? null` : v);
    if (!o.graphqlHidden) {
      const gqlType = repeated ? `[${named}!]!` : `${named}${nullable ? '' : '!'}`;
      const changes = o.emptyAsNull || graphqlValue('x') !== 'x';
      const from = !changes
        ? str(prop)
        : repeated
          ? `(s) => s.${prop}.map((v) => ${graphqlValue('v')})`
          : `(s) => ${o.emptyAsNull ? `s.${prop} || null` : graphqlValue(`s.${prop}`)}`;
      const made = `field(${str(gqlType)}, ${str(doc)}, ${from})`;
      gqlFields.push(`  ${o.graphqlName || prop}: ${o.deprecated ? `deprecated(${made}, ${str(o.deprecated)})` : made},`);
    }
    if (object.v1 && !o.v1Hidden) {
      const key = o.v1Key || f.name;
      let value;
      if (repeated) value = v1Value('x') === 'x' ? `s.${prop}` : `s.${prop}.map((v) => ${v1Value('v')})`;
      else if (f.type === 'TYPE_MESSAGE' && !map) value = `s.${prop} ? ${v1Value(`s.${prop}`)} : null`;
      else if (optional && v1Value('x') !== 'x') value = `s.${prop} === undefined ? null : ${v1Value(`s.${prop}`)}`;
      else value = read(v1Value(`s.${prop}`));
      v1Keys.push(`    ${key}: ${value},`);
      const nullableV1 = !repeated && (optional || !!o.emptyAsNull || single);
      // A shared component (goalMap) is referenced as it is: its own description says what it is.
      const described = map ? '' : `.meta({ description: ${str(doc)} })`;
      zodKeys.push(`  ${key}: ${repeated ? `z.array(${zod})` : zod}${nullableV1 ? '.nullable()' : ''}${described},`);
    }
  });
  need(full, 'type');
  let code = '';
  if (object.v1) {
    code +=
      `/** ${t.d.name}'s /v1/call row: its OpenAPI answer schema${object.component ? ` (the component ${object.component})` : ''}. */\nexport const ${objectName}Answer = ${object.component ? `shared(${str(object.component)}, ` : ''}z.strictObject({\n${zodKeys.join('\n')}\n})${object.component ? ')' : ''};\n\n` +
      `/** ${t.d.name}'s /v1/call row. */\nexport function ${rowName(t)}(s: ${t.ts}): z.output<typeof ${objectName}Answer> {\n  return {\n${v1Keys.join('\n')}\n  };\n}\n\n`;
  }
  if (object.graphql) {
    const fields = [...(object.node ? ['  nodeId: nodeId(),'] : []), ...gqlFields].join('\n');
    const implemented = object.node ? ", { implements: 'Node' }" : '';
    code += object.composed
      ? `/** ${t.d.name}'s GraphQL object type, completed by the gateway's hand-written fields \`more\` (catalogue/objects.ts, completed). */\n` +
        `export const ${objectName}ObjectWith = (more: (field: FieldOf<${t.ts}>) => Completion<${t.ts}>) =>\n` +
        `  objectType<${t.ts}>(${str(object.graphql)}, ${str(t.doc)}, (field) => completed({\n${fields}\n}, more(field))${implemented});\n\n`
      : `/** ${t.d.name}'s GraphQL object type. */\nexport const ${objectName}Object = objectType<${t.ts}>(${str(object.graphql)}, ${str(t.doc)}, (field) => ({\n${fields}\n})${implemented});\n\n`;
  }
  return { code, deps };
}

/** A method's operation on the faces (greenimpact.options.v1.operation). */
function operations(file) {
  return (file.service ?? []).flatMap((s) =>
    (s.method ?? []).flatMap((m) => {
      const o = m.options?.[`${OPT}operation]`];
      if (!o) return [];
      const method = lowerFirst(m.name);
      const kind = (o.kind ?? 'OPERATION_KIND_UNSPECIFIED').replace('OPERATION_KIND_', '').toLowerCase();
      if (kind === 'unspecified') fail(`${s.name}.${m.name} declares no kind`);
      return [`  ${method}: { v1: ${str(o.v1 ?? '')}, graphql: ${str(o.graphql ?? '')}, kind: ${str(kind)} },`];
    }),
  );
}

const written = new Set();
mkdirSync(outDir, { recursive: true });
let changed = 0;
for (const file of image.file) {
  used.clear();
  const annotated = [...types.entries()].filter(([, t]) => t.file === file && t.kind === 'message' && t.d.options?.[`${OPT}object]`]);
  const annotatedEnums = [...types.entries()].filter(([, t]) => t.file === file && t.kind === 'enum' && t.d.options?.[`${OPT}enum]`]);
  const ops = operations(file);
  if (annotated.length === 0 && annotatedEnums.length === 0 && ops.length === 0) continue;
  // Messages after the ones they hold, so each answer schema is declared before it is used.
  const order = [];
  const codes = new Map();
  const visit = (full) => {
    if (codes.has(full)) return;
    const made = messageCode(full);
    codes.set(full, made.code);
    for (const d of made.deps) if (types.get(d).kind === 'message' && types.get(d).file === file) visit(d);
    order.push(full);
  };
  for (const [full] of annotated) visit(full);
  for (const [full] of annotatedEnums) need(full, 'enum');
  const enums = [...used.entries()].filter(([, w]) => w.has('enum')).map(([full]) => full);
  const body = [...enums.map((full) => enumCode(full).code), ...order.map((full) => codes.get(full))].join('\n');
  const service = file.name.split('/').at(-1).replace(/\.proto$/, '');
  const imports = new Map();
  for (const [full, what] of used) {
    const t = types.get(full);
    const names = imports.get(moduleOf(t.file)) ?? new Set();
    names.add(what.has('enum') ? t.ts : `type ${t.ts}`);
    imports.set(moduleOf(t.file), names);
  }
  const shapes = ['currencyCode', 'goals', 'id', 'isoDate', 'shared', 'timestamp', 'year', 'yesNo'].filter((s) => body.includes(`${s}(`));
  if (/\bgoalMap\b/.test(body)) shapes.splice(1, 0, 'goalMap');
  const text =
    `// Generated by scripts/catalogue-generate.mjs from ${file.name}: do not edit, change the proto.\n` +
    (body.includes('z.') ? "import { z } from 'zod';\n" : '') +
    [...imports]
      .map(([m, names]) => {
        const all = [...names].sort();
        return all.every((n) => n.startsWith('type '))
          ? `import type { ${all.map((n) => n.slice(5)).join(', ')} } from '${m}';\n`
          : `import { ${all.join(', ')} } from '${m}';\n`;
      })
      .join('') +
    (shapes.length ? `import { ${shapes.join(', ')} } from '../catalogue/answer-shapes.js';\n` : '') +
    (body.includes('objectType<')
      ? `import { ${[
          body.includes('completed(') && 'completed',
          body.includes('deprecated(') && 'deprecated',
          body.includes('nodeId()') && 'nodeId',
          'objectType',
          body.includes('Completion<') && 'type Completion',
          body.includes('FieldOf<') && 'type FieldOf',
        ]
          .filter(Boolean)
          .join(', ')} } from '../catalogue/objects.js';\n`
      : '') +
    (body.includes('new InternalError(') ? "import { InternalError } from '@green-impact/shared/errors';\n" : '') +
    `\n${body}`;
  const header = `// Generated by scripts/catalogue-generate.mjs from ${file.name}: do not edit, change the proto.\n`;
  // The methods' table imports nothing, so catalogue/methods.ts (read by declare) closes no import circle.
  const methods = ops.length
    ? `${header}\n/** The operations of ${service}'s methods: their names on each face and their kind. */\nexport const ${lowerFirst(service)}Methods = {\n${ops.join('\n')}\n} as const;\n`
    : undefined;
  for (const [name, content] of [[`${service}.ts`, body ? text : undefined], [`${service}-methods.ts`, methods]]) {
    if (content === undefined) continue;
    const target = join(outDir, name);
    written.add(name);
    if (existsSync(target) && readFileSync(target, 'utf8') === content) continue;
    writeFileSync(target, content);
    changed++;
  }
}
for (const f of readdirSync(outDir)) if (!written.has(f)) (rmSync(join(outDir, f)), changed++);
if (changed) console.log(`catalogue: ${changed} generated file(s) updated`);
