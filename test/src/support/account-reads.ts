import assert from 'node:assert/strict';
import { graphqlClient, v1Client } from './system.js';

/** One of an account's chain jobs as GraphQL lists it. */
export interface ListedJob {
  id: string;
  key: string | null;
  status: string;
  error: string | null;
  attempts: number;
  txHash: string | null;
  idempotencyKey: string | null;
}

/** Every job of the account (all pages of GraphQL `jobs`), newest first. */
export async function listJobs(baseUrl: string, apiKey: string): Promise<ListedJob[]> {
  const gql = graphqlClient(baseUrl, apiKey);
  const all: ListedJob[] = [];
  for (let after: string | null = null; ; ) {
    const res: { data?: any; errors?: unknown[] } = await gql(
      'query($after: String) { jobs(first: 500, after: $after) { nodes { id key status error attempts txHash idempotencyKey } pageInfo { hasNextPage endCursor } } }',
      { after },
    );
    assert.equal(res.errors, undefined, JSON.stringify(res.errors));
    all.push(...res.data.jobs.nodes);
    if (!res.data.jobs.pageInfo.hasNextPage) return all;
    after = res.data.jobs.pageInfo.endCursor;
  }
}

/** Identifiers of the account's users (/v1/call getUsers), one entry per stored row. */
export async function listUserIdentifiers(baseUrl: string, apiKey: string): Promise<string[]> {
  const res = await v1Client(baseUrl, apiKey)('SVC.ESG.Credits', 'getUsers', {});
  assert.equal(res.status, 200, JSON.stringify(res.body));
  return (res.body as { user_identifier: string }[]).map((u) => u.user_identifier);
}

/** Identifiers of the account's investors (GraphQL `investors`, every page), one entry per stored row. */
export async function listInvestorIdentifiers(baseUrl: string, apiKey: string): Promise<string[]> {
  const identifiers: string[] = [];
  for (let after: string | null = null; ; ) {
    const res: { data?: any; errors?: unknown[] } = await graphqlClient(baseUrl, apiKey)(
      'query($after: String) { investors(first: 1000, after: $after) { nodes { identifier } pageInfo { hasNextPage endCursor } } }',
      { after },
    );
    assert.equal(res.errors, undefined, JSON.stringify(res.errors));
    identifiers.push(...(res.data.investors.nodes as { identifier: string }[]).map((i) => i.identifier));
    if (!res.data.investors.pageInfo.hasNextPage) return identifiers;
    after = res.data.investors.pageInfo.endCursor;
  }
}

/** How often each name occurs: a test asserts 1 for every write that must be there. */
export function countsOf(names: string[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const n of names) counts.set(n, (counts.get(n) ?? 0) + 1);
  return counts;
}
