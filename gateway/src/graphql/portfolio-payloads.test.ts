import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { TestGateway } from '@green-impact/testing/gateway/real-gateway';
import { startPortfolioGateway } from '@green-impact/testing/gateway/portfolio-gateway';
import { callsDuring as callsOf, data, gqlAt, type GqlResponse } from '@green-impact/testing/gateway/graphql-calls';

/**
 * Asset, investor, position and portfolio changes answer payloads carrying the item as asset(identifier),
 * investor(identifier, decryptionKey) and portfolio(identifier) show it to the caller (payloads.ts), against
 * the real PortfolioService and TaxonomyService over gRPC. The user's and the operator's keys belong to
 * different accounts; investor names and e-mails are PII, shown in clear only with the change's own key.
 */

const KEY = 'b'.repeat(64);
const OTHER_KEY = 'c'.repeat(64);
const MASK = '********';

let t: TestGateway;

const gql = (query: string, variables: Record<string, unknown> = {}, apiKey?: string | null): Promise<GqlResponse> =>
  gqlAt(t.baseUrl, query, variables, apiKey === undefined ? t.userKey : apiKey);
/** Calls the PortfolioService receives from the gateway (addAsset's own framework check reaches taxonomy, not the gateway). */
const callsDuring = (run: () => Promise<unknown>) => callsOf([{ get calls() { return t.portfolio!.calls.filter((c) => c.issuer === 'gateway'); } }], run);
before(async () => {
  t = await startPortfolioGateway();
});
after(async () => {
  await t.stop();
});

const ASSET = 'id identifier name valueOutstanding currencyCode issuer { identifier name } frameworkIdentifier visibility owned';
const INVESTOR = 'id identifier name email currencyCode encrypted masked';
const PORTFOLIO = `id identifier investorIdentifier investor { ${INVESTOR} } positions { id amount investor { name masked } } assets { identifier }`;

