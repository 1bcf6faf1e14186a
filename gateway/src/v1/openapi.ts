import { NETWORK_NAME_PATTERN } from '@green-impact/proto/rules';
import { z } from 'zod';
import type { ErrorCode } from '@green-impact/shared/errors';
import { SHARED_ANSWER_SHAPES } from '../catalogue/answer-shapes.js';
import { answerOf } from '../catalogue/answers.js';
import type { Field } from '../catalogue/fields.js';
import { HTTP_STATUS_OF } from '../http-errors.js';
import { SOLUTIONS, VERSIONED_SOLUTIONS, type OperationEntry, type Solution } from './operation.js';
import type { OperationTable } from './operation-table.js';
import { MAX_IDEMPOTENCY_KEY } from './request-facts.js';
import { RESULT_TRUNCATED_HEADER, TOTAL_COUNT_HEADER } from './truncation.js';

/**
 * The OpenAPI 3.1 description of POST /v1/call, written from the operation table itself (so it cannot
 * drift from what the gateway accepts): one request schema per operation, discriminated first by
 * `solution`, then by `operation`, with each parameter described from its field as inputFromV1
 * (catalogue/parse.ts) checks it, and the error model of http-errors.ts. Served as GET /v1/openapi.json.
 *
 * The answers come from the catalogue (catalogue/<domain>/answers.ts): every operation's 200 answer is
 * the component `Answer_<solution>_<operation>` (its zod schema through z.toJSONSchema, with the
 * declared example), shapes several answers share are components of their own, and the 200 response is
 * any of them, with every operation's example. A generated client picks an operation's answer type by
 * that name, as it picks its request type by `Call_<solution>_<operation>`.
 *
 * What JSON Schema cannot say is in the descriptions: a number sent for a text parameter counts as its
 * decimal text, a numeric text for a number, and `null` or `""` as an absent parameter.
 */

type Schema = Record<string, unknown>;

const NO_CONTROL = '^[^\\u0000-\\u001f\\u007f]*$';
const NO_CONTROL_BUT_WHITESPACE = '^[^\\u0000-\\u0008\\u000b\\u000c\\u000e-\\u001f\\u007f]*$';
const INT_TEXT = '^[+-]?\\d+$';
const NUMBER_TEXT = '^[+-]?(\\d+\\.?\\d*|\\.\\d+)([eE][+-]?\\d+)?$';
const INT32_MAX = 2_147_483_647;

/** Schema names may hold letters, digits, '.', '-' and '_' (OpenAPI components). */
const schemaName = (...parts: string[]) => parts.join('_').replace(/[^A-Za-z0-9._-]/g, '_');
const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });

/** A case-insensitive match of one of `values`, as oneOf (catalogue/fields.ts) accepts them. */
function anyCase(values: readonly string[]): string {
  const letters = (v: string) =>
    [...v].map((c) => (c.toLowerCase() !== c.toUpperCase() ? `[${c.toLowerCase()}${c.toUpperCase()}]` : c.replace(/[\\^$.*+?()[\]{}|/-]/g, '\\$&'))).join('');
  return `^(${values.map(letters).join('|')})$`;
}

/**
 * What a present (non-empty) value of the field must be: its type, as catalogue/fields.ts checks it. Its
 * bounds, lengths and formats are the service's (docs/decisions.md, "One owner per rule").
 */
export function parameterSchema(field: Field): Schema {
  switch (field.type) {
    case 'string':
      return {
        description: 'Text (no control characters but tab and line breaks); a number is taken as its decimal text. Its length and form are the service\'s to check.',
        anyOf: [{ type: 'string', minLength: 1, pattern: NO_CONTROL_BUT_WHITESPACE }, { type: 'number' }],
      };
    case 'identifier':
      return {
        description: 'An identifier, no control characters; a number is taken as its decimal text. Its length and form are the service\'s to check.',
        anyOf: [{ type: 'string', minLength: 1, pattern: NO_CONTROL }, { type: 'number' }],
      };
    case 'int':
    case 'wideInt': {
      // Ids and counts are int4; a wideInt (a millisecond timestamp) any safe integer (fields.ts).
      const cap = field.type === 'int' ? INT32_MAX : Number.MAX_SAFE_INTEGER;
      return {
        description: 'An integer, or its decimal text (then with the same bounds).',
        anyOf: [{ type: 'integer', minimum: -cap, maximum: cap }, { type: 'string', pattern: INT_TEXT }],
      };
    }
    case 'number':
      return {
        description: 'A number, or its decimal text (then with the same bounds).',
        anyOf: [{ type: 'number' }, { type: 'string', pattern: NUMBER_TEXT }],
      };
    case 'enum':
      return { description: `One of ${(field.values ?? []).join(', ')}, in any case.`, type: 'string', pattern: anyCase(field.values ?? []) };
    case 'json':
      return { description: 'Any JSON value but null and "" (absent), passed on as sent.', not: { enum: [null, ''] } };
    case 'list':
      return { description: 'A list.', type: 'array', items: parameterSchema(field.element!) };
  }
}

