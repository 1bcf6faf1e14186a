import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { Visibility } from '@green-impact/proto/greenimpact/common/v1/common';
import { postCall } from '@green-impact/testing/gateway/v1-calls';
import { jsonHeaders, startTestGateway, type TestGateway } from '@green-impact/testing/gateway/real-gateway';
import { taxonomyIds } from '@green-impact/testing/gateway/taxonomy-ids';

/**
 * /v1/call for assets, investors, positions, portfolios and impacts (spec §4.8–§4.10 and the impact reads
 * the gateway adds) against the real portfolio, taxonomy and identity services over gRPC: the gateway's
 * validation, the requests it sends, the spec's response shapes and the getInvestorsOfUser composition.
 * The user's key (account Acme) is the issuer and investor manager; OTHER belongs to another account.
 */

const ESG = 'SVC.ESG.Credits';
let ACME: Record<string, string>;
let OTHER: Record<string, string>;
const KEY = 'a'.repeat(64);

let t: TestGateway;
/** The framework's two rows: sub category and indicator ids of the ICMA example (solar: GHG; wind: energy). */
let solar: number;
let wind: number;
let ghgId: number;
let energyId: number;
before(async () => {
  t = await startTestGateway({}, { portfolio: true });
  ACME = jsonHeaders(t.userKey);
  OTHER = jsonHeaders((await t.createAccount('Other')).apiKey);
  // The ICMA example: its sub categories, indicators and units, EUR and SEK with their rates.
  await t.loadExampleTaxonomy();
  const ids = await taxonomyIds(t);
  [solar, wind] = [ids.subCategory['Solar power'], ids.subCategory['Wind power']];
  [ghgId, energyId] = [ids.indicator['Annual GHG emissions reduced/avoided'], ids.indicator['Annual renewable energy generation']];
  // A public EUR framework of 2024 with two rows: D = V = 1 000 000 (value_outstanding_framework yes).
  await ok('addFramework', { framework_identifier: 'GBF', framework_name: 'Green Bond Framework', framework_currency_code: 'EUR', framework_visibility: 'public' });
  await ok('addYearSpecificsToFramework', { framework_identifier: 'GBF', value_outstanding: 1_000_000, allocated_amount: 800_000, value_outstanding_framework: 'yes', reporting_year: 2024 });
  await ok('addCategoryIndicatorToFramework', { framework_identifier: 'GBF', sub_category_id: solar, sub_category_volume: 600_000, indicator_id: ghgId, indicator_value: 5_000, reporting_year: 2024 });
  await ok('addCategoryIndicatorToFramework', { framework_identifier: 'GBF', sub_category_id: wind, sub_category_volume: 200_000, indicator_id: energyId, indicator_value: 800, reporting_year: 2024 });
});
after(async () => {
  await t.stop();
});

const call = (operation: string, parameters?: Record<string, unknown>, headers: Record<string, string> = ACME) =>
  postCall(t.baseUrl, { solution: ESG, operation, ...(parameters ? { parameters } : {}) }, headers);

type Res = Awaited<ReturnType<typeof postCall>>;

async function ok(operation: string, parameters?: Record<string, unknown>, headers: Record<string, string> = ACME): Promise<any> {
  const res = await call(operation, parameters, headers);
  assert.equal(res.status, 200, `${operation}: ${res.text}`);
  return res.json;
}

function assertError(res: Res, status: number, code: string, message: string) {
  assert.equal(res.status, status, res.text);
  assert.deepEqual(res.json, { message, code });
}

/** The last request the portfolio service received for a method, without unset optional fields. */
function lastRequest(method: string): any {
  const found = t.portfolio!.calls.filter((c) => c.method === method).at(-1);
  assert.ok(found, `no ${method} call`);
  return JSON.parse(JSON.stringify(found.request));
}

const ASSET = { asset_identifier: 'SE0001', asset_name: 'Green bond 2029', issuer_identifier: 'ISS-1', framework_identifier: 'GBF', asset_currency_code: 'EUR' };
const POSITION = { investor_identifier: 'inv_1', asset_identifier: 'SE0001', position_amount: 100_000, position_currency_code: 'EUR' };

