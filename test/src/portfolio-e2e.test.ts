import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { skipReason, testDatabases } from '@green-impact/testing/shared/databases';
import type { RunningSystem } from '@green-impact/embedded/system';
import { createUserAccount, graphqlClient, ok, refused, startTestSystem } from './support/system.js';
import { conformingV1Client } from './support/answer-conformance.js';
import { decimalText } from '@green-impact/gateway/graphql/scalars';

const ESG = 'SVC.ESG.Credits';
const OPERATOR = 'portfolio-operator-key';
const idOf = (message: string): number => Number(/(\d+)\.$/.exec(message)?.[1]);
const MASK = '********';

/** Equal up to floating-point rounding (the service converts and divides in its own order). */
function near(actual: number, expected: number, what: string) {
  assert.ok(Math.abs(actual - expected) <= 1e-9 * Math.max(1, Math.abs(expected)), `${what}: ${actual} ≠ ${expected}`);
}

/**
 * gRPC calls the portfolio and taxonomy services have answered, per method, from the gateway's /metrics
 * (grpc_server_handled_total: in the embedded system every service shares the process's registry).
 */
async function grpcCalls(baseUrl: string): Promise<Map<string, number>> {
  const text = await (await fetch(`${baseUrl}/metrics`)).text();
  const counts = new Map<string, number>();
  for (const [, labelText, value] of text.matchAll(/^grpc_server_handled_total\{([^}]*)\} (\d+)$/gm)) {
    const labels = Object.fromEntries([...labelText!.matchAll(/(\w+)="([^"]*)"/g)].map(([, k, v]) => [k, v]));
    const service = labels['service'] ?? '';
    if (!/\.(PortfolioService|TaxonomyService)$/.test(service)) continue;
    const key = `${service.split('.').at(-1)}/${labels['method']}`;
    counts.set(key, (counts.get(key) ?? 0) + Number(value));
  }
  return counts;
}

async function callsDuring(baseUrl: string, run: () => Promise<unknown>): Promise<Record<string, number>> {
  const before = await grpcCalls(baseUrl);
  await run();
  const after = await grpcCalls(baseUrl);
  const delta: Record<string, number> = {};
  for (const [key, n] of after) if (n > (before.get(key) ?? 0)) delta[key] = n - (before.get(key) ?? 0);
  return delta;
}

/**
 * Assets, investors, positions, portfolios and impacts with the whole system: an operator loads a taxonomy,
 * a currency and an FX rate; an issuer publishes a framework in EUR with its year figures and rows and a
 * public asset in SEK; an investor manager (another account) adds an encrypted investor and a plain one,
 * positions with impacts, a portfolio and a user limited to one investor, reads everything back and removes
 * it again. Once through /v1/call (2024) and once through GraphQL (2025, with the batching measured on the
 * real services), on PGlite and on PostgreSQL.
 */
