import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { serveNftImage } from '@green-impact/testing/gateway/nft-image';
import { startPortfolioGateway } from '@green-impact/testing/gateway/portfolio-gateway';
import type { TestGateway } from '@green-impact/testing/gateway/real-gateway';
import { data, gqlAt, onlyError, type GqlResponse } from '@green-impact/testing/gateway/graphql-calls';

/**
 * The documents and nfts connections are paged by the chain service (the real one, its jobs run on its
 * embedded network): first/after go to ListDocumentJobs / ListNfts as page_size/page_token, and the whole list is
 * never asked for.
 */

const DOCUMENTS = 'query($first: Int, $after: String) { documents(frameworkIdentifier: "GBF", first: $first, after: $after) { nodes { id } pageInfo { hasNextPage endCursor } totalCount } }';
const NFTS = 'query($first: Int, $after: String) { nfts(first: $first, after: $after) { nodes { guid } pageInfo { hasNextPage endCursor } totalCount } }';

let t: TestGateway;
let image: Awaited<ReturnType<typeof serveNftImage>>;
const minted: string[] = [];
const gql = (query: string, variables: Record<string, unknown> = {}): Promise<GqlResponse> => gqlAt(t.baseUrl, query, variables, t.userKey);
const sent = (method: string) => t.chain!.calls.filter((c) => c.method === method).map((c) => JSON.parse(JSON.stringify(c.request)));
type Page = { nodes: Record<string, string>[]; pageInfo: { hasNextPage: boolean; endCursor: string | null }; totalCount: number };

/** Every page of a connection, checking each call carried the page asked for. */
async function allPages(query: string, field: string, method: string, first: number, total: number): Promise<string[]> {
  const seen: string[] = [];
  let cursor: string | null = null;
  for (;;) {
    const p: Page = data(await gql(query, { first, after: cursor }))[field];
    assert.equal(p.totalCount, total);
    seen.push(...p.nodes.map((n) => n['id'] ?? n['guid']!));
    const call = sent(method).at(-1);
    assert.equal(call.pageSize, first);
    assert.equal(call.pageToken, cursor ?? undefined);
    if (!p.pageInfo.hasNextPage) break;
    assert.equal(p.nodes.length, first);
    cursor = p.pageInfo.endCursor;
  }
  return seen;
}

before(async () => {
  // The NFTs' image, fetched by the chain service when it mints: served on loopback.
  image = await serveNftImage();
  t = await startPortfolioGateway({}, { chain: true, nftImage: { allowPrivateHosts: true } });
  data(
    await gql(`mutation {
      y: addYearSpecificsToFramework(input: { identifier: "GBF", year: 2024, valueOutstanding: 1000000, allocatedAmount: 800000, valueOutstandingFramework: true }) { message }
    }`),
  );
  for (let i = 0; i < 5; i++) {
    data(await gql(`mutation { writeFrameworkDocument(input: { identifier: "GBF", year: 2024, format: JSON, network: "sepolia" }) { job { id } } }`));
    const input = { network: 'sepolia', name: `NFT ${i}`, description: '', image: image.url, attributes: [] };
    minted.push(data(await gql(`mutation($input: MintNftInput!) { mintNft(input: $input) { job { nftGuid } } }`, { input }))['mintNft'].job.nftGuid);
    await new Promise((resolve) => setTimeout(resolve, 3)); // distinct creation times: the order is the mint order
  }
});
after(async () => {
  await t.stop();
  await image.close();
});

describe('connections paged by the chain service', () => {
  test('documents: first/after become page_size/page_token; the pages cover the list once, in id order', async () => {
    const before = sent('listDocumentJobs').length;
    const ids = await allPages(DOCUMENTS, 'documents', 'listDocumentJobs', 2, 5);
    assert.equal(ids.length, 5);
    assert.deepEqual([...ids].sort((a, b) => Number(a) - Number(b)), ids);
    assert.ok(sent('listDocumentJobs').slice(before).every((c) => c.pageSize !== undefined), 'the whole list is never asked for');
  });

  test('nfts: first/after become page_size/page_token; the pages cover the list once, newest first', async () => {
    const before = sent('listNfts').length;
    const whole = (data(await gql(NFTS, { first: 1000 }))['nfts'] as Page).nodes.map((n) => n['guid']!);
    assert.deepEqual(whole, [...minted].reverse());
    for (const first of [1, 2, 5]) assert.deepEqual(await allPages(NFTS, 'nfts', 'listNfts', first, 5), whole);
    assert.ok(sent('listNfts').slice(before).every((c) => c.pageSize !== undefined), 'the whole list is never asked for');
  });

  test("a cursor of another list is refused before any call; the service's own checks still apply", async () => {
    const documentCursor = (data(await gql(DOCUMENTS, { first: 1 }))['documents'] as Page).pageInfo.endCursor;
    const nftCursor = (data(await gql(NFTS, { first: 1 }))['nfts'] as Page).pageInfo.endCursor;
    const calls = [sent('listNfts').length, sent('listDocumentJobs').length];
    const refused = { message: 'after must be a pageInfo.endCursor of this list.', code: 'BAD_USER_INPUT' };
    assert.deepEqual(onlyError(await gql(NFTS, { first: 1, after: documentCursor })), refused);
    assert.deepEqual(onlyError(await gql(DOCUMENTS, { first: 1, after: nftCursor })), refused);
    assert.deepEqual([sent('listNfts').length, sent('listDocumentJobs').length], calls);
    assert.equal(onlyError(await gql(NFTS, { first: 0 })).code, 'BAD_USER_INPUT');
  });
});