// The rules (dates, amounts, position_days, years, currency codes, e-mail addresses, position ids) are the
// portfolio service's and answered in its words: services/portfolio/src/rules.test.ts. The gateway refuses
// what is absent or of the wrong type itself.
describe('validation failures are 400 with message and code, before any portfolio call', () => {
  const cases: [string, string, Record<string, unknown> | undefined, string][] = [
    ['bad asset visibility', 'addAsset', { ...ASSET, asset_visibility: 'everyone' }, 'asset_visibility must be public or private.'],
    ['bad visibility filter', 'getAssets', { issuer_visibility: 'shared' }, 'issuer_visibility must be public or private.'],
    ['position amount as words', 'addPosition', { ...POSITION, position_amount: 'much' }, 'position_amount must be a number.'],
    ['position_days fractional', 'addPosition', { ...POSITION, position_days: '36.5' }, 'position_days must be an integer.'],
    ['getPositions without investor', 'getPositions', { user_identifier: 'u1' }, 'investor_identifier is required.'],
    ['getPortfolios without investor', 'getPortfolios', {}, 'investor_identifier is required.'],
    ['no parameters', 'removeAsset', undefined, 'asset_identifier is required.'],
    ['compute_missing not yes/no', 'getInvestorImpacts', { investor_identifier: 'inv_1', reporting_year: 2024, compute_missing: 'sometimes' }, 'compute_missing must be yes or no.'],
  ];
  for (const [name, operation, parameters, message] of cases) {
    test(name, async () => {
      const before = t.portfolio!.calls.length;
      assertError(await call(operation, parameters), 400, 'INVALID_ARGUMENT', message);
      assert.equal(t.portfolio!.calls.length, before, 'the gateway refused it itself');
    });
  }
});

