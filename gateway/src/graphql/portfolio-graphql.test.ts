import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { startTestGateway, type TestGateway } from '@green-impact/testing/gateway/real-gateway';
import { taxonomyIds, type TaxonomyIds } from '@green-impact/testing/gateway/taxonomy-ids';
import { decimalText } from './scalars.js';
import { callsDuring as callsOf, data, gqlAt, onlyError, type GqlResponse } from '@green-impact/testing/gateway/graphql-calls';

/**
 * GraphQL over assets, investors, positions, portfolios and impacts, against the real portfolio, taxonomy
 * and identity services over gRPC, on the ICMA example taxonomy. The user's key (account Acme) is the issuer
 * and investor manager; `otherKey` belongs to another account.
 */

const KEY = 'a'.repeat(64);
const GHG = 'Annual GHG emissions reduced/avoided';
const ENERGY = 'Annual renewable energy generation';

let t: TestGateway;
let otherKey: string;
let ids: TaxonomyIds;
/** The ids of the framework's two rows' items, as GraphQL answers them (IDs are strings). */
const id = (n: number) => String(n);

const gql = (query: string, variables: Record<string, unknown> = {}, apiKey: string | null = t.userKey): Promise<GqlResponse> =>
  gqlAt(t.baseUrl, query, variables, apiKey);
/** Calls per method the gateway makes to the services behind it while `run` runs (not theirs to each other). */
const callsDuring = (run: () => Promise<unknown>) => callsOf([t.portfolio!, t.taxonomy!], run, (c) => c.issuer === 'gateway');
before(async () => {
  t = await startTestGateway({}, { portfolio: true });
  otherKey = (await t.createAccount('Other')).apiKey;
  // The ICMA example: its sub categories, indicators and units, EUR and SEK with their rates.
  await t.loadExampleTaxonomy();
  ids = await taxonomyIds(t);
  // A public EUR framework of 2024: D = max(L, V) = 1 000 000 (valueOutstandingFramework false); two rows.
  data(
    await gql(`mutation {
      f: addFramework(input: { identifier: "GBF", name: "Green Bond Framework", currencyCode: "EUR", visibility: PUBLIC }) { id }
      y: addYearSpecificsToFramework(input: { identifier: "GBF", year: 2024, valueOutstanding: 800000, allocatedAmount: 1000000, valueOutstandingFramework: false }) { message }
      r1: addCategoryIndicatorToFramework(input: { identifier: "GBF", year: 2024, subCategoryId: ${ids.subCategory['Solar power']}, volume: 600000, indicatorId: ${ids.indicator[GHG]}, value: 5000 }) { message }
      r2: addCategoryIndicatorToFramework(input: { identifier: "GBF", year: 2024, subCategoryId: ${ids.subCategory['Wind power']}, volume: 200000, indicatorId: ${ids.indicator[ENERGY]}, value: 800 }) { message }
    }`),
  );
});
after(async () => {
  await t.stop();
});

const sent = (method: string) => JSON.parse(JSON.stringify(t.portfolio!.calls.filter((c) => c.method === method).at(-1)!.request));