describe('portfolio payloads', () => {
  let positionId: string;

  test('addAsset and addInvestor carry the item as a following read shows it; message and id are unchanged', async () => {
    const res = data(
      await gql(
        `mutation ($key: String!) {
          a: addAsset(input: { identifier: "SE0101", name: "Green bond", issuerIdentifier: "ISS-1", issuerName: "Nordic Issuer", frameworkIdentifier: "GBF",
                               valueOutstanding: 100000, currencyCode: "EUR", visibility: PUBLIC }) { message id asset { ${ASSET} } }
          i: addInvestor(input: { identifier: "inv_p1", name: "Ann Investor", currencyCode: "EUR", email: "ann@example.org", encryptionKey: $key }) { message id investor { ${INVESTOR} } }
          j: addInvestor(input: { identifier: "inv_p2", name: "Bo Plain", currencyCode: "SEK" }) { investor { ${INVESTOR} } }
        }`,
        { key: KEY },
      ),
    );
    const reads = data(
      await gql(
        `query ($key: String!) { asset(identifier: "SE0101") { ${ASSET} } i: investor(identifier: "inv_p1", decryptionKey: $key) { ${INVESTOR} }
                                 j: investor(identifier: "inv_p2") { ${INVESTOR} } }`,
        { key: KEY },
      ),
    );
    assert.match(res['a'].message, /^Asset added with id \d+\.$/);
    assert.equal(res['a'].id, res['a'].asset.id);
    assert.deepEqual(res['a'].asset, reads['asset']);
    assert.equal(res['i'].message, 'Investor added.');
    assert.deepEqual(res['i'].investor, reads['i']);
    assert.deepEqual(res['i'].investor, { id: res['i'].id, identifier: 'inv_p1', name: 'Ann Investor', email: 'ann@example.org', currencyCode: 'EUR', encrypted: true, masked: false });
    assert.deepEqual(res['j'].investor, reads['j']);
    assert.equal(res['j'].investor.name, 'Bo Plain');
  });

  test("portfolio changes carry the portfolio after each change of the request, its investor masked as portfolio(identifier) shows it", async () => {
    const pos = data(await gql('mutation { addPosition(input: { investorIdentifier: "inv_p1", assetIdentifier: "SE0101", amount: 5000, currencyCode: "EUR" }) { id } }'));
    positionId = pos['addPosition'].id;
    const res = data(
      await gql(
        `mutation ($id: ID!) {
          f: addPortfolio(investorIdentifier: "inv_p1", identifier: "green") { message id portfolio { ${PORTFOLIO} } }
          a: addPositionToPortfolio(investorIdentifier: "inv_p1", portfolioIdentifier: "green", positionId: $id) { portfolio { ${PORTFOLIO} } }
          n: addPortfolio(investorIdentifier: "inv_p1", identifier: "green", newIdentifier: "greener") { portfolio { identifier positions { id } } }
        }`,
        { id: positionId },
      ),
    );
    const read = data(await gql(`{ portfolio(identifier: "greener") { ${PORTFOLIO} } }`))['portfolio'];
    assert.equal(res['f'].id, res['f'].portfolio.id);
    assert.deepEqual(res['f'].portfolio, { ...read, identifier: 'green', positions: [], assets: [] }, 'before its position');
    assert.deepEqual(res['a'].portfolio, { ...read, identifier: 'green' });
    assert.deepEqual(res['n'].portfolio, { identifier: 'greener', positions: [{ id: positionId }] });
    assert.deepEqual(read.investor, { ...read.investor, name: MASK, email: MASK, masked: true });
    assert.deepEqual(read.positions, [{ id: positionId, amount: '5000', investor: { name: MASK, masked: true } }]);

    const out = data(await gql(`mutation { removePositionFromPortfolio(investorIdentifier: "inv_p1", portfolioIdentifier: "greener", positionId: "${positionId}") { portfolio { positions { id } } } }`));
    assert.deepEqual(out['removePositionFromPortfolio'].portfolio.positions, []);
  });

  test('the entity is read only when selected; a removal reads nothing unless removedId is selected', async () => {
    const counts = await callsDuring(() =>
      gql('mutation { addAsset(input: { identifier: "SE0102", name: "Quiet", issuerIdentifier: "ISS-1", frameworkIdentifier: "GBF", currencyCode: "EUR" }) { message id } }'),
    );
    assert.deepEqual(counts, { addAsset: 1 });
    assert.deepEqual(await callsDuring(() => gql('mutation { removeAsset(identifier: "SE0102") { message } }')), { removeAsset: 1 });
  });

  test('removals carry the removed id and no entity', async () => {
    const setup = data(
      await gql(`mutation {
        a: addAsset(input: { identifier: "SE0103", name: "Short-lived", issuerIdentifier: "ISS-1", frameworkIdentifier: "GBF", currencyCode: "EUR" }) { id }
        i: addInvestor(input: { identifier: "inv_p3", name: "Cy Gone", currencyCode: "EUR", encryptionKey: "${KEY}" }) { id }
        f: addPortfolio(investorIdentifier: "inv_p1", identifier: "brief") { id }
      }`),
    );
    const res = data(
      await gql(`mutation {
        p: removePosition(investorIdentifier: "inv_p1", positionId: "${positionId}") { message removedId }
        a: removeAsset(identifier: "SE0103") { message id removedId }
        f: removePortfolio(investorIdentifier: "inv_p1", identifier: "brief") { removedId }
        i: removeInvestor(identifier: "inv_p3") { removedId }
      }`),
    );
    assert.deepEqual(res, {
      p: { message: 'Position removed.', removedId: positionId },
      a: { message: 'Asset removed.', id: setup['a'].id, removedId: setup['a'].id },
      f: { removedId: setup['f'].id },
      i: { removedId: setup['i'].id },
    });
    const after = data(await gql('{ asset(identifier: "SE0103") { id } portfolio(identifier: "brief") { id } investor(identifier: "inv_p3") { id } }'));
    assert.deepEqual(after, { asset: null, portfolio: null, investor: null });
  });

  test("another account's or an unkeyed caller's PII is never revealed through a payload", async () => {
    // Another account's change of the same identifiers reaches its own items only; its payloads hold nothing of Ann.
    const other = await gql(
      `mutation {
        p: addPortfolio(investorIdentifier: "inv_p1", identifier: "greener") { portfolio { investor { name } } }
        x: removeInvestor(identifier: "inv_p1") { removedId }
      }`,
      {},
      t.operatorKey,
    );
    assert.doesNotMatch(JSON.stringify(other.body), /Ann Investor|ann@example/);
    const own = data(await gql('mutation { addInvestor(input: { identifier: "inv_p1", name: "Op Own", currencyCode: "EUR" }) { investor { name } } }', {}, t.operatorKey));
    assert.deepEqual(own['addInvestor'].investor, { name: 'Op Own' });
    // The owner's re-key shows the name with the change's key; a change without a key shows it masked.
    const rekeyed = data(
      await gql(`mutation { addInvestor(input: { identifier: "inv_p1", name: "Ann Investor", currencyCode: "EUR", email: "ann@example.org", encryptionKey: "${OTHER_KEY}" }) {
        investor { name email masked } } }`),
    );
    assert.deepEqual(rekeyed['addInvestor'].investor, { name: 'Ann Investor', email: 'ann@example.org', masked: false });
    const unkeyedRead = data(await gql(`{ portfolio(identifier: "greener") { investor { name email masked } } investor(identifier: "inv_p1") { name masked } }`));
    const payload = data(await gql('mutation { addPortfolio(investorIdentifier: "inv_p1", identifier: "greener") { portfolio { investor { name email masked } } } }'));
    assert.deepEqual(payload['addPortfolio'].portfolio.investor, unkeyedRead['portfolio'].investor);
    assert.deepEqual(unkeyedRead['portfolio'].investor, { name: MASK, email: MASK, masked: true });
    assert.deepEqual(unkeyedRead['investor'], { name: MASK, masked: true });
  });
});