describe('the spec shapes, end to end against the services', () => {
  test('assets: add, update, list, details, visibility to others, removal', async () => {
    assert.match((await ok('addAsset', { ...ASSET, asset_value_outstanding: '10000', date_issued: '2024-03-01', date_maturity: '2029-03-01', asset_visibility: 'PUBLIC' })).message, /^Asset added with id \d+\.$/);
    assert.deepEqual(lastRequest('addAsset'), {
      assetIdentifier: 'SE0001',
      assetName: 'Green bond 2029',
      issuerIdentifier: 'ISS-1',
      frameworkIdentifier: 'GBF',
      assetValueOutstanding: 10_000,
      assetCurrencyCode: 'EUR',
      dateIssued: '2024-03-01',
      dateMaturity: '2029-03-01',
      assetVisibility: Visibility.VISIBILITY_PUBLIC,
    });
    assert.deepEqual(await ok('addAsset', { ...ASSET, asset_name: 'Green bond 2029 (tap)', issuer_name: 'Nordic Issuer' }), { message: 'Asset updated.' });
    await ok('addAsset', { ...ASSET, asset_identifier: 'SE0002', asset_name: 'Draft bond' });
    assertError(await call('addAsset', { ...ASSET, framework_identifier: 'NOPE' }), 404, 'NOT_FOUND', 'No such framework "NOPE".');

    const mine = await ok('getAssets', {});
    assert.deepEqual(mine[0], {
      asset_id: mine[0].asset_id,
      asset_identifier: 'SE0001',
      asset_name: 'Green bond 2029 (tap)',
      asset_value_outstanding: 10_000,
      asset_currency_code: 'EUR',
      asset_date_issued: '2024-03-01',
      asset_date_maturity: '2029-03-01',
      issuer_identifier: 'ISS-1',
      issuer_name: 'Nordic Issuer',
      framework_identifier: 'GBF',
      framework_name: 'Green Bond Framework',
      asset_visibility: 'public',
    });
    assert.deepEqual(mine[1].asset_value_outstanding, null);
    assert.deepEqual((await ok('getAssets', {}, OTHER)).map((a: any) => a.asset_identifier), ['SE0001'], 'others see only the public one');
    assert.deepEqual((await ok('getAssets', { issuer_visibility: 'private' })).map((a: any) => a.asset_identifier), ['SE0002']);
    assert.equal(lastRequest('getAssets').issuerVisibility, Visibility.VISIBILITY_PRIVATE);
    assertError(await call('removeAsset', { asset_identifier: 'SE0001' }, OTHER), 403, 'PERMISSION_DENIED', 'Not authorized.');

    // share = 10 000 / D (1 000 000) = 0.01 of every row, in the asset's currency.
    const details = await ok('getAssetFrameworkDetails', { asset_identifier: 'SE0001', reporting_year: 2024, language_code: 'sv' });
    assert.equal(details.length, 1);
    assert.equal(details[0].framework_identifier, 'GBF');
    assert.equal(details[0].framework_value_outstanding, 1_000_000);
    assert.equal(details[0].value_outstanding_framework, 'yes');
    assert.deepEqual(
      details[0].framework.map((r: any) => [r.sub_category_id, r.sub_category_volume, r.currency_code, r.indicator_id, r.indicator_value]),
      [
        [solar, 6_000, 'EUR', ghgId, 50],
        [wind, 2_000, 'EUR', energyId, 8],
      ],
    );
    assert.equal('framework_currency_code' in details[0].framework[0], false);
    assert.equal(lastRequest('getAssetFrameworkDetails').languageCode, 'sv');
    assertError(
      await call('getAssetFrameworkDetails', { asset_identifier: 'SE0002', reporting_year: 2024 }),
      400,
      'FAILED_PRECONDITION',
      'Asset "SE0002" has no asset_value_outstanding; its share of the framework cannot be computed.',
    );
    assert.deepEqual(await ok('removeAsset', { asset_identifier: 'SE0002' }), { message: 'Asset removed.' });
  });

  test('investors: identifier, encrypted add, masked / decrypted / wrong key, depryption_key', async () => {
    const generated = await ok('generateInvestorIdentifier');
    assert.deepEqual(Object.keys(generated), ['investor_identifier']);
    assert.match(generated.investor_identifier, /^inv_/);
    // Currency codes in any case are the service's to upper-case (services/portfolio/src/rules.test.ts).
    assert.deepEqual(await ok('addInvestor', { investor_identifier: 'inv_1', investor_name: 'Ann Investor', investor_currency_code: 'EUR', encryption_key: KEY, investor_email: 'ann@example.org' }), {
      message: 'Investor added.',
    });
    assert.deepEqual(lastRequest('addInvestor'), {
      investorIdentifier: 'inv_1',
      investorName: 'Ann Investor',
      investorCurrencyCode: 'EUR',
      encryptionKey: KEY,
      investorEmail: 'ann@example.org',
    });
    await ok('addInvestor', { investor_identifier: 'inv_2', investor_name: 'Bo Plain', investor_currency_code: 'SEK' });
    const investors = await ok('getInvestors');
    assert.deepEqual(investors, [
      { investor_id: investors[0].investor_id, investor_identifier: 'inv_1', investor_name: '********', investor_currency_code: 'EUR', investor_email: '********' },
      { investor_id: investors[1].investor_id, investor_identifier: 'inv_2', investor_name: 'Bo Plain', investor_currency_code: 'SEK', investor_email: null },
    ]);
    assert.ok(investors[0].investor_id > 0 && investors[1].investor_id > investors[0].investor_id);
    const opened = await ok('getInvestors', { depryption_key: KEY });
    assert.equal(opened[0].investor_name, 'Ann Investor');
    assert.equal(lastRequest('getInvestors').decryptionKey, KEY);
    assertError(await call('getInvestors', { decryption_key: 'b'.repeat(64) }), 400, 'INVALID_ARGUMENT', 'The decryption key does not match the key the data was encrypted with.');
    assert.deepEqual(await ok('getInvestors', {}, OTHER), [], 'investors are private to the account');
  });

  test('positions and portfolios: add (message ends with the id), list, user filter, aliases, removal', async () => {
    const added = await ok('addPosition', { ...POSITION, reporting_year: 2024, position_days: '183', position_start_date: '2024-07-01' });
    assert.match(added.message, /^Position added with id \d+\.$/);
    assert.deepEqual(Object.keys(added), ['message']);
    const first = Number(/(\d+)\.$/.exec(added.message)![1]);
    assert.deepEqual(lastRequest('addPosition'), {
      investorIdentifier: 'inv_1',
      assetIdentifier: 'SE0001',
      positionAmount: 100_000,
      positionCurrencyCode: 'EUR',
      reportingYear: 2024,
      positionDays: 183,
      positionStartDate: '2024-07-01',
    });
    const second = Number(/(\d+)\.$/.exec((await ok('addPosition', { ...POSITION, investor_identifier: 'inv_2', position_amount: '50000' })).message)![1]);

    const positions = await ok('getPositions', { investor_identifier: 'inv_1', decryption_key: KEY });
    assert.deepEqual(positions, [
      {
        position_id: first,
        position_amount: 100_000,
        position_currency_code: 'EUR',
        position_days: 183,
        position_start_date: '2024-07-01',
        investor_identifier: 'inv_1',
        investor_name: 'Ann Investor',
        asset_identifier: 'SE0001',
        asset_name: 'Green bond 2029 (tap)',
        issuer_identifier: 'ISS-1',
        issuer_name: 'Nordic Issuer',
      },
    ]);
    assert.equal(lastRequest('getPositions').investorFilterActive, false, 'no user: the filter is off');

    // user_identifier: identity gives the user's investors; the portfolio service filters by them.
    assertError(await call('getPositions', { investor_identifier: 'inv_1', user_identifier: 'nobody' }), 404, 'NOT_FOUND', 'No such user.');
    await ok('addUser', { user_identifier: 'u1' });
    await ok('addInvestorToUser', { user_identifier: 'u1', investor_identifier: 'inv_2' });
    assert.deepEqual(await ok('getPositions', { investor_identifier: 'inv_1', user_identifier: 'u1' }), [], 'inv_1 is not the user\'s');
    assert.deepEqual(lastRequest('getPositions'), { investorIdentifier: 'inv_1', investorIdentifiersAllowed: ['inv_2'], investorFilterActive: true });
    assert.deepEqual((await ok('getPositions', { investor_identifier: 'inv_2', user_identifier: 'u1' })).map((p: any) => p.position_id), [second]);

    assert.match((await ok('addPortfolio', { investor_identifier: 'inv_1', portfolio_identifier: 'core' })).message, /^Portfolio added with id \d+\.$/);
    assert.deepEqual(await ok('addPositionToPortfolio', { investor_identfier: 'inv_1', portfolio_identifier: 'core', position_id: String(first) }), {
      message: 'Position added to portfolio.',
    });
    assert.deepEqual(lastRequest('addPositionToPortfolio'), { investorIdentifier: 'inv_1', portfolioIdentifier: 'core', positionId: first });
    assertError(
      await call('addPositionToPortfolio', { investor_identfier: 'inv_1', portfolio_identifier: 'core', position_id: first }),
      409,
      'ALREADY_EXISTS',
      `Position ${first} is already in portfolio "core".`,
    );
    const portfolios = await ok('getPortfolios', { investor_identifier: 'inv_1' });
    assert.deepEqual(portfolios, [
      { portfolio_id: portfolios[0].portfolio_id, portfolio_identifier: 'core', investor_identifier: 'inv_1', investor_name: '********', assets: [{ asset_identifier: 'SE0001', asset_name: 'Green bond 2029 (tap)' }] },
    ]);
    assert.deepEqual(await ok('getPortfolios', { investor_identifier: 'inv_1', user_identifier: 'u1' }), []);
    assert.deepEqual(await ok('getPortfolioPositions', { portfolio_identifier: 'core' }), [
      {
        position_id: first,
        position_amount: 100_000,
        position_currency_code: 'EUR',
        position_days: 183,
        asset_identifier: 'SE0001',
        asset_name: 'Green bond 2029 (tap)',
        issuer_identifier: 'ISS-1',
        issuer_name: 'Nordic Issuer',
      },
    ]);
    assert.deepEqual(await ok('addPortfolio', { investor_identifier: 'inv_1', portfolio_identifier: 'core', portfolio_identifier_changed: 'main' }), { message: 'Portfolio changed.' });
    assertError(await call('removeAsset', { asset_identifier: 'SE0001' }), 400, 'FAILED_PRECONDITION', `Asset "SE0001" is still held by positions ${first}, ${second}; remove them first.`);

    // ---- impacts (additions) ----
    assertError(
      await call('computePositionImpacts', { investor_identifier: 'inv_2', position_id: first, reporting_year: 2024 }),
      404,
      'NOT_FOUND',
      `No position ${first} of investor "inv_2".`,
    );
    assert.equal(t.portfolio!.count('computePositionImpacts'), 0, 'another investor\'s position is refused before the computation');
    const computed = await ok('computePositionImpacts', { investor_identifier: 'inv_1', position_id: first, reporting_year: 2024 });
    assert.equal(computed.message, `Impacts of position ${first} for 2024 computed: 2 records.`);
    // tau = 183 days held (1 July to 30 December) ÷ 366 days of 2024; P_f ÷ D = 100 000 ÷ 1 000 000.
    const tau = 183 / 366;
    const [ghg] = computed.impacts;
    assert.equal(ghg.position_id, first);
    assert.equal(ghg.tau, tau);
    assert.equal(ghg.value, tau * 0.1 * 5_000);
    assert.equal(ghg.attributed_volume, tau * 0.1 * 600_000);
    assert.equal(ghg.value_outstanding_framework, 'yes');
    assert.equal(ghg.attribution_denominator, 1_000_000);

    const stored = await ok('getPositionImpacts', { investor_identfier: 'inv_1', position_id: first, reporting_year: 2024 });
    assert.deepEqual(stored, computed.impacts);
    const byPortfolio = await ok('getPortfolioImpacts', { portfolio_identifier: 'main', reporting_year: 2024 });
    assert.equal(byPortfolio.portfolio_identifier, 'main');
    assert.equal(byPortfolio.investor_identifier, 'inv_1');
    assert.deepEqual(byPortfolio.totals.map((x: any) => [x.indicator_id, x.unit_name, x.value, x.position_count]), [
      [ghgId, 'tCO2e/year', tau * 0.1 * 5_000, 1],
      [energyId, 'MWh/year', tau * 0.1 * 800, 1],
    ]);
    const totalsOnly = await ok('getPortfolioImpacts', { portfolio_identifier: 'main', reporting_year: 2024, include_records: 'no' });
    assert.equal('impacts' in totalsOnly, false, 'include_records no leaves the records out');
    assert.deepEqual(totalsOnly.totals, byPortfolio.totals);
    const byInvestor = await ok('getInvestorImpacts', { investor_identifier: 'inv_2', reporting_year: 2024 });
    assert.deepEqual(byInvestor.position_ids_without_impacts, [second]);
    const computedMissing = await ok('getInvestorImpacts', { investor_identifier: 'inv_2', reporting_year: 2024, compute_missing: 'yes' });
    assert.deepEqual(computedMissing.position_ids_without_impacts, []);
    // 365 days from 1 January of leap 2024 miss 31 December: tau = 365/366.
    assert.equal(computedMissing.volume_totals[0].attributed_volume, (365 / 366) * 0.05 * 600_000);

    // ---- removals ----
    assert.deepEqual(await ok('removePositionFromPortfolio', { investor_identfier: 'inv_1', portfolio_identifier: 'main', position_id: first }), {
      message: 'Position removed from portfolio.',
    });
    assert.deepEqual(await ok('removePortfolio', { investor_identifier: 'inv_1', portfolio_identifier: 'main' }), { message: 'Portfolio removed.' });
    assertError(await call('removePosition', { investor_identifier: 'inv_2', position_id: first }), 404, 'NOT_FOUND', `No position ${first} of investor "inv_2".`);
    assert.deepEqual(await ok('removePosition', { investor_identifier: 'inv_1', position_id: first }), { 'Position removed.': first });
    assert.deepEqual(await ok('removeInvestor', { investor_identifier: 'inv_2' }), { 'Investor removed.': 'inv_2' });
    assert.deepEqual(await ok('getPositions', { investor_identifier: 'inv_1' }), []);
    assertError(await call('getPositions', { investor_identifier: 'inv_2' }), 404, 'NOT_FOUND', 'No such investor.');
  });

  test('getInvestorsOfUser: ids and names from the portfolio service, in one batch for every user', async () => {
    await ok('addInvestor', { investor_identifier: 'inv_3', investor_name: 'Cy Secret', investor_currency_code: 'EUR', encryption_key: KEY });
    await ok('addInvestor', { investor_identifier: 'inv_4', investor_name: 'Di Plain', investor_currency_code: 'EUR' });
    await ok('addUser', { user_identifier: 'u2' });
    await ok('addUser', { user_identifier: 'u3' });
    for (const [user, investor] of [['u2', 'inv_3'], ['u2', 'gone'], ['u3', 'inv_4'], ['u3', 'inv_3']]) {
      await ok('addInvestorToUser', { user_identifier: user, investor_identifier: investor });
    }
    const before = t.portfolio!.count('getInvestorsByIdentifiers');
    const masked = await ok('getInvestorsOfUser', {});
    assert.equal(t.portfolio!.count('getInvestorsByIdentifiers') - before, 1, 'one batch for every user');
    const u2 = masked.find((u: any) => u.user_identifier === 'u2');
    const inv3 = u2.investors[0];
    assert.deepEqual(u2.investors, [
      { investor_id: inv3.investor_id, investor_identifier: 'inv_3', investor_name: '********' },
      { investor_id: null, investor_identifier: 'gone', investor_name: null },
    ]);
    assert.ok(inv3.investor_id > 0);
    const opened = await ok('getInvestorsOfUser', { user_identifier: 'u3', depryption_key: KEY });
    assert.deepEqual(opened, [
      {
        user_id: opened[0].user_id,
        user_identifier: 'u3',
        investors: [
          { investor_id: opened[0].investors[0].investor_id, investor_identifier: 'inv_4', investor_name: 'Di Plain' },
          { investor_id: inv3.investor_id, investor_identifier: 'inv_3', investor_name: 'Cy Secret' },
        ],
      },
    ]);
    assert.deepEqual(lastRequest('getInvestorsByIdentifiers'), { investorIdentifiers: ['inv_4', 'inv_3'], decryptionKey: KEY });
    assertError(await call('getInvestorsOfUser', { user_identifier: 'u2', decryption_key: 'c'.repeat(64) }), 400, 'INVALID_ARGUMENT', 'The decryption key does not match the key the data was encrypted with.');
  });
});