describe('changes and reads', () => {
  let positionId: string;

  test('mutations answer their message and id; addPosition with a year answers its impacts', async () => {
    const setup = data(
      await gql(
        `mutation($key: String!) {
          a: addAsset(input: { identifier: "SE0001", name: "Green bond 2029", issuerIdentifier: "ISS-1", issuerName: "Nordic Issuer",
                               frameworkIdentifier: "GBF", valueOutstanding: 100000, currencyCode: "EUR", dateIssued: "2024-03-01",
                               dateMaturity: "2029-03-01", visibility: PUBLIC }) { message id }
          b: addAsset(input: { identifier: "SE0002", name: "Private bond", issuerIdentifier: "ISS-1", frameworkIdentifier: "GBF", currencyCode: "EUR" }) { message }
          g: generateInvestorIdentifier { investorIdentifier }
          i: addInvestor(input: { identifier: "inv_1", name: "Ann Investor", currencyCode: "EUR", email: "ann@example.org", encryptionKey: $key }) { message id }
          j: addInvestor(input: { identifier: "inv_2", name: "Bo Plain", currencyCode: "SEK" }) { message }
          p: addPosition(input: { investorIdentifier: "inv_1", assetIdentifier: "SE0001", amount: 250000, currencyCode: "EUR", year: 2024 }) {
            message id impacts { indicator { id name } value attributedVolume inputs { amountInFrameworkCurrency denominator tau fxRate } }
          }
          f: addPortfolio(investorIdentifier: "inv_1", identifier: "core") { message }
        }`,
        { key: KEY },
      ),
    );
    assert.match(setup['a'].message, /^Asset added with id \d+\.$/);
    assert.equal(setup['b'].message.startsWith('Asset added'), true);
    assert.match(setup['g'].investorIdentifier, /^inv_/);
    assert.equal(setup['i'].message, 'Investor added.');
    positionId = setup['p'].id;
    assert.equal(setup['p'].message, `Position added with id ${positionId}.`);
    // P_f ÷ D = 250 000 ÷ max(1 000 000, 800 000); tau = 365/366 (2024 is a leap year, the holding misses 31 December).
    const tau = 365 / 366;
    assert.deepEqual(setup['p'].impacts, [
      { indicator: { id: id(ids.indicator[GHG]), name: GHG }, value: decimalText(tau * 0.25 * 5000), attributedVolume: decimalText(tau * 0.25 * 600000), inputs: { amountInFrameworkCurrency: '250000', denominator: '1000000', tau: decimalText(tau), fxRate: '1' } },
      { indicator: { id: id(ids.indicator[ENERGY]), name: ENERGY }, value: decimalText(tau * 0.25 * 800), attributedVolume: decimalText(tau * 0.25 * 200000), inputs: { amountInFrameworkCurrency: '250000', denominator: '1000000', tau: decimalText(tau), fxRate: '1' } },
    ]);
    assert.deepEqual(sent('addPosition'), { investorIdentifier: 'inv_1', assetIdentifier: 'SE0001', positionAmount: 250000, positionCurrencyCode: 'EUR', reportingYear: 2024 });

    const more = data(
      await gql(`mutation($id: ID!) {
        m: addPositionToPortfolio(investorIdentifier: "inv_1", portfolioIdentifier: "core", positionId: $id) { message }
        c: computePositionImpacts(positionId: $id, year: 2024) { message id impacts { id } }
        q: addPosition(input: { investorIdentifier: "inv_2", assetIdentifier: "SE0001", amount: 1000, currencyCode: "EUR", days: 30, startDate: "2024-12-15" }) { message impacts { id } }
      }`, { id: positionId }),
    );
    assert.deepEqual(more['m'], { message: 'Position added to portfolio.' });
    assert.equal(more['c'].message, `Impacts of position ${positionId} for 2024 computed: 2 records.`);
    assert.equal(more['c'].id, positionId);
    assert.equal(more['c'].impacts.length, 2);
    assert.deepEqual(more['q'].impacts, []);
  });

  // The rules (amounts, position_days, dates and their order, currency codes, e-mail addresses, ids, years)
  // are the portfolio service's: services/portfolio/src/rules.test.ts tests them and the field each names,
  // which GraphQL relabels (input.amount, positionId, year) as for every catalogue field. The gateway
  // refuses what is not of the declared type itself.
  test('type failures name the GraphQL fields, before any portfolio call', async () => {
    const cases: [string, string][] = [
      ['removePosition(investorIdentifier: "inv_1", positionId: "first") { message }', 'positionId must be an integer.'],
      ['addPositionToPortfolio(investorIdentifier: "inv_1", portfolioIdentifier: "core", positionId: "99999999999") { message }', 'positionId is out of range.'],
      ['computePositionImpacts(positionId: "1.5", year: 2024) { message }', 'positionId must be an integer.'],
    ];
    for (const [mutation, message] of cases) {
      const before = t.portfolio!.calls.length;
      assert.deepEqual(onlyError(await gql(`mutation { ${mutation} }`)), { message, code: 'BAD_USER_INPUT' }, mutation);
      assert.equal(t.portfolio!.calls.length, before, mutation);
    }
  });

  test('assets: list, one by identifier, its framework of a year, its attributed rows, Framework.assets', async () => {
    const res = data(
      await gql(`{
        assets { nodes { identifier visibility owned } }
        publicOnes: assets(visibility: PUBLIC) { nodes { identifier } }
        asset(identifier: "SE0001") {
          id identifier name valueOutstanding currencyCode dateIssued dateMaturity issuer { identifier name } frameworkIdentifier frameworkName visibility
          framework(year: 2024) { identifier yearSpecifics { valueOutstanding } assets { identifier } }
          frameworkDetails(year: 2024, languageCode: "sv") { year currencyCode frameworkCurrencyCode share denominator fxRate
            rows { indicator { id name } subCategory { name } volume currencyCode value } }
        }
        none: asset(identifier: "NOPE") { id }
        frameworks(year: 2024) { nodes { identifier assets { identifier } } }
      }`),
    );
    assert.deepEqual(res['assets'].nodes, [
      { identifier: 'SE0001', visibility: 'PUBLIC', owned: true },
      { identifier: 'SE0002', visibility: 'PRIVATE', owned: true },
    ]);
    assert.deepEqual(res['publicOnes'].nodes, [{ identifier: 'SE0001' }]);
    const asset = res['asset'];
    assert.deepEqual({ ...asset, framework: undefined, frameworkDetails: undefined }, {
      id: asset.id,
      identifier: 'SE0001',
      name: 'Green bond 2029',
      valueOutstanding: '100000',
      currencyCode: 'EUR',
      dateIssued: '2024-03-01',
      dateMaturity: '2029-03-01',
      issuer: { identifier: 'ISS-1', name: 'Nordic Issuer' },
      frameworkIdentifier: 'GBF',
      frameworkName: 'Green Bond Framework',
      visibility: 'PUBLIC',
      framework: undefined,
      frameworkDetails: undefined,
    });
    assert.deepEqual(asset.framework, { identifier: 'GBF', yearSpecifics: { valueOutstanding: '800000' }, assets: [{ identifier: 'SE0001' }, { identifier: 'SE0002' }] });
    assert.deepEqual(asset.frameworkDetails, {
      year: 2024,
      currencyCode: 'EUR',
      frameworkCurrencyCode: 'EUR',
      share: '0.1',
      denominator: '1000000',
      fxRate: '1',
      rows: [
        // In Swedish (languageCode "sv"), as the example translates them.
        { indicator: { id: id(ids.indicator[GHG]), name: 'Årliga minskade/undvikta växthusgasutsläpp' }, subCategory: { name: 'Solkraft' }, volume: '60000', currencyCode: 'EUR', value: '500' },
        { indicator: { id: id(ids.indicator[ENERGY]), name: 'Årlig produktion av förnybar energi' }, subCategory: { name: 'Vindkraft' }, volume: '20000', currencyCode: 'EUR', value: '80' },
      ],
    });
    assert.equal(res['none'], null);
    assert.deepEqual(res['frameworks'].nodes, [{ identifier: 'GBF', assets: [{ identifier: 'SE0001' }, { identifier: 'SE0002' }] }]);

    const other = data(await gql('{ assets { nodes { identifier owned } } frameworks(year: 2024) { nodes { assets { identifier } } } }', {}, otherKey));
    assert.deepEqual(other, { assets: { nodes: [{ identifier: 'SE0001', owned: false }] }, frameworks: { nodes: [{ assets: [{ identifier: 'SE0001' }] }] } });
    const noValue = await gql('{ asset(identifier: "SE0002") { identifier frameworkDetails(year: 2024) { share } } }');
    assert.deepEqual(noValue.body.data, { asset: { identifier: 'SE0002', frameworkDetails: null } });
    assert.equal(noValue.body.errors?.[0]?.extensions?.['code'], 'CONFLICT');
  });

  test('investors: masked without the key, in clear with it, a wrong key is BAD_USER_INPUT; nested positions, portfolios, impacts', async () => {
    const masked = data(await gql('{ investors { nodes { identifier name email currencyCode encrypted masked } } }'));
    assert.deepEqual(masked['investors'].nodes, [
      { identifier: 'inv_1', name: '********', email: '********', currencyCode: 'EUR', encrypted: true, masked: true },
      { identifier: 'inv_2', name: 'Bo Plain', email: null, currencyCode: 'SEK', encrypted: false, masked: false },
    ]);
    const open = data(
      await gql(
        `query($key: String) { investor(identifier: "inv_1", decryptionKey: $key) {
           name email masked
           positions { id amount investor { name } }
           portfolios { identifier positions { id } investor { name } }
           impacts(year: 2024) { year totals { indicator { id } unit { name } value positionCount } volumeTotals { subCategory { id } attributedVolume } positionIdsWithoutImpacts }
         }
         nobody: investor(identifier: "inv_404") { id } }`,
        { key: KEY },
      ),
    );
    const tau = 365 / 366;
    assert.deepEqual(open['investor'], {
      name: 'Ann Investor',
      email: 'ann@example.org',
      masked: false,
      positions: [{ id: positionId, amount: '250000', investor: { name: 'Ann Investor' } }],
      portfolios: [{ identifier: 'core', positions: [{ id: positionId }], investor: { name: 'Ann Investor' } }],
      impacts: {
        year: 2024,
        totals: [
          { indicator: { id: id(ids.indicator[GHG]) }, unit: { name: 'tCO2e/year' }, value: decimalText(tau * 0.25 * 5000), positionCount: 1 },
          { indicator: { id: id(ids.indicator[ENERGY]) }, unit: { name: 'MWh/year' }, value: decimalText(tau * 0.25 * 800), positionCount: 1 },
        ],
        volumeTotals: [
          { subCategory: { id: id(ids.subCategory['Solar power']) }, attributedVolume: decimalText(tau * 0.25 * 600000) },
          { subCategory: { id: id(ids.subCategory['Wind power']) }, attributedVolume: decimalText(tau * 0.25 * 200000) },
        ],
        positionIdsWithoutImpacts: [],
      },
    });
    assert.equal(open['nobody'], null);
    // A key of the right form that is not the one (the form is the service's rule, tested there).
    assert.deepEqual(onlyError(await gql(`{ investors(decryptionKey: "${'c'.repeat(64)}") { nodes { name } } }`)), {
      message: 'The decryption key does not match the key the data was encrypted with.',
      code: 'BAD_USER_INPUT',
    });
    assert.deepEqual(data(await gql('{ investors { nodes { id } } }', {}, otherKey)), { investors: { nodes: [] } });

    // Investor.positions / portfolios come from the account's listings, read without the key: the positions
    // of investors encrypted with another key do not make this investor's key "wrong".
    const other = 'b'.repeat(64);
    data(await gql(`mutation { addInvestor(input: { identifier: "inv_3", name: "Cy", currencyCode: "EUR", encryptionKey: "${other}" }) { message } }`));
    const own = data(await gql(`{ investor(identifier: "inv_3", decryptionKey: "${other}") { name positions { id } portfolios { id } } }`));
    assert.deepEqual(own, { investor: { name: 'Cy', positions: [], portfolios: [] } });
    data(await gql('mutation { removeInvestor(identifier: "inv_3") { message } }'));
  });

  test('positions: filters, the user filter through identity, nested investor, asset and impacts', async () => {
    const all = data(await gql('{ positions { nodes { id investorIdentifier days startDate impactYears asset { identifier } } } }'));
    assert.deepEqual(all['positions'].nodes.map((p: any) => [p.investorIdentifier, p.days, p.startDate, p.impactYears]), [
      ['inv_1', 365, null, [2024]],
      ['inv_2', 30, '2024-12-15', []],
    ]);
    assert.equal(sent('getPositions').investorIdentifier, '', 'no investor: every investor of the account');

    assert.deepEqual(onlyError(await gql('{ positions(userIdentifier: "nobody") { nodes { id } } }')), { message: 'No such user.', code: 'NOT_FOUND' });
    data(await gql('mutation { addUser(input: { userIdentifier: "u1" }) { message } addInvestorToUser(userIdentifier: "u1", investorIdentifier: "inv_2") { message } }'));
    const limited = data(
      await gql(`{ positions(userIdentifier: "u1") { nodes { investorIdentifier investor { name } impacts(year: 2024) { value } } }
                   portfolios(userIdentifier: "u1") { nodes { identifier } } }`),
    );
    assert.deepEqual(limited, { positions: { nodes: [{ investorIdentifier: 'inv_2', investor: { name: 'Bo Plain' }, impacts: [] }] }, portfolios: { nodes: [] } });
    assert.deepEqual(sent('getPortfolios'), { investorIdentifier: '', investorIdentifiersAllowed: ['inv_2'], investorFilterActive: true, pageSize: 100 });

    const one = data(await gql(`{ positions(investorIdentifier: "inv_1", assetIdentifier: "SE0001") { nodes { impacts(year: 2024) { year indicator { name } unit { name } currencyCode frameworkIdentifier inputs { positionAmount positionCurrencyCode holdingDaysInYear daysInYear indicatorValue subCategoryVolume valueOutstandingFramework frameworkValueOutstanding frameworkAllocatedAmount } } } } }`));
    assert.deepEqual(one['positions'].nodes[0].impacts[0], {
      year: 2024,
      indicator: { name: GHG },
      unit: { name: 'tCO2e/year' },
      currencyCode: 'EUR',
      frameworkIdentifier: 'GBF',
      inputs: {
        positionAmount: '250000',
        positionCurrencyCode: 'EUR',
        holdingDaysInYear: 365,
        daysInYear: 366,
        indicatorValue: '5000',
        subCategoryVolume: '600000',
        valueOutstandingFramework: false,
        frameworkValueOutstanding: '800000',
        frameworkAllocatedAmount: '1000000',
      },
    });
  });

  test('portfolios: one by identifier, its assets, impacts; removals', async () => {
    const res = data(await gql(`{ portfolio(identifier: "core") { identifier investorIdentifier assets { identifier } impacts(year: 2024) { totals { value } records { positionId } } } gone: portfolio(identifier: "x") { id } }`));
    assert.deepEqual(res['portfolio'].assets, [{ identifier: 'SE0001' }]);
    assert.deepEqual(res['portfolio'].impacts.records, [{ positionId }, { positionId }]);
    assert.equal(res['gone'], null);

    const removed = data(
      await gql(`mutation($id: ID!) {
        a: removePositionFromPortfolio(investorIdentifier: "inv_1", portfolioIdentifier: "core", positionId: $id) { message }
        b: addPortfolio(investorIdentifier: "inv_1", identifier: "core", newIdentifier: "main") { message }
        c: removePortfolio(investorIdentifier: "inv_1", identifier: "main") { message }
        d: removePosition(investorIdentifier: "inv_1", positionId: $id) { message id }
        e: removeInvestor(identifier: "inv_2") { message }
        f: removeAsset(identifier: "SE0002") { message }
      }`, { id: positionId }),
    );
    assert.deepEqual(removed, {
      a: { message: 'Position removed from portfolio.' },
      b: { message: 'Portfolio changed.' },
      c: { message: 'Portfolio removed.' },
      d: { message: 'Position removed.', id: positionId },
      e: { message: 'Investor removed.' },
      f: { message: 'Asset removed.' },
    });
    assert.deepEqual(data(await gql('{ positions { nodes { id } } portfolios { nodes { id } } }')), { positions: { nodes: [] }, portfolios: { nodes: [] } });
    assert.deepEqual(onlyError(await gql('mutation { removeAsset(identifier: "SE0001") { message } }', {}, otherKey)), { message: 'Not authorized.', code: 'FORBIDDEN' });
  });
});

