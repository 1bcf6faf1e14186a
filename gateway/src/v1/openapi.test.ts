import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { Validator } from '@seriousme/openapi-schema-validator';
import { ANSWERS, answerOf } from '../catalogue/answers.js';
import type { Field } from '../catalogue/fields.js';
import { blockchainAnswers } from '../catalogue/chain/answers.js';
import { frameworkAnswers } from '../catalogue/frameworks/answers.js';
import { identityAnswers } from '../catalogue/identity/answers.js';
import { portfolioAnswers } from '../catalogue/portfolio/answers.js';
import { taxonomyAnswers } from '../catalogue/taxonomy/answers.js';
import { startTestGateway, type TestGateway } from '@green-impact/testing/gateway/real-gateway';
import { parseCall } from './envelope.js';
import { VERSIONED_SOLUTIONS, type OperationEntry } from './operation.js';
import { operationTable } from './operation-table.js';
import { openApiDocument } from './openapi.js';

/**
 * The OpenAPI document of /v1/call against the operation table it is written from: a valid OpenAPI 3.1
 * document, one schema per operation, and for every operation the schema and the gateway's own checks
 * (parseCall) agree on valid bodies, missing required parameters and wrong values.
 */

const doc = openApiDocument(operationTable);
type Doc = { components: { schemas: Record<string, { oneOf?: { $ref: string }[]; discriminator?: { mapping: Record<string, string> } }> } };
const schemas = (doc as Doc).components.schemas;
// format (uri, date-time) is an annotation, as OpenAPI 3.1 has it by default; zod checks the URLs it declares.
const ajv = new Ajv2020({ strict: false, allErrors: false, validateFormats: false });
ajv.addSchema(doc, 'openapi');
const schemaValid = (body: unknown): boolean => {
  const validate = ajv.getSchema('openapi#/components/schemas/Call');
  assert.ok(validate);
  return validate(body) as boolean;
};
const gatewayValid = (body: unknown): boolean => {
  try {
    parseCall(body, operationTable);
    return true;
  } catch {
    return false;
  }
};

/** A value the gateway accepts for the field. */
function goodValue(field: Field): unknown {
  switch (field.type) {
    case 'string':
    case 'identifier':
      return 'abc';
    case 'int':
    case 'wideInt':
      return 1;
    case 'number':
      return '1.5';
    case 'enum':
      return field.values![0]!.toUpperCase();
    case 'json':
      return { any: ['thing'] };
    case 'list':
      return [goodValue(field.element!)];
  }
}

/** Values the gateway refuses for the field (none for json, which takes anything). */
function badValues(field: Field): unknown[] {
  switch (field.type) {
    case 'string':
    case 'identifier':
      // A declaration's text has no length here: the service owns it (catalogue/fields.ts).
      return [{}, true, 'a\u0001b'];
    case 'int':
      return [{}, 1.5, 'one', 2_147_483_648];
    case 'wideInt':
      return [{}, 1.5, 'one', Number.MAX_SAFE_INTEGER + 1];
    case 'number':
      return [{}, 'one'];
    case 'enum':
      return [{}, 'none-of-them'];
    case 'json':
      return [];
    case 'list':
      return [{}, 'a'];
  }
}

function goodBody(entry: OperationEntry): Record<string, unknown> {
  const parameters: Record<string, unknown> = {};
  for (const field of Object.values(entry.input)) if (field.required) parameters[field.v1] = goodValue(field);
  return {
    solution: entry.solution,
    operation: entry.operation,
    ...(VERSIONED_SOLUTIONS.has(entry.solution) ? { version: 1, network: 'sepolia' } : {}),
    parameters,
  };
}

describe('the /v1/call OpenAPI document', () => {
  test('is a valid OpenAPI 3.1 document', async () => {
    const result = await new Validator().validate(structuredClone(doc) as never);
    assert.equal(result.valid, true, JSON.stringify(result.errors, null, 2));
    assert.equal((doc as { openapi: string }).openapi, '3.1.0');
  });

  test('has one schema per operation of the table, reachable through the solution and operation discriminators', () => {
    const mapped = new Set<string>();
    for (const solutionRef of Object.values(schemas['Call']!.discriminator!.mapping)) {
      const solution = schemas[solutionRef.split('/').at(-1)!]!;
      for (const [operation, opRef] of Object.entries(solution.discriminator!.mapping)) {
        assert.ok(schemas[opRef.split('/').at(-1)!], `${operation}: ${opRef} exists`);
        mapped.add(`${opRef}`);
      }
      assert.deepEqual(solution.oneOf!.map((r) => r.$ref).sort(), Object.values(solution.discriminator!.mapping).sort());
    }
    assert.equal(mapped.size, operationTable.entries.length);
  });

  for (const entry of operationTable.entries) {
    test(`${entry.solution} ${entry.operation}: the schema and the gateway agree`, () => {
      const body = goodBody(entry);
      assert.ok(gatewayValid(body), `the gateway takes ${JSON.stringify(body)}`);
      assert.ok(schemaValid(body), `the schema takes ${JSON.stringify(body)}: ${ajv.errorsText(ajv.getSchema('openapi#/components/schemas/Call')!.errors)}`);
      assert.equal(schemaValid({ ...body, operation: `${entry.operation}Nope` }), false, 'an unknown operation');

      const params = body['parameters'] as Record<string, unknown>;
      for (const field of Object.values(entry.input)) {
        const name = field.v1;
        const names = [name, ...field.aliases];
        const without = Object.fromEntries(Object.entries(params).filter(([k]) => !names.includes(k)));
        for (const absent of [undefined, null, '']) {
          const b = { ...body, parameters: absent === undefined ? without : { ...without, [name]: absent } };
          assert.equal(gatewayValid(b), !field.required, `gateway, ${name} = ${String(absent)}`);
          assert.equal(schemaValid(b), !field.required, `schema, ${name} = ${String(absent)}`);
        }
        for (const alias of field.aliases) {
          const b = { ...body, parameters: { ...without, [alias]: goodValue(field) } };
          assert.deepEqual([gatewayValid(b), schemaValid(b)], [true, true], `${name} given as ${alias}`);
        }
        const present = { ...body, parameters: { ...params, [name]: goodValue(field) } };
        assert.deepEqual([gatewayValid(present), schemaValid(present)], [true, true], `${name} = ${JSON.stringify(goodValue(field))}`);
        for (const bad of badValues(field)) {
          const b = { ...body, parameters: { ...params, [name]: bad } };
          assert.deepEqual([gatewayValid(b), schemaValid(b)], [false, false], `${name} (${field.type}) = ${JSON.stringify(bad)}`);
        }
      }
    });
  }
});

