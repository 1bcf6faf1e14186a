import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { JobStatus } from '@green-impact/proto/greenimpact/chain/v1/chain';
import { startTestGateway, type TestGateway } from '@green-impact/testing/gateway/real-gateway';
import { serveNftImage } from '@green-impact/testing/gateway/nft-image';
import { data, gqlAt, onlyError, type GqlResponse } from '@green-impact/testing/gateway/graphql-calls';

/**
 * Relay's Object Identification against the real services: every Node type's nodeId refetches,
 * through node(id:), the object the read that gave it answered; visibility and PII are those of the
 * type's own reads; ids this API did not give out are INVALID_ARGUMENT; nodes(ids:) keeps order.
 * The user's key is account Acme's, the operator's the bootstrap operator's.
 */

const KEY = 'c'.repeat(64);
let t: TestGateway;

const gql = (query: string, variables: Record<string, unknown> = {}, apiKey: string | null = t.userKey): Promise<GqlResponse> =>
  gqlAt(t.baseUrl, query, variables, apiKey);
const b64 = (text: string) => Buffer.from(text).toString('base64url');

/** Fields read of each type, by the read that gives the object and by node(id:) alike. */
const FIELDS: Record<string, string> = {
  Framework: 'nodeId id identifier year visibility owned yearSpecifics { valueOutstanding }',
  Project: 'nodeId id identifier year allocatedAmount frameworkIdentifier',
  Asset: 'nodeId id identifier name visibility owned',
  Investor: 'nodeId id identifier name email masked',
  Position: 'nodeId id amount investor { identifier name masked } asset { identifier }',
  Portfolio: 'nodeId id identifier investor { identifier name }',
  User: 'nodeId id identifier firstName masked',
  Account: 'nodeId id name role',
  Job: 'nodeId id kind status nftGuid',
  Nft: 'nodeId guid network status',
  ImpactRecomputeJob: 'nodeId id scope status',
  Category: 'nodeId id name year languageCode',
  SubCategory: 'nodeId id name year category { nodeId }',
  SuperIndicator: 'nodeId id name year',
  Indicator: 'nodeId id name year unit { nodeId name }',
  Unit: 'nodeId id name year',
};

const nodeQuery = (type: string) => `query($id: ID!) { node(id: $id) { __typename nodeId ... on ${type} { ${FIELDS[type]} } } }`;

/** node(id:) of the object answers the same object, typed. */
async function refetches(type: string, read: Record<string, unknown>, apiKey = t.userKey) {
  assert.equal(typeof read['nodeId'], 'string', type);
  const found = data(await gql(nodeQuery(type), { id: read['nodeId'] }, apiKey))['node'];
  assert.deepEqual(found, { __typename: type, ...read }, type);
}

const read: Record<string, Record<string, any>> = {};
let images: Awaited<ReturnType<typeof serveNftImage>>;

