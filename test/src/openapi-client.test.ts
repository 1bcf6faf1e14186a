import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import openapiTS, { astToString } from 'openapi-typescript';
import type { RunningSystem } from '@green-impact/embedded/system';
import { testDatabases } from '@green-impact/testing/shared/databases';
import { createUserAccount, ok, startTestSystem } from './support/system.js';
import { assertConformingAnswer, conformingOperations, conformingV1Client } from './support/answer-conformance.js';
import { compileStrictly } from './support/strict-compile.js';

/**
 * The typed client a legacy-API team generates: openapi-typescript over GET /v1/openapi.json of the
 * running system, used through openapi-fetch. Every operation's request is `Call_<solution>_<operation>`
 * and its answer `Answer_<solution>_<operation>`, so a small wrapper gives each call its own types. The
 * client is compiled strictly, where misuses (an unknown operation, a missing parameter, a field the
 * answer does not have, a nullable figure used as a number) must be type errors, and then runs against
 * the system.
 */

const here = path.dirname(fileURLToPath(import.meta.url));
// Under test/ so the generated code resolves openapi-fetch from node_modules.
const outDir = path.join(here, `openapi-client-${process.pid}`);
const OPERATOR = 'openapi-client-operator-key';
const ESG = 'SVC.ESG.Credits';

const CLIENT = `
import createClient from 'openapi-fetch';
import type { components, paths } from './v1.js';

type Schemas = components['schemas'];
type Esg = 'SVC.ESG.Credits';
/** The operations of SVC.ESG.Credits, read off the generated call schemas. */
export type EsgOperation = keyof Schemas extends infer K ? (K extends \`Call_\${Esg}_\${infer O}\` ? O : never) : never;
type CallOf<O extends EsgOperation> = Schemas[\`Call_\${Esg}_\${O}\`];
export type AnswerOf<O extends EsgOperation> = Schemas[\`Answer_\${Esg}_\${O}\`];

/** One typed function per operation: its parameters in, its answer out, failures thrown with their code. */
export function esgClient(baseUrl: string, apiKey: string) {
  const client = createClient<paths>({ baseUrl, headers: { 'x-api-key': apiKey } });
  return async <O extends EsgOperation>(operation: O, parameters: CallOf<O>['parameters']): Promise<AnswerOf<O>> => {
    const body = { solution: 'SVC.ESG.Credits', operation, parameters } as CallOf<O>;
    const { data, error, response } = await client.POST('/v1/call', { body });
    if (error !== undefined) throw new Error(\`\${response.status} \${error.code}: \${error.message}\`);
    // The 200 answer is any operation's; the operation sent picks which (the system's contract, checked by the test).
    return data as AnswerOf<O>;
  };
}

export async function run(url: string, operatorKey: string, issuerKey: string) {
  const operator = esgClient(url, operatorKey);
  const issuer = esgClient(url, issuerKey);
  const added: AnswerOf<'addCurrency'> = await operator('addCurrency', { currency_code: 'QZX' });
  const currencies = await issuer('getCurrencies', null);
  const codes: string[] = currencies.map((c) => c.currency_code);
  const framework = await issuer('addFramework', {
    framework_identifier: 'OA-1',
    framework_name: 'OpenAPI framework',
    framework_currency_code: 'QZX',
    framework_visibility: 'public',
  });
  await issuer('addYearSpecificsToFramework', {
    framework_identifier: 'OA-1',
    value_outstanding: 1000000,
    allocated_amount: 750000,
    value_outstanding_framework: 'yes',
    reporting_year: 2024,
  });
  const frameworks = await issuer('getFrameworks', { reporting_year: 2024 });
  const summaries = frameworks.map((f) => ({
    identifier: f.framework_identifier,
    // null without year specifics: the generated type makes the client say what it does then.
    outstanding: f.framework_value_outstanding ?? 0,
    visibility: f.framework_visibility,
  }));
  const removed = await issuer('removeFramework', { framework_identifier: 'OA-1' });
  return { added: added.message, codes, framework: framework.message, summaries, removed: removed.message };
}

/** Never called: each line below must be a type error, or the compile fails on an unused directive. */
export async function misuses(call: ReturnType<typeof esgClient>) {
  // @ts-expect-error no such operation
  await call('getCurrencys', null);
  // @ts-expect-error framework_identifier and the other required parameters are missing
  await call('addFramework', { framework_name: 'x' });
  const currencies = await call('getCurrencies', null);
  // @ts-expect-error a currency row has no currency_name
  void currencies[0]?.currency_name;
  // @ts-expect-error an id is a number
  const id: string = currencies[0]!.id;
  void id;
  const [summary] = await call('getFrameworks', { reporting_year: 2024 });
  // @ts-expect-error the figure is null without year specifics: it must be checked before use
  const outstanding: number = summary!.framework_value_outstanding;
  void outstanding;
  // @ts-expect-error visibility is public or private
  const hidden: 'hidden' = summary!.framework_visibility;
  void hidden;
}
`;

