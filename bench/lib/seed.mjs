// A realistic dataset through /v1/call: the operator's taxonomy (3 categories, 6 sub categories, 6
// indicators), currencies and FX rates; one issuer-and-manager account with frameworks (12 rows each),
// assets, investors (a fifth with encrypted PII), positions (a quarter with impacts computed at once),
// portfolios and users with groups and investor access.
import { ESG, pool, retryingUnavailable } from './http.mjs';

const idOf = (message) => Number(/(\d+)\.$/.exec(message)?.[1]);

export const DEFAULT_SIZES = { frameworks: 4, assets: 40, investors: 100, positions: 400, portfolios: 20, users: 10 };

export async function seedDataset(client, operatorKey, { year = 2024, sizes = DEFAULT_SIZES, suffix = '', concurrency = 8 } = {}) {
  const op = (operation, parameters) => retryingUnavailable(() => client.v1(operatorKey, ESG, operation, parameters));
  const created = await client.graphql(operatorKey, 'mutation($n: String!) { createAccount(input: {name: $n, role: USER}) { apiKey account { id } } }', { n: `Bench account ${suffix}` });
  const key = created.createAccount.apiKey;
  const accountId = created.createAccount.account.id;
  const me = (operation, parameters) => retryingUnavailable(() => client.v1(key, ESG, operation, parameters));

  // ---- reference data (operator) ----
  const tax = { year, subCategories: [], indicatorsByCategory: [] };
  const id = async (operation, parameters) => idOf((await op(operation, { reporting_year: year, language_code: 'en', ...parameters })).message);
  const units = [await id('addUnit', { unit_name: `MWh${suffix}` }), await id('addUnit', { unit_name: `tCO2e${suffix}` }), await id('addUnit', { unit_name: `m3${suffix}` })];
  for (const [c, name] of ['Renewable energy', 'Clean transport', 'Water management'].entries()) {
    const category = await id('addCategory', { category_name: `${name}${suffix}` });
    const subs = [await id('addSubCategory', { sub_category_name: `${name} A${suffix}`, category_id: category }), await id('addSubCategory', { sub_category_name: `${name} B${suffix}`, category_id: category })];
    const superIndicator = await id('addSuperIndicator', { super_indicator_name: `${name} impact${suffix}`, category_id: category });
    const indicators = [
      await id('addIndicator', { indicator_name: `${name} output${suffix}`, super_indicator_id: superIndicator, unit_id: units[c] }),
      await id('addIndicator', { indicator_name: `${name} GHG avoided${suffix}`, super_indicator_id: superIndicator, unit_id: units[1] }),
    ];
    tax.subCategories.push(...subs.map((s) => ({ subCategory: s, indicators })));
    tax.category ??= category;
  }
  for (const code of ['SEK', 'USD']) await op('addCurrency', { currency_code: code }).catch(() => undefined); // already there on a reused database
  await op('addFXrate', { currency_code_numerator: 'SEK', currency_code_denominator: 'EUR', currency_code_quota: 11.5, reporting_year: year });
  await op('addFXrate', { currency_code_numerator: 'USD', currency_code_denominator: 'EUR', currency_code_quota: 1.08, reporting_year: year });

  // ---- frameworks with year figures and 12 rows each ----
  const frameworks = Array.from({ length: sizes.frameworks }, (_, i) => `GBF-${i}${suffix}`);
  await pool(frameworks, concurrency, async (fw, i) => {
    await me('addFramework', { framework_identifier: fw, framework_name: `Green bond framework ${i}`, framework_currency_code: 'EUR', framework_visibility: 'public' });
    await me('addYearSpecificsToFramework', { framework_identifier: fw, value_outstanding: 500_000_000 + i * 1e7, allocated_amount: 450_000_000, value_outstanding_framework: i % 2 ? 'yes' : 'no', reporting_year: year });
    for (const { subCategory, indicators } of tax.subCategories) {
      for (const indicator of indicators) {
        await me('addCategoryIndicatorToFramework', { framework_identifier: fw, sub_category_id: subCategory, sub_category_volume: 50_000_000, indicator_id: indicator, indicator_value: 1_000 + i * 10 + indicator, reporting_year: year });
      }
    }
  });

  // ---- assets, investors, positions, portfolios, users ----
  const currencies = ['EUR', 'SEK', 'USD'];
  const assets = Array.from({ length: sizes.assets }, (_, i) => `XS${String(i).padStart(10, '0')}${suffix}`);
  await pool(assets, concurrency, (asset, i) =>
    me('addAsset', { asset_identifier: asset, asset_name: `Green bond ${i}`, issuer_identifier: `ISSUER-${i % 7}`, framework_identifier: frameworks[i % frameworks.length], asset_currency_code: currencies[i % 3], asset_value_outstanding: 50_000_000 + i * 1e6, date_issued: '2023-01-15', date_maturity: '2030-01-15' }),
  );
  const encryptionKey = (await me('generateEncryptionKey')).message;
  const investors = Array.from({ length: sizes.investors }, (_, i) => `INV-${i}${suffix}`);
  await pool(investors, concurrency, (investor, i) =>
    me('addInvestor', { investor_identifier: investor, investor_name: `Investor ${i}`, investor_currency_code: currencies[i % 3], ...(i % 5 === 0 ? { encryption_key: encryptionKey, investor_email: `investor${i}@example.org` } : {}) }),
  );
  const positionSpecs = Array.from({ length: sizes.positions }, (_, i) => ({ investor: investors[i % investors.length], asset: assets[(i * 7) % assets.length], i }));
  const positions = await pool(positionSpecs, concurrency, async ({ investor, asset, i }) => {
    const answer = await me('addPosition', { investor_identifier: investor, asset_identifier: asset, position_amount: 100_000 + i * 1_000, position_currency_code: currencies[i % 3], ...(i % 4 === 0 ? { reporting_year: year } : {}), position_start_date: '2024-03-01' });
    return { id: idOf(answer.message), investor, asset };
  });
  const portfolios = Array.from({ length: sizes.portfolios }, (_, i) => ({ portfolio: `PF-${i}${suffix}`, investor: investors[i] }));
  await pool(portfolios, concurrency, async ({ portfolio, investor }) => {
    await me('addPortfolio', { investor_identifier: investor, portfolio_identifier: portfolio });
    for (const p of positions.filter((x) => x.investor === investor)) {
      await me('addPositionToPortfolio', { investor_identifier: investor, portfolio_identifier: portfolio, position_id: p.id });
    }
  });
  const users = Array.from({ length: sizes.users }, (_, i) => `user-${i}${suffix}`);
  await pool(users, concurrency, async (user, i) => {
    await me('addUser', { user_identifier: user, user_first_name: `User ${i}`, user_email: `user${i}@example.org`, user_role: i === 0 ? 'admin' : 'user' });
    await me('addGroupToUser', { user_identifier: user, group: 'investors' });
    for (let k = 0; k < 5; k++) await me('addInvestorToUser', { user_identifier: user, investor_identifier: investors[(i * 5 + k) % investors.length] });
  });
  return { key, accountId, year, tax, frameworks, assets, investors, positions, portfolios, users, encryptionKey };
}