for (const db of testDatabases) {
  describe(`portfolio end to end through the gateway on ${db.name}`, { skip: await skipReason(db) }, () => {
    let system: RunningSystem;
    let issuerKey: string;
    let managerKey: string;

    before(async () => {
      system = await startTestSystem(db, OPERATOR);
      issuerKey = await createUserAccount(system.gatewayUrl, OPERATOR, 'Nordic Issuer');
      managerKey = await createUserAccount(system.gatewayUrl, OPERATOR, 'Fund Manager');
    });
    after(async () => system?.stop());

    it('through /v1/call: assets, investors, positions with impacts, portfolios, the user filter, removals', async () => {
      const year = 2024;
      const op = conformingV1Client(system.gatewayUrl, OPERATOR);
      const issuer = conformingV1Client(system.gatewayUrl, issuerKey);
      const manager = conformingV1Client(system.gatewayUrl, managerKey);

      // ---- the operator: taxonomy of 2024, SEK and the SEK/EUR rate (12.5 SEK per EUR) ----
      const id = async (operation: string, params: Record<string, unknown>) =>
        idOf((await ok(op(ESG, operation, { reporting_year: year, language_code: 'en', ...params }), operation)).message);
      const category = await id('addCategory', { category_name: 'Renewable energy' });
      const solar = await id('addSubCategory', { sub_category_name: 'Solar power', category_id: category });
      const tco2e = await id('addUnit', { unit_name: 'tCO2e' });
      const mwh = await id('addUnit', { unit_name: 'MWh' });
      const climate = await id('addSuperIndicator', { super_indicator_name: 'Climate', category_id: category });
      const ghg = await id('addIndicator', { indicator_name: 'GHG avoided', super_indicator_id: climate, unit_id: tco2e });
      const energy = await id('addIndicator', { indicator_name: 'Energy generated', super_indicator_id: climate, unit_id: mwh });
      await ok(op(ESG, 'addIndicatorTranslation', { indicator_id: ghg, reporting_year: year, language_code: 'sv', translation: 'Undvikna utsläpp' }), 'translation');
      await ok(op(ESG, 'addCurrency', { currency_code: 'SEK' }), 'addCurrency');
      await ok(op(ESG, 'addFXrate', { currency_code_numerator: 'SEK', currency_code_denominator: 'EUR', currency_code_quota: 12.5, reporting_year: year }), 'addFXrate');

      // ---- the issuer: framework in EUR, V = 2 000 000, L = 2 500 000, flag no → D = 2 500 000 ----
      await ok(issuer(ESG, 'addFramework', { framework_identifier: 'GBF', framework_name: 'Green Bond Framework', framework_currency_code: 'EUR', framework_visibility: 'public' }), 'addFramework');
      await ok(issuer(ESG, 'addYearSpecificsToFramework', { framework_identifier: 'GBF', value_outstanding: 2_000_000, allocated_amount: 2_500_000, value_outstanding_framework: 'no', reporting_year: year }), 'specifics');
      const row = (indicator: number, volume: number, value: number) =>
        ok(issuer(ESG, 'addCategoryIndicatorToFramework', { framework_identifier: 'GBF', sub_category_id: solar, sub_category_volume: volume, indicator_id: indicator, indicator_value: value, reporting_year: year }), 'row');
      await row(ghg, 1_000_000, 12_500);
      await row(energy, 1_000_000, 4_000);

      const asset = { asset_identifier: 'SE0001', asset_name: 'Green bond 2029', issuer_identifier: 'NORDIC', framework_identifier: 'GBF', asset_currency_code: 'sek' };
      await refused(issuer(ESG, 'addAsset', { ...asset, date_issued: '2024-03-01', date_maturity: '2024-02-28' }), 400, 'INVALID_ARGUMENT', 'date_maturity must not be before date_issued.');
      const added = await ok(
        issuer(ESG, 'addAsset', { ...asset, asset_value_outstanding: 6_250_000, date_issued: '2024-03-01', date_maturity: '2029-03-01', asset_visibility: 'public', issuer_name: 'Nordic Issuer AB' }),
        'addAsset',
      );
      assert.match(added.message, /^Asset added with id \d+\.$/);
      await ok(issuer(ESG, 'addAsset', { ...asset, asset_identifier: 'SE-DRAFT', asset_name: 'Draft' }), 'private asset');
      const listed = await ok(manager(ESG, 'getAssets', {}), 'getAssets as the manager');
      assert.deepEqual(listed, [
        {
          asset_id: idOf(added.message),
          asset_identifier: 'SE0001',
          asset_name: 'Green bond 2029',
          asset_value_outstanding: 6_250_000,
          asset_currency_code: 'SEK',
          asset_date_issued: '2024-03-01',
          asset_date_maturity: '2029-03-01',
          issuer_identifier: 'NORDIC',
          issuer_name: 'Nordic Issuer AB',
          framework_identifier: 'GBF',
          framework_name: 'Green Bond Framework',
          asset_visibility: 'public',
        },
      ]);
      assert.deepEqual((await ok(issuer(ESG, 'getAssets', { issuer_visibility: 'private' }), 'private')).map((a: any) => a.asset_identifier), ['SE-DRAFT']);

      // Asset share = 6 250 000 SEK ÷ 12.5 = 500 000 EUR ÷ D 2 500 000 = 0.2 of every row, volumes in SEK.
      const [detail] = await ok(manager(ESG, 'getAssetFrameworkDetails', { asset_identifier: 'SE0001', reporting_year: year, language_code: 'sv' }), 'asset details');
      assert.equal(detail.framework_identifier, 'GBF');
      assert.equal(detail.value_outstanding_framework, 'no');
      assert.deepEqual(
        detail.framework.map((r: any) => [r.indicator_id, r.indicator_name, r.currency_code]).sort((a: number[], b: number[]) => a[0]! - b[0]!),
        [
          [ghg, 'Undvikna utsläpp', 'SEK'],
          [energy, 'Energy generated', 'SEK'],
        ],
      );
      const ghgRow = detail.framework.find((r: any) => r.indicator_id === ghg);
      near(ghgRow.indicator_value, 0.2 * 12_500, 'attributed indicator value');
      near(ghgRow.sub_category_volume, 0.2 * 1_000_000 * 12.5, 'attributed volume in SEK');

      // ---- the manager's investors: one encrypted, one plain ----
      const key = (await ok(manager(ESG, 'generateEncryptionKey'), 'key')).message as string;
      const invA = (await ok(manager(ESG, 'generateInvestorIdentifier'), 'identifier')).investor_identifier as string;
      assert.match(invA, /^inv_/);
      assert.deepEqual(await ok(manager(ESG, 'addInvestor', { investor_identifier: invA, investor_name: 'Astrid Investor', investor_currency_code: 'SEK', encryption_key: key, investor_email: 'astrid@example.org' }), 'addInvestor'), {
        message: 'Investor added.',
      });
      await ok(manager(ESG, 'addInvestor', { investor_identifier: 'inv_plain', investor_name: 'Bertil Plain', investor_currency_code: 'EUR' }), 'plain investor');
      const masked = await ok(manager(ESG, 'getInvestors', {}), 'getInvestors');
      assert.deepEqual(masked.map((i: any) => [i.investor_identifier, i.investor_name, i.investor_email]), [
        [invA, MASK, MASK],
        ['inv_plain', 'Bertil Plain', null],
      ]);
      const opened = await ok(manager(ESG, 'getInvestors', { depryption_key: key }), 'getInvestors with the key');
      assert.deepEqual(opened[0], { investor_id: masked[0].investor_id, investor_identifier: invA, investor_name: 'Astrid Investor', investor_currency_code: 'SEK', investor_email: 'astrid@example.org' });
      await refused(manager(ESG, 'getInvestors', { decryption_key: 'f'.repeat(64) }), 400, 'INVALID_ARGUMENT');
      assert.deepEqual(await ok(issuer(ESG, 'getInvestors', {}), 'other account'), []);

      // ---- positions: one with impacts of 2024 from 1 July, one without ----
      await refused(manager(ESG, 'addPosition', { investor_identifier: invA, asset_identifier: 'SE0001', position_amount: -1, position_currency_code: 'SEK' }), 400, 'INVALID_ARGUMENT', 'position_amount must be a positive number.');
      await refused(manager(ESG, 'addPosition', { investor_identifier: invA, asset_identifier: 'SE0001', position_amount: 1, position_currency_code: 'SEK', position_days: 0 }), 400, 'INVALID_ARGUMENT', 'position_days must be a whole number of days from 1 to 36525, got 0.');
      await refused(manager(ESG, 'addPosition', { investor_identifier: invA, asset_identifier: 'SE-DRAFT', position_amount: 1, position_currency_code: 'SEK' }), 404, 'NOT_FOUND');
      const posA = idOf(
        (await ok(manager(ESG, 'addPosition', { investor_identifier: invA, asset_identifier: 'SE0001', position_amount: 1_250_000, position_currency_code: 'SEK', reporting_year: year, position_start_date: '2024-07-01' }), 'addPosition')).message,
      );
      const posB = idOf((await ok(manager(ESG, 'addPosition', { investor_identifier: 'inv_plain', asset_identifier: 'SE0001', position_amount: 50_000, position_currency_code: 'EUR' }), 'addPosition B')).message);
      assert.ok(posA > 0 && posB > posA);

      // By hand: tau = 184 days (1 July – 31 December) ÷ 366; P_f = 1 250 000 SEK ÷ 12.5 = 100 000 EUR;
      // P_f ÷ D = 100 000 ÷ 2 500 000 = 0.04; GHG impact = tau · 0.04 · 12 500 = 502.73…; volume = tau · 0.04 · 1 000 000.
      const impacts = await ok(manager(ESG, 'getPositionImpacts', { investor_identifier: invA, position_id: posA, reporting_year: year }), 'impacts');
      assert.equal(impacts.length, 2);
      const ghgImpact = impacts.find((r: any) => r.indicator_id === ghg);
      near(ghgImpact.tau, 184 / 366, 'tau');
      near(ghgImpact.position_amount_framework_currency, 100_000, 'P_f');
      assert.equal(ghgImpact.attribution_denominator, 2_500_000);
      near(ghgImpact.fx_rate, 0.08, 'EUR per SEK');
      near(ghgImpact.value, (184 / 366) * 0.04 * 12_500, 'GHG impact');
      near(ghgImpact.attributed_volume, (184 / 366) * 0.04 * 1_000_000, 'attributed volume');
      assert.equal(ghgImpact.holding_days_in_year, 184);
      assert.equal(ghgImpact.value_outstanding_framework, 'no');
      await refused(manager(ESG, 'getPositionImpacts', { investor_identifier: 'inv_plain', position_id: posA }), 404, 'NOT_FOUND', `No position ${posA} of investor "inv_plain".`);
      const recomputed = await ok(manager(ESG, 'computePositionImpacts', { investor_identifier: invA, position_id: posA, reporting_year: year }), 'compute');
      assert.equal(recomputed.message, `Impacts of position ${posA} for ${year} computed: 2 records.`);

      const positions = await ok(manager(ESG, 'getPositions', { investor_identifier: invA, decryption_key: key }), 'getPositions');
      assert.deepEqual(positions, [
        {
          position_id: posA,
          position_amount: 1_250_000,
          position_currency_code: 'SEK',
          position_days: 365,
          position_start_date: '2024-07-01',
          investor_identifier: invA,
          investor_name: 'Astrid Investor',
          asset_identifier: 'SE0001',
          asset_name: 'Green bond 2029',
          issuer_identifier: 'NORDIC',
          issuer_name: 'Nordic Issuer AB',
        },
      ]);
      assert.equal((await ok(manager(ESG, 'getPositions', { investor_identifier: invA }), 'masked'))[0].investor_name, MASK);

      // ---- a portfolio (the spec's misspelt investor_identfier), its positions and impacts ----
      assert.match((await ok(manager(ESG, 'addPortfolio', { investor_identifier: invA, portfolio_identifier: 'core' }), 'addPortfolio')).message, /^Portfolio added with id \d+\.$/);
      assert.deepEqual(await ok(manager(ESG, 'addPositionToPortfolio', { investor_identfier: invA, portfolio_identifier: 'core', position_id: posA }), 'member'), { message: 'Position added to portfolio.' });
      await refused(manager(ESG, 'addPositionToPortfolio', { investor_identfier: invA, portfolio_identifier: 'core', position_id: posB }), 404, 'NOT_FOUND');
      assert.deepEqual(await ok(manager(ESG, 'getPortfolios', { investor_identifier: invA, decryption_key: key }), 'getPortfolios'), [
        { portfolio_id: (await ok(manager(ESG, 'getPortfolios', { investor_identifier: invA }), 'again'))[0].portfolio_id, portfolio_identifier: 'core', investor_identifier: invA, investor_name: 'Astrid Investor', assets: [{ asset_identifier: 'SE0001', asset_name: 'Green bond 2029' }] },
      ]);
      assert.deepEqual((await ok(manager(ESG, 'getPortfolioPositions', { portfolio_identifier: 'core' }), 'portfolio positions')).map((p: any) => [p.position_id, p.position_days, p.issuer_name]), [[posA, 365, 'Nordic Issuer AB']]);
      const totals = await ok(manager(ESG, 'getPortfolioImpacts', { portfolio_identifier: 'core', reporting_year: year }), 'portfolio impacts');
      near(totals.totals.find((x: any) => x.indicator_id === ghg).value, ghgImpact.value, 'portfolio total');
      const plain = await ok(manager(ESG, 'getInvestorImpacts', { investor_identifier: 'inv_plain', reporting_year: year }), 'investor impacts');
      assert.deepEqual(plain.position_ids_without_impacts, [posB]);

      // ---- a user limited to the plain investor: positions, portfolios and getInvestorsOfUser ----
      await ok(manager(ESG, 'addUser', { user_identifier: 'analyst' }), 'addUser');
      await ok(manager(ESG, 'addInvestorToUser', { user_identifier: 'analyst', investor_identifier: 'inv_plain' }), 'link');
      await refused(manager(ESG, 'getPositions', { investor_identifier: invA, user_identifier: 'nobody' }), 404, 'NOT_FOUND', 'No such user.');
      assert.deepEqual(await ok(manager(ESG, 'getPositions', { investor_identifier: invA, user_identifier: 'analyst' }), 'not the user\'s'), []);
      assert.deepEqual((await ok(manager(ESG, 'getPositions', { investor_identifier: 'inv_plain', user_identifier: 'analyst' }), 'the user\'s')).map((p: any) => p.position_id), [posB]);
      assert.deepEqual(await ok(manager(ESG, 'getPortfolios', { investor_identifier: invA, user_identifier: 'analyst' }), 'no portfolios'), []);
      await ok(manager(ESG, 'addInvestorToUser', { user_identifier: 'analyst', investor_identifier: invA }), 'link A');
      await ok(manager(ESG, 'addInvestorToUser', { user_identifier: 'analyst', investor_identifier: 'inv_unknown' }), 'link unknown');
      const ofUser = await ok(manager(ESG, 'getInvestorsOfUser', { user_identifier: 'analyst', decryption_key: key }), 'getInvestorsOfUser');
      assert.deepEqual(ofUser, [
        {
          user_id: ofUser[0].user_id,
          user_identifier: 'analyst',
          investors: [
            { investor_id: masked[1].investor_id, investor_identifier: 'inv_plain', investor_name: 'Bertil Plain' },
            { investor_id: masked[0].investor_id, investor_identifier: invA, investor_name: 'Astrid Investor' },
            { investor_id: null, investor_identifier: 'inv_unknown', investor_name: null },
          ],
        },
      ]);
      assert.equal((await ok(manager(ESG, 'getInvestorsOfUser', {}), 'masked'))[0].investors[1].investor_name, MASK);

      // ---- removals: the asset is held; the investor goes with its positions, impacts and portfolios ----
      await refused(issuer(ESG, 'removeAsset', { asset_identifier: 'SE0001' }), 400, 'FAILED_PRECONDITION', /held by positions of other accounts/);
      await refused(manager(ESG, 'removeAsset', { asset_identifier: 'SE0001' }), 403, 'PERMISSION_DENIED', 'Not authorized.');
      assert.deepEqual(await ok(manager(ESG, 'removeInvestor', { investor_identifier: invA }), 'removeInvestor'), { 'Investor removed.': invA });
      await refused(manager(ESG, 'getPortfolios', { investor_identifier: invA }), 404, 'NOT_FOUND', 'No such investor.');
      await refused(manager(ESG, 'getPortfolioPositions', { portfolio_identifier: 'core' }), 404, 'NOT_FOUND');
      await refused(manager(ESG, 'getPositionImpacts', { investor_identifier: invA, position_id: posA }), 404, 'NOT_FOUND');
      const after = await ok(manager(ESG, 'getInvestorsOfUser', { user_identifier: 'analyst' }), 'after removal');
      assert.deepEqual(after[0].investors[1], { investor_id: null, investor_identifier: invA, investor_name: null });
      assert.deepEqual(await ok(manager(ESG, 'removePosition', { investor_identifier: 'inv_plain', position_id: posB }), 'removePosition'), { 'Position removed.': posB });
      assert.deepEqual(await ok(issuer(ESG, 'removeAsset', { asset_identifier: 'SE0001' }), 'removeAsset'), { message: 'Asset removed.' });
      assert.deepEqual(await ok(manager(ESG, 'getAssets', {}), 'no assets'), []);
    });

    it('through GraphQL: the same story, nested; a portfolio of many positions costs the same few calls as a small one', async () => {
      const year = 2025;
      const must = (apiKey: string) => async (query: string, variables?: Record<string, unknown>): Promise<any> => {
        const res = await graphqlClient(system.gatewayUrl, apiKey)(query, variables);
        assert.equal(res.errors, undefined, JSON.stringify(res.errors));
        return res.data;
      };
      const op = must(OPERATOR);
      const issuer = must(issuerKey);
      const manager = must(managerKey);

      // ---- taxonomy of 2025, framework in EUR (V = L = 1 000 000, flag yes → D = 1 000 000), public asset ----
      const { c } = await op(`mutation { c: addCategory(input: {name: "Clean transport", year: ${year}, languageCode: "en"}) { id } }`);
      const { s, u, si } = await op(
        `mutation($c: ID!) {
          s: addSubCategory(input: {name: "Rail", categoryId: $c, year: ${year}, languageCode: "en"}) { id }
          u: addUnit(input: {name: "tCO2e", year: ${year}}) { id }
          si: addSuperIndicator(input: {name: "Emissions", categoryId: $c, year: ${year}}) { id }
        }`,
        { c: c.id },
      );
      const { i } = await op(`mutation($si: ID!, $u: ID!) { i: addIndicator(input: {name: "GHG avoided", superIndicatorId: $si, unitId: $u, year: ${year}}) { id } }`, { si: si.id, u: u.id });
      await issuer(
        `mutation($s: ID!, $i: ID!) {
          f: addFramework(input: {identifier: "RAIL", name: "Rail Framework", currencyCode: "EUR", visibility: PUBLIC}) { id }
          y: addYearSpecificsToFramework(input: {identifier: "RAIL", year: ${year}, valueOutstanding: 1000000, allocatedAmount: 1000000, valueOutstandingFramework: true}) { message }
          r: addCategoryIndicatorToFramework(input: {identifier: "RAIL", year: ${year}, subCategoryId: $s, volume: 800000, indicatorId: $i, value: 2000}) { message }
          a: addAsset(input: {identifier: "XS0002", name: "Rail bond", issuerIdentifier: "RAILCO", frameworkIdentifier: "RAIL", valueOutstanding: 100000, currencyCode: "EUR", visibility: PUBLIC}) { message id }
        }`,
        { s: s.id, i: i.id },
      );
      const bad = await graphqlClient(system.gatewayUrl, issuerKey)(
        'mutation { addAsset(input: {identifier: "X", name: "X", issuerIdentifier: "I", frameworkIdentifier: "RAIL", currencyCode: "EUR", dateIssued: "2025-02-30"}) { message } }',
      );
      assert.deepEqual([bad.errors?.[0]?.message, bad.errors?.[0]?.extensions?.code], ['Date must be a calendar date YYYY-MM-DD such as "2025-06-30": got "2025-02-30".', 'BAD_USER_INPUT']);

      // ---- the manager: an encrypted investor, positions with impacts, a portfolio ----
      const k = (await manager('mutation { generateEncryptionKey { encryptionKey } }')).generateEncryptionKey.encryptionKey;
      const g = (await manager('mutation { generateInvestorIdentifier { investorIdentifier } }')).generateInvestorIdentifier.investorIdentifier;
      const made = await manager(
        `mutation($inv: String!, $key: String!) {
          i: addInvestor(input: {identifier: $inv, name: "Cecilia Capital", currencyCode: "EUR", email: "cecilia@example.org", encryptionKey: $key}) { message id }
          p: addPosition(input: {investorIdentifier: $inv, assetIdentifier: "XS0002", amount: 50000, currencyCode: "EUR", year: ${year}, startDate: "2025-01-01"}) {
            message id impacts { indicator { name } value attributedVolume inputs { amountInFrameworkCurrency denominator tau fxRate } }
          }
          f: addPortfolio(investorIdentifier: $inv, identifier: "rail") { message }
        }`,
        { inv: g, key: k },
      );
      // By hand: tau = 365/365 (2025), P_f ÷ D = 50 000 ÷ 1 000 000 = 0.05; impact = 0.05 · 2 000 = 100; volume = 0.05 · 800 000.
      assert.deepEqual(made.p.impacts, [{ indicator: { name: 'GHG avoided' }, value: '100', attributedVolume: '40000', inputs: { amountInFrameworkCurrency: '50000', denominator: '1000000', tau: '1', fxRate: '1' } }]);
      await manager(`mutation($inv: String!, $id: ID!) { addPositionToPortfolio(investorIdentifier: $inv, portfolioIdentifier: "rail", positionId: $id) { message } }`, { inv: g, id: made.p.id });
      await manager('mutation { addUser(input: {userIdentifier: "reader"}) { message } }');

      const read = await manager(
        `query($key: String, $inv: String!) {
          investor(identifier: $inv, decryptionKey: $key) {
            name email encrypted masked
            portfolios { identifier positions { id amount asset { identifier issuer { name } framework(year: ${year}) { identifier rows { value indicator { name } } } } } }
            impacts(year: ${year}) { totals { indicator { name } value positionCount } }
          }
          asset(identifier: "XS0002") { frameworkDetails(year: ${year}) { share denominator rows { volume value currencyCode } } }
          frameworks(year: ${year}) { nodes { identifier assets { identifier owned } } }
          limited: positions(userIdentifier: "reader") { nodes { id } }
          investorsOfUser(userIdentifier: "reader", decryptionKey: $key) { userIdentifier investors { identifier name } }
        }`,
        { key: k, inv: g },
      );
      assert.deepEqual(read.investor, {
        name: 'Cecilia Capital',
        email: 'cecilia@example.org',
        encrypted: true,
        masked: false,
        portfolios: [
          {
            identifier: 'rail',
            positions: [{ id: made.p.id, amount: '50000', asset: { identifier: 'XS0002', issuer: { name: 'RAILCO' }, framework: { identifier: 'RAIL', rows: [{ value: '2000', indicator: { name: 'GHG avoided' } }] } } }],
          },
        ],
        impacts: { totals: [{ indicator: { name: 'GHG avoided' }, value: '100', positionCount: 1 }] },
      });
      assert.deepEqual(read.asset.frameworkDetails, { share: '0.1', denominator: '1000000', rows: [{ volume: '80000', value: '200', currencyCode: 'EUR' }] });
      assert.deepEqual(read.frameworks.nodes.find((f: any) => f.identifier === 'RAIL').assets, [{ identifier: 'XS0002', owned: false }]);
      assert.deepEqual(read.limited.nodes, [], 'the reader was given no investor');
      assert.deepEqual(read.investorsOfUser, [{ userIdentifier: 'reader', investors: [] }]);
      await manager(`mutation($inv: String!) { addInvestorToUser(userIdentifier: "reader", investorIdentifier: $inv) { message } }`, { inv: g });
      const seen = await manager(`query($key: String) { positions(userIdentifier: "reader", decryptionKey: $key) { nodes { id investor { name } } } investorsOfUser(userIdentifier: "reader") { investors { name } } }`, { key: k });
      assert.deepEqual(seen, { positions: { nodes: [{ id: made.p.id, investor: { name: 'Cecilia Capital' } }] }, investorsOfUser: [{ investors: [{ name: MASK }] }] });

      // ---- batching on the real services: the same calls for 3 and for 60 positions ----
      // Positions are added and joined 20 aliases to a document (GRAPHQL_MAX_ALIASES is 30), as a client adding
      // many would batch them.
      const inChunks = <T,>(items: T[]) => Array.from({ length: Math.ceil(items.length / 20) }, (_, c) => items.slice(c * 20, c * 20 + 20));
      const fill = async (portfolio: string, n: number) => {
        await manager(`mutation($inv: String!) { addPortfolio(investorIdentifier: $inv, identifier: "${portfolio}") { id } }`, { inv: g });
        const ids: string[] = [];
        for (const chunk of inChunks(Array.from({ length: n }, (_, j) => j))) {
          const adds = chunk.map((j) =>
            `p${j}: addPosition(input: {investorIdentifier: $inv, assetIdentifier: "XS0002", amount: ${1000 + j}, currencyCode: "EUR"}) { id }`,
          ).join('\n');
          ids.push(...Object.values(await manager(`mutation($inv: String!) { ${adds} }`, { inv: g })).map((p: any) => p.id as string));
        }
        for (const chunk of inChunks(ids.map((id, j) => ({ id, j })))) {
          const joins = chunk.map(({ id, j }) => `m${j}: addPositionToPortfolio(investorIdentifier: $inv, portfolioIdentifier: "${portfolio}", positionId: "${id}") { message }`).join('\n');
          await manager(`mutation($inv: String!) { ${joins} }`, { inv: g });
        }
        // Store the impacts of the year once, so the measured read only reads.
        await manager(`{ portfolio(identifier: "${portfolio}") { impacts(year: ${year}, computeMissing: true) { positionIdsWithoutImpacts } } }`);
        return ids;
      };
      const measured = (portfolio: string) => `query($key: String) {
        portfolio(identifier: "${portfolio}", decryptionKey: $key) {
          investor { name }
          impacts(year: ${year}) { totals { value } }
          positions { amount investor { name } impacts(year: ${year}) { value inputs { tau } } asset { identifier framework(year: ${year}) { rows { value indicator { name unit { name } } } } } }
        }
      }`;
      await fill('small', 3);
      await fill('big', 60);
      let big: any;
      // Once first, so the gateway's reference cache (units) holds what both queries read from it.
      await manager(measured('small'), { key: k });
      const smallCalls = await callsDuring(system.gatewayUrl, async () => {
        assert.equal((await manager(measured('small'), { key: k })).portfolio.positions.length, 3);
      });
      const bigCalls = await callsDuring(system.gatewayUrl, async () => {
        big = await manager(measured('big'), { key: k });
      });
      assert.equal(big.portfolio.positions.length, 60);
      assert.equal(big.portfolio.positions[59].investor.name, 'Cecilia Capital');
      assert.equal(big.portfolio.positions[59].impacts[0].value, decimalText(((1000 + 59) / 1_000_000) * 2000));
      near(Number(big.portfolio.impacts.totals[0].value), (Array.from({ length: 60 }, (_, j) => 1000 + j).reduce((a, b) => a + b, 0) / 1_000_000) * 2000, 'portfolio total');
      assert.deepEqual(bigCalls, smallCalls, 'the calls do not grow with the number of positions');
      const total = Object.values(bigCalls).reduce((a, b) => a + b, 0);
      // 11 when written: 6 to the portfolio service, 5 to the taxonomy service (the portfolio service's own call
      // included); 10 since the gateway serves units from its reference cache.
      assert.ok(total <= 15, `at most 15 gRPC calls to the services for 60 positions, got ${total}: ${JSON.stringify(bigCalls)}`);
      assert.equal(bigCalls['PortfolioService/GetPositionsByIds'], 1, JSON.stringify(bigCalls));
      assert.equal(bigCalls['PortfolioService/GetAssetsByIdentifiers'], 1, JSON.stringify(bigCalls));
      assert.equal(bigCalls['PortfolioService/GetInvestorsByIdentifiers'], 1, JSON.stringify(bigCalls));

      // ---- removals cascade ----
      const removed = await manager(`mutation($inv: String!) { removeInvestor(identifier: $inv) { message } }`, { inv: g });
      assert.deepEqual(removed, { removeInvestor: { message: 'Investor removed.' } });
      assert.deepEqual(await manager('{ positions { nodes { id } } portfolios { nodes { id } } investors { nodes { identifier } } }'), {
        positions: { nodes: [] },
        portfolios: { nodes: [] },
        investors: { nodes: [{ identifier: 'inv_plain' }] },
      });
      const { investorsOfUser } = await manager('{ investorsOfUser(userIdentifier: "reader") { investors { id identifier name } } }');
      assert.deepEqual(investorsOfUser, [{ investors: [{ id: null, identifier: g, name: null }] }]);
      assert.deepEqual(await issuer('mutation { removeAsset(identifier: "XS0002") { message } }'), { removeAsset: { message: 'Asset removed.' } });
    });
  });
}