before(async () => {
  images = await serveNftImage();
  // The NFT's image is fetched for real: from this process, on loopback.
  t = await startTestGateway({}, { portfolio: true, chain: true, nftImage: { allowPrivateHosts: true } });
  await t.loadExampleTaxonomy();
  const added = data(
    await gql(
      `mutation($key: String!) {
        f: addFramework(input: { identifier: "GBF", name: "Green Bond Framework", currencyCode: "EUR", visibility: PUBLIC }) { id }
        y: addYearSpecificsToFramework(input: { identifier: "GBF", year: 2024, valueOutstanding: 800000, allocatedAmount: 1000000, valueOutstandingFramework: false }) { message }
        pr: addProject(input: { identifier: "PRJ", name: "Wind", currencyCode: "EUR", frameworkIdentifier: "GBF" }) { id }
        py: addYearSpecificsToProject(input: { identifier: "PRJ", year: 2024, allocatedAmount: 5000 }) { message }
        a: addAsset(input: { identifier: "SE0001", name: "Green bond", issuerIdentifier: "ISS-1", frameworkIdentifier: "GBF", currencyCode: "EUR", visibility: PUBLIC }) { id }
        i: addInvestor(input: { identifier: "inv_1", name: "Ann Investor", currencyCode: "EUR", email: "ann@example.org", encryptionKey: $key }) { id }
        p: addPosition(input: { investorIdentifier: "inv_1", assetIdentifier: "SE0001", amount: 250000, currencyCode: "EUR" }) { id }
        u: addUser(input: { userIdentifier: "u1", firstName: "Ada", encryptionKey: $key }) { message }
      }`,
      { key: KEY },
    ),
  );
  data(await gql('mutation { addPortfolio(investorIdentifier: "inv_1", identifier: "core") { message } }'));
  const linked = 'mutation($id: ID!) { addPositionToPortfolio(investorIdentifier: "inv_1", portfolioIdentifier: "core", positionId: $id) { message } }';
  data(await gql(linked, { id: added['p'].id }));
  data(await gql('mutation { addFramework(input: { identifier: "OPS", name: "Operator private", currencyCode: "EUR", visibility: PRIVATE }) { id } }', {}, t.operatorKey));
  // A recompute job of the account, read once it has settled (its status no longer changes under the reads).
  const recompute = data(await gql('mutation { startImpactRecompute(scope: ACCOUNT, year: 2024) { job { id } } }'))['startImpactRecompute'].job;
  for (const deadline = Date.now() + 30_000; ; await new Promise((resolve) => setTimeout(resolve, 100))) {
    const { status } = data(await gql('query($id: ID!) { impactRecomputeJob(id: $id) { status } }', { id: recompute.id }))['impactRecomputeJob'];
    if (status === 'COMPLETED' || status === 'FAILED') break;
    assert.ok(Date.now() < deadline, `recompute job still ${status}`);
  }

  const reads = data(
    await gql(`{
      frameworks(year: 2024) { nodes { ${FIELDS['Framework']} } }
      projects(year: 2024) { nodes { ${FIELDS['Project']} } }
      assets { nodes { ${FIELDS['Asset']} } }
      investors { nodes { ${FIELDS['Investor']} } }
      positions { nodes { ${FIELDS['Position']} } }
      portfolios { nodes { ${FIELDS['Portfolio']} } }
      users { nodes { ${FIELDS['User']} } }
      me { ${FIELDS['Account']} }
      impactRecomputeJobs { nodes { ${FIELDS['ImpactRecomputeJob']} } }
    }`),
  );
  for (const type of ['Framework', 'Project', 'Asset', 'Investor', 'Position', 'Portfolio', 'User', 'ImpactRecomputeJob']) {
    const list = reads[`${type[0]!.toLowerCase()}${type.slice(1)}s`].nodes;
    assert.equal(list.length, 1, type);
    read[type] = list[0];
  }
  read['Account'] = reads['me'];
  const taxonomy = data(
    await gql(`{
      categories(year: 2024) { ${FIELDS['Category']} }
      subCategories(year: 2024) { ${FIELDS['SubCategory']} }
      superIndicators(year: 2024) { ${FIELDS['SuperIndicator']} }
      indicators(year: 2024) { ${FIELDS['Indicator']} }
      units(year: 2024) { ${FIELDS['Unit']} }
    }`),
  );
  const lists = { Category: 'categories', SubCategory: 'subCategories', SuperIndicator: 'superIndicators', Indicator: 'indicators', Unit: 'units' };
  for (const [type, field] of Object.entries(lists)) {
    const list = taxonomy[field];
    assert.ok(list.length > 0, type);
    read[type] = list[0];
  }
  const { job } = data(
    await gql('mutation($image: String!) { mintNft(input: { network: "sepolia", name: "Solar", description: "d", image: $image, attributes: [] }) { job { id } } }', { image: images.url }),
  )['mintNft'];
  assert.equal((await t.settledJob(job.id)).status, JobStatus.JOB_STATUS_COMPLETED, 'minted on the embedded network');
  read['Job'] = data(await gql(`query($id: ID!) { job(id: $id) { ${FIELDS['Job']} } }`, { id: job.id }))['job'];
  read['Nft'] = data(await gql(`query($guid: ID!) { nft(guid: $guid) { ${FIELDS['Nft']} } }`, { guid: read['Job']!['nftGuid'] }))['nft'];
});
after(async () => {
  await t.stop();
  await images.close();
});