describe('the typed client generated from GET /v1/openapi.json', () => {
  let system: RunningSystem;
  before(async () => {
    mkdirSync(outDir, { recursive: true });
    system = await startTestSystem(testDatabases[0]!, OPERATOR);
  });
  after(async () => {
    await system?.stop();
    rmSync(outDir, { recursive: true, force: true });
  });

  it('compiles strictly, refuses misuses at compile time and runs calls against the system with typed answers', async (t) => {
    const published = (await (await fetch(`${system.gatewayUrl}/v1/openapi.json`)).json()) as Record<string, unknown>;
    writeFileSync(path.join(outDir, 'v1.ts'), astToString(await openapiTS(published as never)));
    writeFileSync(path.join(outDir, 'client.ts'), CLIENT);

    const client = await compileStrictly<{
      run(url: string, operatorKey: string, issuerKey: string): Promise<{
        added: string;
        codes: string[];
        framework: string;
        summaries: { identifier: string; outstanding: number; visibility: string }[];
        removed: string;
      }>;
    }>(outDir, 'client.ts');
    const issuerKey = await createUserAccount(system.gatewayUrl, OPERATOR, 'OpenAPI issuer');
    const result = await client.run(system.gatewayUrl, OPERATOR, issuerKey);
    t.diagnostic(JSON.stringify({ ...result, codes: result.codes.length }));
    assert.match(result.added, /^Currency added with id \d+\.$/);
    assert.ok(result.codes.includes('QZX'), result.codes.join(', '));
    assert.match(result.framework, /^Framework added with id \d+\.$/);
    assert.deepEqual(result.summaries, [{ identifier: 'OA-1', outstanding: 1_000_000, visibility: 'public' }]);
    assert.equal(result.removed, 'Framework removed.');
  });

  it('answers the flows the other e2e suites leave out as their schemas say', async () => {
    const call = conformingV1Client(system.gatewayUrl, OPERATOR);
    const idOf = (answer: { message: string }) => Number(/(\d+)\.$/.exec(answer.message)?.[1]);
    const year = { reporting_year: 2024, language_code: 'en' };
    const category = idOf(await ok(call(ESG, 'addCategory', { ...year, category_name: 'Transport' }), 'addCategory'));
    const unit = idOf(await ok(call(ESG, 'addUnit', { ...year, unit_name: 'km' }), 'addUnit'));
    const superIndicator = idOf(await ok(call(ESG, 'addSuperIndicator', { ...year, super_indicator_name: 'Mobility', category_id: category }), 'addSuperIndicator'));
    await ok(call(ESG, 'addIndicator', { ...year, indicator_name: 'Distance avoided', super_indicator_id: superIndicator, unit_id: unit }), 'addIndicator');
    const superIndicators = await ok(call(ESG, 'getSuperIndicators', year), 'getSuperIndicators');
    assert.deepEqual(superIndicators.map((s: { super_indicator_name: string }) => s.super_indicator_name), ['Mobility']);
    const [indicator] = await ok(call(ESG, 'getIndicators', year), 'getIndicators');
    assert.equal(indicator.unit_name, 'km');
    await ok(call(ESG, 'addCurrency', { currency_code: 'QZY' }), 'addCurrency');
    assert.deepEqual(await ok(call(ESG, 'removeCurrency', { currency_code: 'QZY' }), 'removeCurrency'), { message: 'Currency removed.' });
    await ok(call(ESG, 'addUser', { user_identifier: 'oa-user' }), 'addUser');
    await ok(call(ESG, 'removeUser', { user_identifier: 'oa-user' }), 'removeUser');
    for (const operation of ['getSuperIndicators', 'getIndicators', 'removeCurrency', 'removeUser']) {
      assert.ok(conformingOperations.has(`${ESG} ${operation}`), operation);
    }
  });

  it('a misuse the types refuse is also refused by the system (the compile-time errors are real ones)', async () => {
    const res = await fetch(`${system.gatewayUrl}/v1/call`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': OPERATOR },
      body: JSON.stringify({ solution: 'SVC.ESG.Credits', operation: 'getCurrencys' }),
    });
    assert.equal(res.status, 400);
    const answer = await fetch(`${system.gatewayUrl}/v1/call`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': OPERATOR },
      body: JSON.stringify({ solution: 'SVC.ESG.Credits', operation: 'getCurrencies' }),
    });
    assert.equal(answer.status, 200);
    await assertConformingAnswer(system.gatewayUrl, 'SVC.ESG.Credits', 'getCurrencies', await answer.json());
  });
});