describe('batching: a portfolio of many positions costs a small constant number of calls', () => {
  const QUERY = `query($key: String) {
    portfolios(decryptionKey: $key) { nodes {
      identifier
      investor { name }
      impacts(year: 2024) { totals { value } }
      positions {
        id amount
        investor { name masked }
        impacts(year: 2024) { value inputs { tau } }
        asset {
          identifier issuer { name }
          framework(year: 2024) { identifier yearSpecifics { valueOutstanding } rows { value indicator { name unit { name } } subCategory { name category { name } } } }
        }
      }
    } }
  }`;

  /**
   * A call retried while the service answers UNAVAILABLE, as its message asks: eight writers of one account
   * exceed its share of the pool (pool-share.ts), and on a loaded machine a waiter can pass the share's 1 s.
   */
  async function retryingUnavailable<T>(call: () => Promise<T>): Promise<T> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await call();
      } catch (err) {
        if ((err as { code?: unknown }).code !== 'UNAVAILABLE' || attempt === 5) throw err;
        await sleep(200 * attempt);
      }
    }
  }

  async function portfolioOf(n: number, investor: string, portfolio: string): Promise<void> {
    data(
      await gql(
        `mutation($investor: String!, $portfolio: String!) {
          addInvestor(input: { identifier: $investor, name: "Big Fund", currencyCode: "EUR", encryptionKey: "${KEY}" }) { message }
          addPortfolio(investorIdentifier: $investor, identifier: $portfolio) { message }
        }`,
        { investor, portfolio },
      ),
    );
    // Through the portfolio service's own API, as the user: each position with its 2024 impacts, in the portfolio.
    const client = t.portfolio!.client;
    const opts = { caller: t.user };
    const add = async (assetIdentifier: string) => {
      const { message } = await retryingUnavailable(() =>
        client.addPosition({ investorIdentifier: investor, assetIdentifier, positionAmount: 1000, positionCurrencyCode: 'EUR', reportingYear: 2024 }, opts),
      );
      const positionId = Number(/(\d+)\.$/.exec(message)![1]);
      await retryingUnavailable(() => client.addPositionToPortfolio({ investorIdentifier: investor, portfolioIdentifier: portfolio, positionId }, opts));
    };
    const assets = Array.from({ length: n }, (_, i) => (i < n / 2 ? 'BIG-A' : 'BIG-B'));
    // A few at a time: the order within the portfolio is not what the test reads.
    for (let i = 0; i < assets.length; i += 8) await Promise.all(assets.slice(i, i + 8).map(add));
  }

  test('1 000 positions in two assets of one framework: the same calls as 10 positions', async () => {
    data(
      await gql(`mutation {
        a: addAsset(input: { identifier: "BIG-A", name: "A", issuerIdentifier: "ISS", frameworkIdentifier: "GBF", currencyCode: "EUR", valueOutstanding: 1 }) { message }
        b: addAsset(input: { identifier: "BIG-B", name: "B", issuerIdentifier: "ISS", frameworkIdentifier: "GBF", currencyCode: "EUR", valueOutstanding: 1 }) { message }
      }`),
    );
    await portfolioOf(10, 'inv_small', 'small');
    const small = await callsDuring(async () => {
      const res = data(await gql(QUERY.replace('portfolios(decryptionKey: $key)', 'portfolios(investorIdentifier: "inv_small", decryptionKey: $key)'), { key: KEY }));
      assert.equal(res['portfolios'].nodes[0].positions.length, 10);
    });
    await portfolioOf(1000, 'inv_big', 'big');
    let answered: any;
    const big = await callsDuring(async () => {
      answered = data(await gql(QUERY.replace('portfolios(decryptionKey: $key)', 'portfolios(investorIdentifier: "inv_big", decryptionKey: $key)'), { key: KEY }));
    });
    const [portfolio] = answered['portfolios'].nodes;
    assert.equal(portfolio.positions.length, 1000);
    assert.equal(portfolio.investor.name, 'Big Fund');
    assert.deepEqual(portfolio.positions[999].investor, { name: 'Big Fund', masked: false });
    assert.equal(portfolio.positions[0].impacts.length, 2);
    assert.equal(portfolio.positions[999].asset.framework.rows.length, 2);
    // 1 000 positions × tau (365/366) × (1 000 ÷ D 1 000 000) × x 5 000, summed in floating point.
    assert.ok(Math.abs(portfolio.impacts.totals[0].value - 1000 * (365 / 366) * (1000 / 1e6) * 5000) < 1e-9);

    const total = (counts: Record<string, number>) => Object.values(counts).reduce((a, b) => a + b, 0);
    assert.deepEqual(big, small, 'the calls do not grow with the number of positions');
    assert.deepEqual(big, {
      // portfolio service: one listing, then one batch per nested level, one impacts read per portfolio / investor
      getPortfolios: 1,
      getInvestorsByIdentifiers: 1,
      getPortfolioImpacts: 1,
      getPositionsByIds: 1,
      getInvestorImpacts: 1,
      getAssetsByIdentifiers: 1,
      // taxonomy service: the framework (batched), its rows (one framework), the taxonomy lists of the rows' items
      getFrameworksByIdentifiers: 1,
      getFrameworkDetails: 1,
      getIndicators: 1,
      getUnits: 1,
      getSubCategories: 1,
      getCategories: 1,
    });
    assert.equal(total(big), 12);
  });
});