describe('node(id:)', () => {
  test('each Node type refetches the object the read that gave its nodeId answered', async () => {
    for (const type of Object.keys(FIELDS)) await refetches(type, read[type]!);
  });

  test('nodeIds are the base64url of Type:key, unique across types (Position 1 and Asset 1 differ)', () => {
    const ids = Object.values(read).map((r) => r['nodeId']);
    assert.equal(new Set(ids).size, ids.length);
    assert.equal(read['Position']!['nodeId'], b64(`Position:${read['Position']!['id']}`));
    assert.equal(read['Asset']!['nodeId'], b64(`Asset:${read['Asset']!['id']}:SE0001`));
    assert.equal(read['Framework']!['nodeId'], b64(`Framework:${read['Framework']!['id']}:2024:GBF`));
    assert.equal(read['Job']!['nodeId'], b64(`Job:${read['Job']!['id']}`));
    assert.notEqual(b64('Position:1'), b64('Asset:1:SE0001'));
  });

  test('a taxonomy item is a node per year and language: its names are those of the language it was read in', async () => {
    const sv = data(await gql(`{ categories(year: 2024, languageCode: "sv") { ${FIELDS['Category']} } }`))['categories'][0];
    assert.equal(sv.id, read['Category']!['id']);
    assert.notEqual(sv.nodeId, read['Category']!['nodeId']);
    assert.equal(sv.nodeId, b64(`Category:${sv.id}:2024:sv`));
    assert.equal(read['Category']!['nodeId'], b64(`Category:${sv.id}:2024:-`));
    await refetches('Category', sv);
    // Nested items carry the year and language of the read that gave them.
    const nested = data(await gql('{ subCategories(year: 2024, languageCode: "sv") { id category { nodeId } } }'))['subCategories'];
    const ofFirst = nested.find((s: { category: { nodeId: string } }) => s.category.nodeId === sv.nodeId);
    assert.ok(ofFirst, 'a sub category of the first category names it by the same nodeId');
    assert.deepEqual(data(await gql('query($id: ID!) { node(id: $id) { nodeId } }', { id: b64('Category:999999:2024:-') })), { node: null });
  });

  test('the same object has the same nodeId whichever read gave it', async () => {
    const nested = data(await gql(`{ asset(identifier: "SE0001") { nodeId framework(year: 2024) { nodeId projects { nodeId } } } portfolio(identifier: "core") { investor { nodeId } positions { nodeId } } }`));
    assert.equal(nested['asset'].nodeId, read['Asset']!['nodeId']);
    assert.equal(nested['asset'].framework.nodeId, read['Framework']!['nodeId']);
    assert.deepEqual(nested['asset'].framework.projects, [{ nodeId: read['Project']!['nodeId'] }]);
    assert.equal(nested['portfolio'].investor.nodeId, read['Investor']!['nodeId']);
    assert.deepEqual(nested['portfolio'].positions, [{ nodeId: read['Position']!['nodeId'] }]);
  });

  test('investor and user PII stay masked through node(): it takes no decryption key', async () => {
    assert.equal(read['Investor']!['masked'], true);
    const investor = data(await gql(nodeQuery('Investor'), { id: read['Investor']!['nodeId'] }))['node'];
    assert.equal(investor.masked, true);
    assert.notEqual(investor.name, 'Ann Investor');
    assert.notEqual(investor.email, 'ann@example.org');
    const position = data(await gql(nodeQuery('Position'), { id: read['Position']!['nodeId'] }))['node'];
    assert.equal(position.investor.masked, true);
    assert.notEqual(position.investor.name, 'Ann Investor');
    const user = data(await gql(nodeQuery('User'), { id: read['User']!['nodeId'] }))['node'];
    assert.deepEqual([user.masked, user.firstName === 'Ada'], [true, false]);
  });

  test("another account's private or own-only object is null, as its read is", async () => {
    const ops = data(await gql(`{ framework(identifier: "OPS", year: 2024) { nodeId } }`, {}, t.operatorKey))['framework'];
    await refetches('Framework', { ...data(await gql(`{ framework(identifier: "OPS", year: 2024) { ${FIELDS['Framework']} } }`, {}, t.operatorKey))['framework'] }, t.operatorKey);
    const asUser = (id: string) => gql('query($id: ID!) { node(id: $id) { nodeId } }', { id });
    assert.deepEqual(data(await asUser(ops.nodeId)), { node: null });
    // The acme account's own objects are not the operator's to see through node() either.
    for (const type of ['Investor', 'Position', 'Portfolio', 'User', 'Job', 'Nft', 'ImpactRecomputeJob']) {
      assert.deepEqual(data(await gql('query($id: ID!) { node(id: $id) { nodeId } }', { id: read[type]!['nodeId'] }, t.operatorKey)), { node: null }, type);
    }
    // Accounts: the caller's own, and any for an operator; a user account sees no other.
    const opAccount = data(await gql(`{ me { ${FIELDS['Account']} } }`, {}, t.operatorKey))['me'];
    assert.deepEqual(data(await asUser(opAccount.nodeId)), { node: null });
    await refetches('Account', read['Account']!, t.operatorKey);
  });

  test('a key whose id no longer matches (the identifier now names another object) is null', async () => {
    const stale = b64(`Asset:${Number(read['Asset']!['id']) + 1000}:SE0001`);
    assert.deepEqual(data(await gql('query($id: ID!) { node(id: $id) { nodeId } }', { id: stale })), { node: null });
    const gone = b64('Position:999999');
    assert.deepEqual(data(await gql('query($id: ID!) { node(id: $id) { nodeId } }', { id: gone })), { node: null });
  });

  test('malformed ids, unknown types and forged keys are BAD_USER_INPUT', async () => {
    const refused = { message: 'id must be a nodeId this API gave out.', code: 'BAD_USER_INPUT' };
    const bad = [
      '', 'not base64!', `${read['Position']!['nodeId']}=`, b64('Position'), b64('Widget:1'), b64('Position:abc'), b64('Position:0'),
      b64('Job:not-a-uuid'), b64('Framework:1:24:GBF'), b64('Asset:1:'), b64('__Schema:1'), b64('toString:1'),
      b64(`Asset:1:${'x'.repeat(300)}`), b64('Category:1:24:-'), b64('Unit:1:2024:no such language!'),
    ];
    for (const id of bad) assert.deepEqual(onlyError(await gql('query($id: ID!) { node(id: $id) { nodeId } }', { id })), refused, id);
  });

  test('without an API key node() is UNAUTHENTICATED', async () => {
    const res = await gql('query($id: ID!) { node(id: $id) { nodeId } }', { id: read['Position']!['nodeId'] }, null);
    assert.equal(onlyError(res).code, 'UNAUTHENTICATED');
  });
});

