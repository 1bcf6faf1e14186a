import assert from 'node:assert/strict';
import { createLogger } from '@green-impact/shared/logger';
import { createScratchPostgresDatabase, type TestDatabase } from '@green-impact/testing/shared/databases';
import { startSystem, type RunningSystem, type SystemOptions } from '@green-impact/embedded/system';

/** What a suite may set besides the database: the NFT settings (SMTP server, image fetching), the link secret. */
export type TestSystemOptions = Pick<SystemOptions, 'nfts' | 'gatewayDocumentLinks' | 'listingLimits' | 'pdfRenderer' | 'pdfRendererUrl' | 'chain'>;

/** The whole system in this process (as `npm start` runs it) on the given test database. */
export async function startTestSystem(db: TestDatabase, bootstrapApiKey: string, extra: TestSystemOptions = {}): Promise<RunningSystem> {
  const log = createLogger('e2e');
  if (db.name === 'pglite') {
    return startSystem({ port: 0, host: '127.0.0.1', bootstrapApiKey, log, nodeEnv: 'test', ...extra });
  }
  const scratch = await createScratchPostgresDatabase();
  const system = await startSystem({ port: 0, host: '127.0.0.1', databaseUrl: scratch.url, bootstrapApiKey, log, nodeEnv: 'test', ...extra });
  return {
    ...system,
    async stop() {
      await system.stop();
      await scratch.stop();
    },
  };
}

export interface CallResult {
  status: number;
  body: any;
}

/** A legacy client: POST /v1/call with X-Api-Key. */
export function v1Client(baseUrl: string, apiKey: string) {
  return async (solution: string, operation: string, parameters?: Record<string, unknown>): Promise<CallResult> => {
    const res = await fetch(`${baseUrl}/v1/call`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': apiKey },
      body: JSON.stringify({ solution, operation, ...(parameters ? { parameters } : {}) }),
    });
    return { status: res.status, body: await res.json() };
  };
}

/** A frontend client: POST /graphql. */
export function graphqlClient(baseUrl: string, apiKey: string) {
  return async (query: string, variables?: Record<string, unknown>): Promise<{ data?: any; errors?: any[] }> => {
    const res = await fetch(`${baseUrl}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': apiKey },
      body: JSON.stringify({ query, variables }),
    });
    return (await res.json()) as { data?: any; errors?: any[] };
  };
}

/** Creates a USER account with the operator's key (GraphQL createAccount) and answers its first API key. */
export async function createUserAccount(baseUrl: string, operatorKey: string, name: string): Promise<string> {
  const res = await graphqlClient(baseUrl, operatorKey)(
    'mutation($name: String!) { createAccount(input: {name: $name, role: USER}) { apiKey } }',
    { name },
  );
  if (res.errors || !res.data?.createAccount?.apiKey) throw new Error(`createAccount failed: ${JSON.stringify(res.errors)}`);
  return res.data.createAccount.apiKey as string;
}

/** The body of a /v1/call answer that must be 200. */
export async function ok(call: Promise<CallResult>, what: string): Promise<any> {
  const res = await call;
  assert.equal(res.status, 200, `${what}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

/** A /v1/call answer that must be refused with this status and code (and message, when given). */
export async function refused(call: Promise<CallResult>, status: number, code: string, message?: string | RegExp): Promise<void> {
  const res = await call;
  assert.equal(res.status, status, JSON.stringify(res.body));
  assert.equal(res.body.code, code, JSON.stringify(res.body));
  if (typeof message === 'string') assert.equal(res.body.message, message);
  else if (message) assert.match(res.body.message, message);
}