describe('the answers of the /v1/call OpenAPI document', () => {
  const answerValid = (entry: OperationEntry, body: unknown): boolean => {
    const validate = ajv.getSchema(`openapi#/components/schemas/Answer_${entry.solution}_${entry.operation}`);
    assert.ok(validate, `Answer_${entry.solution}_${entry.operation} is a component`);
    return validate(body) as boolean;
  };

  test('every operation of the table has a declared answer, and every declared answer an operation', () => {
    const tabled = new Set(operationTable.entries.map((e) => `${e.solution} ${e.operation}`));
    const declared = Object.entries(ANSWERS).flatMap(([solution, answers]) => Object.keys(answers).map((op) => `${solution} ${op}`));
    assert.deepEqual([...tabled].filter((k) => !declared.includes(k)), [], 'operations without an answer');
    assert.deepEqual(declared.filter((k) => !tabled.has(k)), [], 'answers without an operation');
    // The domains of SVC.ESG.Credits declare disjoint operations (a spread would hide a second declaration).
    const esg = [identityAnswers, taxonomyAnswers, frameworkAnswers, portfolioAnswers, blockchainAnswers].flatMap((a) => Object.keys(a));
    assert.equal(new Set(esg).size, esg.length);
  });

  test('the 200 response is typed (any of the answer components) and carries every operation\'s example', () => {
    type Ok = { content: { 'application/json': { schema: { anyOf: { $ref: string }[] }; examples: Record<string, { value: unknown }> } } };
    const ok = (doc as { paths: { '/v1/call': { post: { responses: { '200': Ok } } } } }).paths['/v1/call'].post.responses['200'];
    const media = ok.content['application/json'];
    for (const entry of operationTable.entries) {
      const name = `Answer_${entry.solution}_${entry.operation}`;
      assert.ok(media.schema.anyOf.some((r) => r.$ref === `#/components/schemas/${name}`), `${name} is one of the 200 answers`);
      assert.deepEqual(media.examples[`${entry.solution} ${entry.operation}`]?.value, answerOf(entry.solution, entry.operation)!.example);
      assert.deepEqual((schemas[name] as { examples?: unknown[] }).examples, [answerOf(entry.solution, entry.operation)!.example]);
    }
  });

  test('an answer schema is refused where the document would name an operation without one', () => {
    const entry = { ...operationTable.entries[0]!, operation: 'undeclaredOperation' } as OperationEntry;
    assert.throws(() => openApiDocument({ entries: [entry], find: () => entry }), /No answer is declared for SVC\.ESG\.Credits\/undeclaredOperation/);
  });

  for (const entry of operationTable.entries) {
    test(`${entry.solution} ${entry.operation}: the example is an answer, by the zod schema and by the published JSON Schema`, () => {
      const { answer, example } = answerOf(entry.solution, entry.operation)!;
      const parsed = answer.safeParse(example);
      assert.ok(parsed.success, parsed.success ? '' : parsed.error.message);
      assert.ok(answerValid(entry, example), ajv.errorsText(ajv.getSchema(`openapi#/components/schemas/Answer_${entry.solution}_${entry.operation}`)!.errors));
      // Strict: a key the answer does not have is refused by both.
      const extra = Array.isArray(example) ? [{ ...example[0], unexpected_key: 1 }] : { ...(example as object), unexpected_key: 1, another_key: 2 };
      assert.equal(answer.safeParse(extra).success, false, 'zod refuses an unknown key');
      assert.equal(answerValid(entry, extra), false, 'the JSON Schema refuses an unknown key');
    });
  }
});

describe('GET /v1/openapi.json', () => {
  let t: TestGateway;
  before(async () => {
    t = await startTestGateway();
  });
  after(async () => {
    await t.stop();
  });

  test('serves the document without an API key', async () => {
    const res = await fetch(`${t.baseUrl}/v1/openapi.json`);
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('content-type')?.split(';')[0], 'application/json');
    assert.deepEqual(await res.json(), JSON.parse(JSON.stringify(doc)));
  });
});