describe('nodes(ids:)', () => {
  test('answers in the order of ids, null where the caller sees nothing', async () => {
    const ids = [read['Position']!['nodeId'], b64('Position:999999'), read['Asset']!['nodeId'], read['Position']!['nodeId'], read['Job']!['nodeId']];
    const res = data(await gql('query($ids: [ID!]!) { nodes(ids: $ids) { __typename nodeId } }', { ids }))['nodes'];
    assert.deepEqual(res, [
      { __typename: 'Position', nodeId: ids[0] },
      null,
      { __typename: 'Asset', nodeId: ids[2] },
      { __typename: 'Position', nodeId: ids[0] },
      { __typename: 'Job', nodeId: ids[4] },
    ]);
    assert.deepEqual(data(await gql('{ nodes(ids: []) { nodeId } }')), { nodes: [] });
  });

  test('a bad id names its place; more than 100 ids are refused before anything is read', async () => {
    assert.deepEqual(onlyError(await gql('query($ids: [ID!]!) { nodes(ids: $ids) { nodeId } }', { ids: [read['Job']!['nodeId'], 'x!'] })), {
      message: 'ids[1] must be a nodeId this API gave out.',
      code: 'BAD_USER_INPUT',
    });
    const calls = t.portfolio!.calls.length;
    const many = Array.from({ length: 101 }, () => read['Position']!['nodeId']);
    assert.deepEqual(onlyError(await gql('query($ids: [ID!]!) { nodes(ids: $ids) { nodeId } }', { ids: many })), {
      message: 'ids holds 101 ids; at most 100 are allowed.',
      code: 'BAD_USER_INPUT',
    });
    assert.equal(t.portfolio!.calls.length, calls);
    const hundred = data(await gql('query($ids: [ID!]!) { nodes(ids: $ids) { nodeId } }', { ids: many.slice(1) }))['nodes'];
    assert.equal(hundred.length, 100);
  });

  test('the query cost counts nodes(ids:) by its ids: 100 when a variable gives them', async () => {
    // Three nested lists of 10 (no first) under each node: about 13 000 fields a node, 1.3 million for 100.
    const big = '{ ... on Investor { positions { investor { portfolios { positions { asset { framework(year: 2024) { rows { value } } } } } } } } }';
    const refused = onlyError(await gql(`query($ids: [ID!]!) { nodes(ids: $ids) ${big} }`, { ids: [] }));
    assert.equal(refused.code, 'QUERY_TOO_COMPLEX');
    assert.match(refused.message, /at most 250000 are allowed/);
    // Two literal ids count twice, well under the limit.
    const two = await gql(`{ nodes(ids: ["${read['Investor']!['nodeId']}", "${read['Asset']!['nodeId']}"]) ${big} }`);
    assert.equal(two.body.errors, undefined, JSON.stringify(two.body.errors));
  });
});