describe('nfts ordered (orderBy) and paged backward (last/before) by the chain service', () => {
  const QUERY = `query($first: Int, $after: String, $last: Int, $before: String, $orderBy: NftOrder) {
    nfts(first: $first, after: $after, last: $last, before: $before, orderBy: $orderBy) { nodes { guid } edges { cursor } pageInfo { hasNextPage hasPreviousPage startCursor endCursor } totalCount } }`;
  type OrderedPage = { nodes: { guid: string }[]; edges: { cursor: string }[]; pageInfo: { hasNextPage: boolean; hasPreviousPage: boolean; startCursor: string | null; endCursor: string | null }; totalCount: number };
  const page = async (variables: Record<string, unknown>): Promise<OrderedPage> => data(await gql(QUERY, variables))['nfts'];
  const guids = (p: OrderedPage) => p.nodes.map((n) => n.guid);

  test('orderBy reaches the service as page_order; pages forward and backward follow the order', async () => {
    const orderBy = { field: 'ID', direction: 'DESC' };
    const byGuidDesc = [...minted].sort().reverse();
    const whole = await page({ first: 100, orderBy });
    assert.deepEqual(sent('listNfts').at(-1).pageOrder, { field: 'id', descending: true });
    assert.deepEqual(guids(whole), byGuidDesc);
    const forward: string[] = [];
    let after: string | null = null;
    do {
      const p: OrderedPage = await page({ first: 2, after, orderBy });
      forward.push(...guids(p));
      after = p.pageInfo.hasNextPage ? p.pageInfo.endCursor : null;
    } while (after);
    assert.deepEqual(forward, byGuidDesc);
    const last = await page({ last: 2, orderBy });
    assert.deepEqual([guids(last), last.pageInfo.hasPreviousPage, last.edges.map((e) => e.cursor)], [byGuidDesc.slice(3), true, whole.edges.slice(3).map((e) => e.cursor)]);
    const before = await page({ last: 10, before: last.pageInfo.startCursor, orderBy });
    assert.deepEqual([guids(before), before.pageInfo.hasNextPage, before.pageInfo.hasPreviousPage], [byGuidDesc.slice(0, 3), true, false]);
    assert.deepEqual(guids(await page({ first: 100, orderBy: { field: 'CREATED_AT' } })), minted, 'CREATED_AT ascending: the mint order');
  });

  test('without orderBy: newest first as before, also backward; CREATED_AT DESC is that order, its cursors too', async () => {
    const newest = [...minted].reverse();
    const whole = await page({ first: 100 });
    assert.equal(sent('listNfts').at(-1).pageOrder, undefined);
    const last = await page({ last: 2 });
    assert.deepEqual([guids(last), last.pageInfo.hasPreviousPage, last.edges.map((e) => e.cursor)], [newest.slice(3), true, whole.edges.slice(3).map((e) => e.cursor)]);
    assert.deepEqual(guids(await page({ last: 10, before: last.pageInfo.startCursor })), newest.slice(0, 3));
    const same = await page({ first: 2, after: whole.edges[0]!.cursor, orderBy: { field: 'CREATED_AT', direction: 'DESC' } });
    assert.deepEqual([guids(same), same.edges.map((e) => e.cursor)], [newest.slice(1, 3), whole.edges.slice(1, 3).map((e) => e.cursor)]);
  });

  test('a cursor of another order is BAD_USER_INPUT before any call', async () => {
    const byMinted = await page({ first: 1, orderBy: { field: 'MINTED_AT' } });
    const calls = sent('listNfts').length;
    assert.deepEqual(onlyError(await gql(QUERY, { first: 1, after: byMinted.pageInfo.endCursor })), {
      message: 'after must be a pageInfo.endCursor of this list in the same orderBy.',
      code: 'BAD_USER_INPUT',
    });
    assert.deepEqual(onlyError(await gql(QUERY, { last: 1, before: byMinted.pageInfo.endCursor, orderBy: { field: 'MINTED_AT', direction: 'DESC' } })), {
      message: 'before must be a cursor of this list in the same orderBy.',
      code: 'BAD_USER_INPUT',
    });
    assert.equal(sent('listNfts').length, calls);
  });
});

