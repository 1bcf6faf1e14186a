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