/** `null` and `""` count as absent (legacy clients send empty strings for unused parameters). */
const orAbsent = (schema: Schema): Schema => ({ anyOf: [{ type: 'null' }, { const: '' }, schema] });

function parametersSchema(entry: OperationEntry): Schema {
  const properties: Record<string, Schema> = {};
  const required: string[] = [];
  const requiredOneOf: Schema[] = [];
  for (const field of Object.values(entry.input)) {
    const present = parameterSchema(field);
    const names = [field.v1, ...field.aliases];
    if (field.required && names.length === 1) {
      properties[field.v1] = present;
      required.push(field.v1);
    } else {
      for (const n of names) properties[n] = orAbsent(present);
      // Required under any of its names (the first non-empty one is used).
      if (field.required) requiredOneOf.push({ anyOf: names.map((n) => ({ required: [n], properties: { [n]: present } })) });
    }
    if (field.aliases.length) {
      properties[field.v1] = { ...properties[field.v1], description: `${(present['description'] as string) ?? ''} Also accepted as ${field.aliases.join(', ')}.`.trim() };
    }
  }
  return {
    type: 'object',
    properties,
    ...(required.length ? { required } : {}),
    ...(requiredOneOf.length ? { allOf: requiredOneOf } : {}),
  };
}

function hasRequiredParameter(entry: OperationEntry): boolean {
  return Object.values(entry.input).some((field) => field.required);
}

function callSchema(entry: OperationEntry): Schema {
  const versioned = VERSIONED_SOLUTIONS.has(entry.solution);
  const needs = entry.envelope ?? {};
  const version: Schema = { description: 'Always 1.', enum: [1, '1'] };
  const network: Schema = { description: 'A network name such as sepolia; the default network when absent.', type: 'string', minLength: 1, maxLength: 64, pattern: NETWORK_NAME_PATTERN };
  const required = ['solution', 'operation'];
  if (needs.version === 'required') required.push('version');
  if (needs.network === 'required') required.push('network');
  const params = parametersSchema(entry);
  if (hasRequiredParameter(entry)) required.push('parameters');
  return {
    type: 'object',
    description: entry.withoutApiKey
      ? `Called without X-Api-Key (a key sent is ignored): ${entry.authority} authorizes it.`
      : 'Called with the account\'s X-Api-Key.',
    properties: {
      solution: { const: entry.solution },
      operation: { const: entry.operation },
      ...(versioned
        ? { version: needs.version === 'required' ? version : { anyOf: [{ type: 'null' }, version] }, network: needs.network === 'required' ? network : orAbsent(network) }
        : {}),
      parameters: hasRequiredParameter(entry) ? params : { anyOf: [{ type: 'null' }, params] },
    },
    required,
  };
}

const CODES_BY_STATUS = (() => {
  const out = new Map<number, ErrorCode[]>();
  for (const [code, status] of Object.entries(HTTP_STATUS_OF) as [ErrorCode, number][]) out.set(status, [...(out.get(status) ?? []), code]);
  return [...out].sort(([a], [b]) => a - b);
})();

/**
 * The answer components of the table's operations: the shared shapes by their names, and for each
 * operation `Answer_<solution>_<operation>`, its schema, or a reference (with the example) where the
 * operation answers a shape declared under another name. Throws on an operation without a declared answer.
 */
function answerSchemas(entries: readonly OperationEntry[]): Record<string, Schema> {
  // Ids only: descriptions and other annotations stay in zod's global registry (.meta()), where
  // z.toJSONSchema reads them.
  const registry = z.registry<{ id: string }>();
  const examples: Record<string, unknown> = {};
  const names = new Map<z.ZodType, string>();
  for (const [name, schema] of Object.entries(SHARED_ANSWER_SHAPES)) {
    registry.add(schema, { id: name });
    names.set(schema, name);
  }
  const aliases: Record<string, Schema> = {};
  for (const entry of entries) {
    const declared = answerOf(entry.solution, entry.operation);
    if (!declared) throw new Error(`No answer is declared for ${entry.solution}/${entry.operation} (catalogue/<domain>/answers.ts).`);
    const name = schemaName('Answer', entry.solution, entry.operation);
    const shape = names.get(declared.answer);
    if (shape !== undefined) {
      aliases[name] = { ...ref(shape), examples: [declared.example] };
    } else {
      registry.add(declared.answer, { id: name });
      names.set(declared.answer, name);
      examples[name] = declared.example;
    }
  }
  const { schemas } = z.toJSONSchema(registry, { uri: (id) => `#/components/schemas/${id}`, unrepresentable: 'throw' });
  const out: Record<string, Schema> = {};
  for (const [name, schema] of Object.entries(schemas)) {
    // Components of an OpenAPI document, not documents of their own.
    const { $schema: _schema, $id: _id, ...rest } = schema as Schema;
    out[name] = name in examples ? { ...rest, examples: [examples[name]] } : rest;
  }
  return { ...out, ...aliases };
}