test('without PORTFOLIO_GRPC_ADDR: 503 UNAVAILABLE with a clear message; validation still comes first; /readyz lists no portfolio', async () => {
  const bare = await t.another({ PORTFOLIO_GRPC_ADDR: undefined });
  try {
    const post = (operation: string, parameters?: Record<string, unknown>) => postCall(bare.baseUrl, { solution: ESG, operation, ...(parameters ? { parameters } : {}) }, ACME);
    const message = 'The portfolio service is not available: this gateway has no portfolio backend configured.';
    for (const [operation, parameters] of [
      ['getAssets', {}],
      ['generateInvestorIdentifier', undefined],
      ['getPositions', { investor_identifier: 'inv_1', user_identifier: 'u1' }],
      ['getPortfolioImpacts', { portfolio_identifier: 'core', reporting_year: 2024 }],
    ] as const) {
      assertError(await post(operation, parameters), 503, 'UNAVAILABLE', message);
    }
    assertError(await post('addPosition', { ...POSITION, position_days: '36.5' }), 400, 'INVALID_ARGUMENT', 'position_days must be an integer.');
    assert.deepEqual(await (await fetch(`${bare.baseUrl}/readyz`)).json(), { status: 'ready', backends: { identity: 'SERVING', taxonomy: 'SERVING' } });
  } finally {
    await bare.stop();
  }
});

test('/readyz checks the portfolio backend when configured', async () => {
  const res = await fetch(`${t.baseUrl}/readyz`);
  assert.equal(res.status, 200);
  assert.deepEqual(await res.json(), { status: 'ready', backends: { identity: 'SERVING', taxonomy: 'SERVING', portfolio: 'SERVING' } });
});