describe('jobs ordered (orderBy) and paged backward (last/before) by the chain service', () => {
  const QUERY = `query($first: Int, $after: String, $last: Int, $before: String, $orderBy: JobOrder) {
    jobs(first: $first, after: $after, last: $last, before: $before, orderBy: $orderBy) { nodes { id kind } edges { cursor } pageInfo { hasNextPage hasPreviousPage startCursor endCursor } } }`;
  type JobPage = { nodes: { id: string; kind: string }[]; edges: { cursor: string }[]; pageInfo: { hasNextPage: boolean; hasPreviousPage: boolean; startCursor: string | null; endCursor: string | null } };
  const page = async (variables: Record<string, unknown>): Promise<JobPage> => data(await gql(QUERY, variables))['jobs'];
  const ids = (p: JobPage) => p.nodes.map((n) => n.id);

  test('orderBy reaches the service as page_order; pages forward and backward follow the order, creation breaking ties', async () => {
    const newest = await page({ first: 500 });
    // Kind going up (as the service names kinds), equal kinds in the order of creation; DESC the reverse.
    const byKind = [...newest.nodes].reverse().sort((a, b) => (a.kind.toLowerCase() < b.kind.toLowerCase() ? -1 : a.kind === b.kind ? 0 : 1));
    const byKindDesc = byKind.map((n) => n.id).reverse();
    assert.ok(new Set(byKind.map((n) => n.kind)).size > 1 && byKind.length >= 10, 'documents and mints');
    const orderBy = { field: 'KIND', direction: 'DESC' };
    assert.deepEqual(ids(await page({ first: 500, orderBy })), byKindDesc);
    assert.deepEqual(sent('listJobs').at(-1).pageOrder, { field: 'kind', descending: true });
    const forward: string[] = [];
    let after: string | null = null;
    do {
      const p: JobPage = await page({ first: 3, after, orderBy });
      forward.push(...ids(p));
      after = p.pageInfo.hasNextPage ? p.pageInfo.endCursor : null;
    } while (after);
    assert.deepEqual(forward, byKindDesc);
    const last = await page({ last: 3, orderBy });
    assert.deepEqual([ids(last), last.pageInfo.hasPreviousPage, last.pageInfo.hasNextPage], [byKindDesc.slice(-3), true, false]);
    const before = await page({ last: 500, before: last.pageInfo.startCursor, orderBy });
    assert.deepEqual([ids(before), before.pageInfo.hasPreviousPage, before.pageInfo.hasNextPage], [byKindDesc.slice(0, -3), false, true]);
    assert.deepEqual(ids(await page({ first: 500, orderBy: { field: 'KIND' } })), byKind.map((n) => n.id));
  });

  test("without orderBy: newest first with the service's own cursors as before, also backward", async () => {
    const newest = await page({ first: 500 });
    assert.equal(sent('listJobs').at(-1).pageOrder, undefined);
    assert.ok(newest.edges.every((e) => /^jobs:\d+$/.test(Buffer.from(e.cursor, 'base64url').toString('utf8'))), 'jobs:<seq> cursors');
    const last = await page({ last: 2 });
    assert.deepEqual([ids(last), last.pageInfo.hasPreviousPage, last.edges.map((e) => e.cursor)], [ids(newest).slice(-2), true, newest.edges.slice(-2).map((e) => e.cursor)]);
    assert.deepEqual(ids(await page({ last: 500, before: last.pageInfo.startCursor })), ids(newest).slice(0, -2));
    assert.deepEqual(ids(await page({ first: 2, after: newest.edges[0]!.cursor, orderBy: { field: 'ID', direction: 'DESC' } })), ids(newest).slice(1, 3));
  });

  test('a cursor of another order, last out of 1..500 and first with last are BAD_USER_INPUT before any call', async () => {
    const byStatus = await page({ first: 1, orderBy: { field: 'STATUS' } });
    const newest = await page({ first: 1 });
    const calls = sent('listJobs').length;
    const refused = async (variables: Record<string, unknown>, message: string) => assert.deepEqual(onlyError(await gql(QUERY, variables)), { message, code: 'BAD_USER_INPUT' });
    await refused({ first: 1, after: byStatus.pageInfo.endCursor }, 'after must be a pageInfo.endCursor of this list in the same orderBy.');
    await refused({ first: 1, after: newest.pageInfo.endCursor, orderBy: { field: 'STATUS' } }, 'after must be a pageInfo.endCursor of this list in the same orderBy.');
    await refused({ last: 1, before: byStatus.pageInfo.endCursor, orderBy: { field: 'KIND' } }, 'before must be a cursor of this list in the same orderBy.');
    await refused({ last: 501 }, 'last must be an integer from 1 to 500, got 501.');
    await refused({ first: 2, last: 1 }, 'first and last cannot be given together: a page is read forward or backward.');
    await refused({ after: newest.pageInfo.endCursor, before: newest.pageInfo.endCursor }, 'after and before cannot be given together.');
    assert.equal(sent('listJobs').length, calls);
  });
});