/** The OpenAPI 3.1 document of POST /v1/call for this table. */
/** The contract version this gateway serves: the newest release (docs/contract/releases, docs/api-changelog.md). */
export const CONTRACT_VERSION = '2.0.0';

export function openApiDocument(table: OperationTable, version = CONTRACT_VERSION): Schema {
  const schemas: Record<string, Schema> = {};
  const bySolution = new Map<Solution, OperationEntry[]>();
  for (const entry of table.entries) bySolution.set(entry.solution, [...(bySolution.get(entry.solution) ?? []), entry]);
  const solutionSchemas: Record<string, string> = {};
  for (const solution of SOLUTIONS) {
    const entries = bySolution.get(solution) ?? [];
    if (entries.length === 0) continue;
    const mapping: Record<string, string> = {};
    for (const entry of entries) {
      const name = schemaName('Call', solution, entry.operation);
      schemas[name] = callSchema(entry);
      mapping[entry.operation] = `#/components/schemas/${name}`;
    }
    const name = schemaName('Call', solution);
    schemas[name] = {
      description: `A call of a ${solution} operation.`,
      oneOf: entries.map((e) => ref(schemaName('Call', solution, e.operation))),
      discriminator: { propertyName: 'operation', mapping },
    };
    solutionSchemas[solution] = `#/components/schemas/${name}`;
  }
  schemas['Call'] = {
    description: 'The body of POST /v1/call: which solution and operation, and its parameters (spec §4.1).',
    oneOf: Object.values(solutionSchemas).map((r) => ({ $ref: r })),
    discriminator: { propertyName: 'solution', mapping: solutionSchemas },
  };
  for (const [name, schema] of Object.entries(answerSchemas(table.entries))) {
    if (schemas[name]) throw new Error(`The answer shape ${name} has the name of a request schema.`);
    schemas[name] = schema;
  }
  const answerNames = table.entries.map((e) => schemaName('Answer', e.solution, e.operation));
  const answerExamples = Object.fromEntries(
    table.entries.map((e) => [
      `${e.solution} ${e.operation}`,
      { summary: `${e.operation} (${e.solution})`, value: answerOf(e.solution, e.operation)!.example },
    ]),
  );
  const codes = CODES_BY_STATUS.flatMap(([, c]) => c);
  schemas['Error'] = {
    description:
      'Every failure: the message (the spec\'s text where it gives one) and a machine-readable code. A failure of a SVC.Blockchain.Hash or SVC.NFT.zK operation also carries the spec\'s envelope, statusCode and statusMessage.',
    type: 'object',
    properties: {
      message: { type: 'string' },
      code: { type: 'string', enum: codes },
      statusCode: { type: 'integer', description: 'The HTTP status (SVC.Blockchain.Hash and SVC.NFT.zK only).' },
      statusMessage: { type: 'string', description: 'The message again (SVC.Blockchain.Hash and SVC.NFT.zK only).' },
    },
    required: ['message', 'code'],
  };
  const errorResponses = Object.fromEntries(
    CODES_BY_STATUS.map(([status, c]) => [
      String(status),
      { description: c.join(', '), content: { 'application/json': { schema: ref('Error') } } },
    ]),
  );
  return {
    openapi: '3.1.0',
    info: {
      title: 'Green-asset impact service: POST /v1/call',
      version,
      description:
        'The legacy remote-operation interface: one endpoint, the operation chosen in the body. Generated from the gateway\'s operation table. A parameter given as null or "" counts as absent; unknown parameters are ignored.',
    },
    paths: {
      '/v1/call': {
        post: {
          operationId: 'call',
          summary: 'Run one operation',
          security: [{ apiKey: [] }, {}],
          parameters: [
            {
              name: 'Idempotency-Key',
              in: 'header',
              required: false,
              description: 'For operations that create a blockchain job: a repeat with the same key answers the first job.',
              schema: { type: 'string', maxLength: MAX_IDEMPOTENCY_KEY, pattern: '^[\\x20-\\x7e]+$' },
            },
          ],
          requestBody: { required: true, content: { 'application/json': { schema: ref('Call') } } },
          responses: {
            '200': {
              description:
                'The operation\'s answer, as the spec gives it for that operation: the schema Answer_<solution>_<operation>. A listing the service cut at its cap says so in headers.',
              headers: {
                [RESULT_TRUNCATED_HEADER]: { description: 'Present (true) when the listing holds fewer items than matched.', schema: { const: 'true' } },
                [TOTAL_COUNT_HEADER]: { description: 'How many items matched, with X-Result-Truncated.', schema: { type: 'string', pattern: '^\\d+$' } },
              },
              content: {
                'application/json': {
                  schema: { description: 'One of the operations\' answers (Answer_<solution>_<operation>).', anyOf: [...new Set(answerNames)].map(ref) },
                  examples: answerExamples,
                },
              },
            },
            ...errorResponses,
          },
        },
      },
    },
    components: {
      securitySchemes: { apiKey: { type: 'apiKey', in: 'header', name: 'X-Api-Key', description: 'An account\'s API key (every operation but those marked as called without one).' } },
      schemas,
    },
  };
}