test('without PORTFOLIO_GRPC_ADDR: SERVICE_UNAVAILABLE on the portfolio fields; a framework answers without its assets', async () => {
  // Another gateway over the same services, without the portfolio backend; a fresh account, whose own
  // framework F it lists besides the file's public GBF.
  const bare = await t.another({ PORTFOLIO_GRPC_ADDR: undefined });
  const fresh = await t.createAccount('Bare');
  try {
    const post = (query: string) => gqlAt(bare.baseUrl, query, {}, fresh.apiKey);
    const message = 'The portfolio service is not available: this gateway has no portfolio backend configured.';
    assert.deepEqual(onlyError(await post('{ assets { nodes { id } } }')), { message, code: 'SERVICE_UNAVAILABLE' });
    // A fault of the gateway's, never a user error, even with userErrors selected.
    assert.deepEqual(onlyError(await post('mutation { generateInvestorIdentifier { investorIdentifier userErrors { message } } }')), { message, code: 'SERVICE_UNAVAILABLE' });
    data(await post('mutation { addFramework(input: { identifier: "F", name: "F", currencyCode: "EUR" }) { id } }'));
    const partial = await post('{ frameworks(year: 2024) { nodes { identifier assets { id } } } }');
    const nodes = partial.body.data!['frameworks'].nodes as { identifier: string; assets: unknown }[];
    assert.deepEqual(nodes.map((n) => n.identifier).sort(), ['F', 'GBF']);
    assert.ok(nodes.every((n) => n.assets === null), JSON.stringify(nodes));
    assert.deepEqual(partial.body.errors?.map((e) => [e.message, e.extensions?.['code'], e.path]), nodes.map((_, i) => [message, 'SERVICE_UNAVAILABLE', ['frameworks', 'nodes', i, 'assets']]));
  } finally {
    await bare.stop();
  }
});
