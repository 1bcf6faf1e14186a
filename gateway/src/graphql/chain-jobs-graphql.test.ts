import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { JobStatus } from '@green-impact/proto/greenimpact/chain/v1/chain';
import { startTestGateway, type TestGateway } from '@green-impact/testing/gateway/real-gateway';
import { data, gqlAt, onlyError, type GqlResponse } from '@green-impact/testing/gateway/graphql-calls';

/**
 * GraphQL over key-value jobs, job listings and networks, on the real services: identity and the chain
 * service running its jobs on its embedded network. The texts of refusals are the chain service's, named as
 * the caller named the field (`input.key`), from one declaration per operation (catalogue/chain/).
 */

let t: TestGateway;
const gql = (query: string, variables: Record<string, unknown> = {}, apiKey: string | null = t.userKey): Promise<GqlResponse> =>
  gqlAt(t.baseUrl, query, variables, apiKey);

before(async () => {
  t = await startTestGateway({}, { chain: true });
});
after(async () => {
  await t.stop();
});

describe('key-value jobs, listings and networks', () => {
  test('insert and select; the selected value arrives in keyValue', async () => {
    const inserted = data(await gql(`mutation { insertBytes32(input: { network: "sepolia", key: "k1", value: "ééé" }) { job { id kind status key request } } }`))['insertBytes32'].job;
    assert.deepEqual({ kind: inserted.kind, key: inserted.key }, { kind: 'KV_INSERT_BYTES32', key: 'k1' });
    assert.ok(['QUEUED', 'SUBMITTED', 'COMPLETED'].includes(inserted.status), inserted.status);
    assert.deepEqual(inserted.request, { solution: 'SVC.Blockchain.Hash', version: 1, network: 'sepolia', operation: 'insertBytes32', parameters: { key: 'k1', value: 'ééé' } });
    assert.equal((await t.settledJob(inserted.id)).status, JobStatus.JOB_STATUS_COMPLETED);
    const selected = data(await gql(`mutation { selectBytes32(input: { network: "sepolia", key: "k1" }) { job { id } } }`))['selectBytes32'].job;
    assert.equal((await t.settledJob(selected.id)).status, JobStatus.JOB_STATUS_COMPLETED);
    const job = data(await gql(`query($id: ID!) { job(id: $id) { status keyValue { key value found } result } }`, { id: selected.id }))['job'];
    assert.deepEqual(job, { status: 'COMPLETED', keyValue: { key: 'k1', value: 'ééé', found: true }, result: { key: 'k1', value: 'ééé' } });
    // Filtered by status and kind.
    const done = data(await gql(`{ jobs(kind: KV_INSERT_BYTES32, status: COMPLETED) { nodes { id status } } }`))['jobs'];
    assert.deepEqual(done.nodes, [{ id: inserted.id, status: 'COMPLETED' }]);
    assert.deepEqual(data(await gql(`{ jobs(kind: KV_INSERT_BYTES32, status: FAILED) { nodes { id } } }`))['jobs'].nodes, []);
    const sent = t.chain!.calls.filter((c) => c.method === 'insertBytes32').at(-1)!;
    assert.equal(sent.caller?.accountId, t.user.accountId);
  });

  test("the chain service's limits, with messages naming the input fields: in userErrors with a path when selected (issue 29), else in errors", async () => {
    /** The payload of `field` when `input` is refused: no job, the mistake in userErrors, nothing in errors. */
    const refused = async (field: string, input: string) => {
      const res = await gql(`mutation { ${field}(input: { ${input} }) { job { id } userErrors { message code path } } }`);
      assert.equal(res.body.errors, undefined, JSON.stringify(res.body.errors));
      assert.equal(data(res)[field].job, null);
      return data(res)[field].userErrors;
    };
    assert.deepEqual(await refused('insertString', `network: "sepolia", key: "${'k'.repeat(33)}", value: "v"`), [
      { message: 'input.key must be at most 32 characters, got 33.', code: 'BAD_USER_INPUT', path: ['input', 'key'] },
    ]);
    assert.deepEqual(await refused('insertBytes32', `network: "sepolia", key: "k", value: "é${'v'.repeat(31)}"`), [
      { message: 'input.value must be at most 32 characters and 32 bytes (UTF-8) for insertBytes32, got 32 characters, 33 bytes.', code: 'BAD_USER_INPUT', path: ['input', 'value'] },
    ]);
    assert.deepEqual(await refused('selectString', `network: "sepolia", key: "k", idempotencyKey: "${'i'.repeat(256)}"`), [
      { message: 'input.idempotencyKey must be at most 255 characters.', code: 'BAD_USER_INPUT', path: ['input', 'idempotencyKey'] },
    ]);
    assert.deepEqual(await refused('selectBytes32', 'network: "goerli", key: "k"'), [
      { message: 'Unknown network "goerli"; expected one of sepolia, amoy, mumbai.', code: 'BAD_USER_INPUT', path: ['input', 'network'] },
    ]);
    assert.deepEqual(onlyError(await gql(`mutation { insertString(input: { network: "sepolia", key: "${'k'.repeat(33)}", value: "v" }) { job { id } } }`)), {
      message: 'input.key must be at most 32 characters, got 33.', code: 'BAD_USER_INPUT',
    });
    assert.deepEqual(onlyError(await gql(`{ jobs(first: 501) { nodes { id } } }`)), { message: 'first must be at most 500.', code: 'BAD_USER_INPUT' });
  });

  test('jobs: newest first, filtered by kind, paged; each edge resumes after its job', async () => {
    for (const key of ['p1', 'p2', 'p3']) data(await gql(`mutation { insertString(input: { network: "amoy", key: "${key}", value: "v" }) { job { id } } }`));
    const page1 = data(await gql(`{ jobs(kind: KV_INSERT_STRING, first: 2) { nodes { key } pageInfo { hasNextPage endCursor } } }`))['jobs'];
    assert.deepEqual(page1.nodes, [{ key: 'p3' }, { key: 'p2' }]);
    assert.equal(page1.pageInfo.hasNextPage, true);
    const page2 = data(await gql(`query($after: String) { jobs(kind: KV_INSERT_STRING, first: 2, after: $after) { nodes { key } pageInfo { hasNextPage } } }`, { after: page1.pageInfo.endCursor }))['jobs'];
    assert.deepEqual(page2, { nodes: [{ key: 'p1' }], pageInfo: { hasNextPage: false } });
    const listed = t.chain!.calls.filter((c) => c.method === 'listJobs').at(-2)!.request as { pageSize: number };
    assert.equal(listed.pageSize, 2);
    const edges = data(await gql(`{ jobs(kind: KV_INSERT_STRING, first: 3) { edges { cursor node { key } } pageInfo { hasPreviousPage startCursor endCursor } } }`))['jobs'];
    assert.deepEqual(edges.edges.map((e: { node: { key: string } }) => e.node.key), ['p3', 'p2', 'p1']);
    assert.deepEqual(edges.pageInfo, { hasPreviousPage: false, startCursor: edges.edges[0].cursor, endCursor: edges.edges[2].cursor });
    const afterFirst = data(await gql(`query($after: String) { jobs(kind: KV_INSERT_STRING, first: 5, after: $after) { nodes { key } pageInfo { hasPreviousPage } } }`, { after: edges.edges[0].cursor }))['jobs'];
    assert.deepEqual(afterFirst, { nodes: [{ key: 'p2' }, { key: 'p1' }], pageInfo: { hasPreviousPage: true } });
  });

  test('networks, with the legacy alias marked', async () => {
    const { networks } = data(await gql('{ networks { name chainId aliasOf explorerUrl embedded nftContractAddress } }'));
    assert.deepEqual(networks.map((n: { name: string; aliasOf: string | null }) => [n.name, n.aliasOf]), [['sepolia', null], ['amoy', null], ['mumbai', 'amoy']]);
    const [sepolia, amoy, mumbai] = networks;
    // The embedded networks: their chain ids, no explorer (null, not ''), their contracts deployed.
    assert.equal(mumbai.chainId, amoy.chainId);
    assert.notEqual(sepolia.chainId, amoy.chainId);
    for (const n of networks) {
      assert.equal(n.embedded, true);
      assert.equal(n.explorerUrl, null);
      assert.match(n.nftContractAddress, /^0x[0-9a-fA-F]{40}$/);
    }
  });

  test('documents needs a subject; no key is UNAUTHENTICATED', async () => {
    // The chain service says what a listing needs.
    const needs = { message: 'framework_identifier, or investor_identifier with position_id, is required.', code: 'BAD_USER_INPUT' };
    assert.deepEqual(onlyError(await gql('{ documents { nodes { id } } }')), needs);
    assert.deepEqual(onlyError(await gql('{ documents(investorIdentifier: "inv_1") { nodes { id } } }')), needs);
    assert.equal(onlyError(await gql('{ networks { name } }', {}, '')).code, 'UNAUTHENTICATED');
  });
});
