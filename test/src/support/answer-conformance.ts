import assert from 'node:assert/strict';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import { answerOf } from '@green-impact/gateway/catalogue/answers';
import { SOLUTIONS, type Solution } from '@green-impact/gateway/v1/operation';
import { v1Client, type CallResult } from './system.js';

/**
 * A legacy client that holds every 200 answer of the real system to the operation's declared answer
 * (gateway/src/catalogue/<domain>/answers.ts) twice: by the zod schema, and by the JSON Schema that the
 * system publishes at GET /v1/openapi.json (component Answer_<solution>_<operation>), so neither the
 * catalogue nor the published document can drift from what the gateway sends. A drop-in for v1Client.
 */

/** Operations whose 200 answers were held to their schemas in this process: `<solution> <operation>`. */
export const conformingOperations = new Set<string>();

const documents = new Map<string, Promise<Ajv2020>>();

/** The published document of the system at baseUrl, compiled once per process. */
function publishedSchemas(baseUrl: string): Promise<Ajv2020> {
  let compiled = documents.get(baseUrl);
  if (!compiled) {
    compiled = (async () => {
      const res = await fetch(`${baseUrl}/v1/openapi.json`);
      assert.equal(res.status, 200, 'GET /v1/openapi.json');
      // format keywords (uri, date-time) are annotations here, as in OpenAPI 3.1 by default.
      const ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: false });
      ajv.addSchema((await res.json()) as Record<string, unknown>, 'openapi');
      return ajv;
    })();
    documents.set(baseUrl, compiled);
  }
  return compiled;
}

/** Asserts that `body` is a 200 answer of the operation by both schemas. */
export async function assertConformingAnswer(baseUrl: string, solution: string, operation: string, body: unknown): Promise<void> {
  assert.ok((SOLUTIONS as readonly string[]).includes(solution), `unknown solution ${solution}`);
  const declared = answerOf(solution as Solution, operation);
  assert.ok(declared, `${solution} ${operation} declares its answer`);
  const parsed = declared.answer.safeParse(body);
  assert.ok(parsed.success, `${solution} ${operation}: the answer does not match its zod schema: ${parsed.error?.message}\n${JSON.stringify(body)}`);
  const ajv = await publishedSchemas(baseUrl);
  const validate: ValidateFunction | undefined = ajv.getSchema(`openapi#/components/schemas/Answer_${solution}_${operation}`);
  assert.ok(validate, `the published document has Answer_${solution}_${operation}`);
  assert.ok(validate(body), `${solution} ${operation}: the answer does not match the published schema: ${ajv.errorsText(validate.errors)}\n${JSON.stringify(body)}`);
  conformingOperations.add(`${solution} ${operation}`);
}

/** v1Client whose every 200 answer must conform to the operation's declared and published answer. */
export function conformingV1Client(baseUrl: string, apiKey: string) {
  const call = v1Client(baseUrl, apiKey);
  return async (solution: string, operation: string, parameters?: Record<string, unknown>): Promise<CallResult> => {
    const res = await call(solution, operation, parameters);
    if (res.status === 200) await assertConformingAnswer(baseUrl, solution, operation, res.body);
    return res;
  };
}
