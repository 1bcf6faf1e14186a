import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { RunningSystem } from '@green-impact/embedded/system';
import { testDatabases } from '@green-impact/testing/shared/databases';
import { startTestSystem } from './support/system.js';
import { compileStrictly } from './support/strict-compile.js';

/**
 * The typed client a frontend team generates: GraphQL Code Generator over the committed contract
 * (docs/schema.graphql) and clients/typescript/operations.graphql (scripts/codegen.mjs, `npm run codegen`).
 * The generated TypedDocumentNodes are compiled strictly with a client that uses them through
 * graphql-request, where misuses (a wrong variable type, a missing variable, a field not selected) must
 * be type errors, and that client then runs against the whole system.
 */

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '../..');
// Under test/ so the generated code resolves graphql-request and @graphql-typed-document-node from node_modules.
const outDir = path.join(here, `codegen-client-${process.pid}`);
const OPERATOR = 'codegen-operator-key';

const CLIENT = `
import { GraphQLClient } from 'graphql-request';
import {
  AddCurrencyDocument, AddFrameworkDocument, CreateAccountDocument, FrameworksDocument, InsertStringDocument, JobDocument,
  type CreateAccountMutation, type FrameworksQuery, type InsertStringMutation, type JobQuery,
} from './graphql.js';

const at = (url: string, apiKey: string) => new GraphQLClient(url + '/graphql', { headers: { 'x-api-key': apiKey } });

export async function run(url: string, operatorKey: string) {
  const operator = at(url, operatorKey);
  const { createAccount } = await operator.request(CreateAccountDocument, { name: 'Codegen issuer' });
  // Null only next to userErrors (a refused change); the generated type says so.
  if (!createAccount.apiKey) throw new Error(createAccount.userErrors.map((e) => \`\${e.code}: \${e.message}\`).join('; '));
  const issuer = at(url, createAccount.apiKey);
  const currency = await operator.request(AddCurrencyDocument, { code: 'QZX' });
  const added = await issuer.request(AddFrameworkDocument, {
    input: { identifier: 'CG-1', name: 'Codegen framework', currencyCode: 'QZX', visibility: 'PUBLIC' },
  });
  const page: FrameworksQuery = await issuer.request(FrameworksDocument, { year: 2024, first: 10 });
  const { insertString } = await issuer.request(InsertStringDocument, { input: { network: 'sepolia', key: 'codegen', value: 'typed' } });
  const queued = insertString.job;
  if (!queued) throw new Error(insertString.userErrors.map((e) => \`\${e.code}: \${e.message}\`).join('; '));
  let job: JobQuery['job'] = null;
  for (const deadline = Date.now() + 30_000; Date.now() < deadline; await new Promise((r) => setTimeout(r, 50))) {
    job = (await issuer.request(JobDocument, { id: queued.id })).job;
    if (job && (job.status === 'COMPLETED' || job.status === 'FAILED')) break;
  }
  return { currency: currency.addCurrency.message, added: added.addFramework, page: page.frameworks, job };
}

/** Never called: each line below must be a type error, or the compile fails on an unused directive. */
export function misuses(client: GraphQLClient, page: FrameworksQuery) {
  // @ts-expect-error year is an Int
  void client.request(FrameworksDocument, { year: '2024' });
  // @ts-expect-error input is required
  void client.request(AddFrameworkDocument, {});
  // @ts-expect-error visibility is PUBLIC or PRIVATE
  void client.request(AddFrameworkDocument, { input: { identifier: 'x', name: 'x', currencyCode: 'EUR', visibility: 'SECRET' } });
  // @ts-expect-error the key is null when the change was refused: it must be checked before use
  const key: string = ({} as CreateAccountMutation['createAccount']).apiKey;
  void key;
  // @ts-expect-error the job is null when the write was refused (issue 29): userErrors say why
  const jobId: string = ({} as InsertStringMutation['insertString']).job.id;
  void jobId;
  // @ts-expect-error rows were not selected
  return page.frameworks.nodes[0]?.rows;
}
`;

describe('the typed client generated from docs/schema.graphql', () => {
  let system: RunningSystem;
  before(async () => {
    mkdirSync(outDir, { recursive: true });
    system = await startTestSystem(testDatabases[0]!, OPERATOR);
  });
  after(async () => {
    await system?.stop();
    rmSync(outDir, { recursive: true, force: true });
  });

  it('compiles strictly, refuses misuses at compile time and runs an issuer flow against the system', async (t) => {
    const { generateClient } = (await import(pathToFileURL(path.join(root, 'scripts/codegen.mjs')).href)) as {
      generateClient(): Promise<string>;
    };
    writeFileSync(path.join(outDir, 'graphql.ts'), await generateClient());
    writeFileSync(path.join(outDir, 'client.ts'), CLIENT);

    const client = await compileStrictly<{
      run(url: string, key: string): Promise<{ currency: string; added: { message: string; id: string | null }; page: { totalCount: number; nodes: { identifier: string }[] }; job: { status: string; kind: string; keyValue: { key: string; value: string | null } | null } | null }>;
    }>(outDir, 'client.ts');
    const result = await client.run(system.gatewayUrl, OPERATOR);
    t.diagnostic(JSON.stringify({ currency: result.currency, added: result.added, frameworks: result.page.totalCount, job: result.job?.status }));
    assert.match(result.currency, /^Currency added with id \d+\.$/);
    assert.ok(result.added.message.length > 0);
    assert.deepEqual(result.page.nodes.map((n) => n.identifier), ['CG-1']);
    assert.equal(result.job?.status, 'COMPLETED');
    assert.equal(result.job?.kind, 'KV_INSERT_STRING');
    assert.deepEqual(result.job?.keyValue && { key: result.job.keyValue.key, value: result.job.keyValue.value }, { key: 'codegen', value: 'typed' });
  });
});
