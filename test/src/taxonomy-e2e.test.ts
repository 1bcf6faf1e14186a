import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { skipReason, testDatabases } from '@green-impact/testing/shared/databases';
import type { RunningSystem } from '@green-impact/embedded/system';
import { graphqlClient, startTestSystem } from './support/system.js';
import { conformingV1Client } from './support/answer-conformance.js';

const ESG = 'SVC.ESG.Credits';
const OPERATOR = 'taxonomy-operator-key';
const idOf = (message: string): number => Number(/(\d+)\.$/.exec(message)?.[1]);

for (const db of testDatabases) {
  describe(`taxonomy end to end through the gateway on ${db.name}`, { skip: await skipReason(db) }, () => {
    let system: RunningSystem;
    let op: ReturnType<typeof conformingV1Client>;
    let userKey: string;

    before(async () => {
      system = await startTestSystem(db, OPERATOR);
      op = conformingV1Client(system.gatewayUrl, OPERATOR);
      const created = await graphqlClient(system.gatewayUrl, OPERATOR)(
        'mutation { createAccount(input: {name: "Issuer", role: USER}) { apiKey } }',
      );
      userKey = created.data.createAccount.apiKey;
    });
    after(async () => system?.stop());

    it('builds, renames, links, translates and removes taxonomy items through /v1/call', async () => {
      const year = 2024;
      const cat = await op(ESG, 'addCategory', { category_name: 'Renewable power', reporting_year: year, language_code: 'en' });
      assert.equal(cat.status, 200, JSON.stringify(cat.body));
      const categoryId = idOf(cat.body.message);
      assert.ok(categoryId > 0, cat.body.message);
      const again = await op(ESG, 'addCategory', { category_name: 'Renewable power', reporting_year: year, language_code: 'en' });
      assert.equal(idOf(again.body.message), categoryId, 'a duplicate add answers the same id');
      const renamed = await op(ESG, 'addCategory', {
        category_name: 'Renewable power', category_name_changed: 'Renewable energy', reporting_year: year, language_code: 'en',
      });
      assert.equal(renamed.status, 200);
      const cats = await op(ESG, 'getCategories', { reporting_year: year });
      assert.deepEqual(cats.body, [{ category_id: categoryId, category_name: 'Renewable energy', language: 'English' }]);

      const sub = await op(ESG, 'addSubCategory', { sub_category_name: 'Solar', category_id: categoryId, reporting_year: year, language_code: 'en' });
      const subId = idOf(sub.body.message);
      assert.equal((await op(ESG, 'addGoalObjectiveToSubCategory', { sub_category_id: subId, reporting_year: year, sdg_id: 7, eu_objective_id: '' })).status, 200);
      assert.equal((await op(ESG, 'addGoalObjectiveToSubCategory', { sub_category_id: subId, reporting_year: year, sdg_id: '', eu_objective_id: 1 })).status, 200);
      const subs = await op(ESG, 'getSubCategories', { reporting_year: year });
      assert.deepEqual(subs.body, [{
        sub_category_id: subId, sub_category_name: 'Solar', category_id: categoryId, category_name: 'Renewable energy',
        sdg: { '7': 'Affordable and Clean Energy' }, eu_objective: { '1': 'Climate change mitigation' }, language: 'English',
      }]);

      const unitId = idOf((await op(ESG, 'addUnit', { unit_name: 'MWh/year', reporting_year: year, language_code: 'en' })).body.message);
      const superId = idOf((await op(ESG, 'addSuperIndicator', { super_indicator_name: 'Energy generation', category_id: categoryId, reporting_year: year, language_code: 'en' })).body.message);
      const indicator = await op(ESG, 'addIndicator', { indicator_name: 'Annual renewable energy generation', super_indicator_id: superId, unit_id: unitId, reporting_year: year, language_code: 'en' });
      const indicatorId = idOf(indicator.body.message);
      assert.ok(unitId > 0 && superId > 0 && indicatorId > 0, 'add messages end with the new id');

      const t = (operation: string, params: Record<string, unknown>) => op(ESG, operation, { reporting_year: year, language_code: 'sv', ...params });
      assert.equal((await t('addCategoryTranslation', { category_id: categoryId, translation: 'Förnybar energi' })).body.message, 'category translation added');
      assert.equal((await t('addSubCategoryTranslation', { sub_category_id: subId, translation: 'Solenergi' })).body.message, 'sub category translation changed');
      assert.equal((await t('addSuperIndicatorTranslation', { super_indicator_id: superId, translation: 'Energiproduktion' })).body.message, 'super indicator translation added');
      assert.equal((await t('addIndicatorTranslation', { indicator_id: indicatorId, translation: 'Årlig förnybar energiproduktion' })).body.message, 'indicator translation added');
      assert.equal((await t('addUnitTranslation', { unit_id: unitId, translation: 'MWh/år' })).body.message, 'unit translation changed');
      const sv = await op(ESG, 'getCategories', { reporting_year: year, language_code: 'sv' });
      assert.deepEqual(sv.body, [{ category_id: categoryId, category_name: 'Förnybar energi', language: 'Swedish' }]);
      const svUnits = await op(ESG, 'getUnits', { reporting_year: year, language_code: 'sv' });
      assert.deepEqual(svUnits.body, [{ unit_id: unitId, unit_name: 'MWh/år', language: 'Swedish' }]);
      const fallback = await op(ESG, 'getCategories', { reporting_year: year, language_code: 'de' });
      assert.deepEqual(fallback.body[0].category_name, 'Renewable energy');
      const rows = await op(ESG, 'getTaxonomy', { reporting_year: year, language_code: 'sv' });
      assert.equal(rows.body.length, 1);
      assert.equal(rows.body[0].indicator_name, 'Årlig förnybar energiproduktion');
      assert.equal(rows.body[0].unit_name, 'MWh/år');

      const inUse = await op(ESG, 'removeUnit', { unit_id: unitId, reporting_year: year });
      assert.equal(inUse.status, 400);
      assert.equal(inUse.body.code, 'FAILED_PRECONDITION');
      for (const [operation, params] of [
        ['removeIndicator', { indicator_id: indicatorId }],
        ['removeUnit', { unit_id: unitId }],
        ['removeSuperIndicator', { super_indicator_id: superId }],
        ['removeGoalObjectiveFromSubCategory', { sub_category_id: subId, sdg_id: 7 }],
        ['removeSubCategory', { sub_category_id: subId }],
        ['removeCategory', { category_id: categoryId }],
      ] as const) {
        const r = await op(ESG, operation, { reporting_year: year, ...params });
        assert.equal(r.status, 200, `${operation}: ${JSON.stringify(r.body)}`);
      }
      assert.deepEqual((await op(ESG, 'getCategories', { reporting_year: year, language_code: 'sv' })).body, []);
      // Re-adding the same name makes a new item: the old translation went with the old one.
      const reborn = idOf((await op(ESG, 'addCategory', { category_name: 'Renewable energy', reporting_year: year, language_code: 'en' })).body.message);
      const svAgain = await op(ESG, 'getCategories', { reporting_year: year, language_code: 'sv' });
      assert.deepEqual(svAgain.body, [{ category_id: reborn, category_name: 'Renewable energy', language: 'English' }]);
    });

    it('validates input with clear 4xx answers and lets only operators change reference data', async () => {
      const bad = async (operation: string, parameters: Record<string, unknown>, status = 400) => {
        const r = await op(ESG, operation, parameters);
        assert.equal(r.status, status, `${operation} ${JSON.stringify(parameters)} → ${JSON.stringify(r.body)}`);
        assert.equal(typeof r.body.message, 'string');
        assert.equal(typeof r.body.code, 'string');
        return r.body;
      };
      await bad('getCategories', { reporting_year: 20245 });
      await bad('getCategories', { reporting_year: 'twenty' });
      await bad('getCategories', {});
      await bad('addCurrency', { currency_code: 'EU' });
      await bad('addFXrate', { currency_code_numerator: 'SEK', currency_code_denominator: 'EURO', currency_code_quota: 11, reporting_year: 2024 });
      await bad('addCategory', { category_name: 'X', reporting_year: 2024, language_code: 'xx' });
      await bad('addSubCategory', { sub_category_name: 'Y', category_id: 999999, reporting_year: 2024, language_code: 'en' }, 404);
      await bad('addSubCategory', { sub_category_name: 'Y', category_id: 'one', reporting_year: 2024, language_code: 'en' });
      const user = conformingV1Client(system.gatewayUrl, userKey);
      const denied = await user(ESG, 'addCategory', { category_name: 'Mine', reporting_year: 2024, language_code: 'en' });
      assert.deepEqual([denied.status, denied.body.message], [403, 'Not authorized.']);
      assert.equal((await user(ESG, 'getLanguages')).body.length, 41);
      assert.equal((await user(ESG, 'getSDGs')).body.length, 17);
      assert.equal((await user(ESG, 'getEUObjectives')).body.length, 6);
    });

    it('lists currencies and FX rates with identity and reciprocal pairs; refuses removing a currency in use', async () => {
      assert.equal((await op(ESG, 'addCurrency', { currency_code: 'SEK' })).status, 200);
      assert.equal((await op(ESG, 'addFXrate', { currency_code_numerator: 'SEK', currency_code_denominator: 'EUR', currency_code_quota: 11.5, reporting_year: 2023 })).status, 200);
      const rates = (await op(ESG, 'getFXrates', { reporting_year: 2023 })).body as { numerator_currency_code: string; denominator_currency_code: string; fx_rate: number }[];
      const rate = (n: string, d: string) => rates.find((r) => r.numerator_currency_code === n && r.denominator_currency_code === d)?.fx_rate;
      assert.equal(rate('SEK', 'EUR'), 11.5);
      assert.ok(Math.abs(rate('EUR', 'SEK')! - 1 / 11.5) < 1e-12);
      assert.equal(rate('SEK', 'SEK'), 1);
      assert.equal(rate('EUR', 'EUR'), 1);
      const refused = await op(ESG, 'removeCurrency', { currency_code: 'SEK' });
      assert.equal(refused.status, 400);
      assert.match(refused.body.message, /SEK/);
      assert.equal((await op(ESG, 'removeFXrate', { currency_code_1: 'EUR', currency_code_2: 'SEK', reporting_year: 2023 })).status, 200);
      assert.deepEqual((await op(ESG, 'getFXrates', { reporting_year: 2023 })).body, []);
      assert.ok((await op(ESG, 'getCurrencies')).body.some((c: { currency_code: string }) => c.currency_code === 'SEK'));
    });

    it('does the same through GraphQL, nested and translated', async () => {
      const gql = graphqlClient(system.gatewayUrl, OPERATOR);
      const year = 2025;
      const must = async (query: string, variables?: Record<string, unknown>) => {
        const r = await gql(query, variables);
        assert.equal(r.errors, undefined, JSON.stringify(r.errors));
        return r.data;
      };
      const cat = await must(`mutation { addCategory(input: {name: "Clean transportation", year: ${year}, languageCode: "en"}) { message id } }`);
      const categoryId = cat.addCategory.id;
      await must(`mutation($id: ID!) { addCategory(input: {name: "Clean transportation", newName: "Clean transport", year: ${year}, languageCode: "en"}) { message } x: addSubCategory(input: {name: "Rail", categoryId: $id, year: ${year}, languageCode: "en"}) { id } }`, { id: categoryId });
      const subs = await must(`{ subCategories(year: ${year}) { id name } }`);
      const subId = subs.subCategories[0].id;
      await must(`mutation($s: ID!) { addGoalObjectiveToSubCategory(input: {subCategoryId: $s, year: ${year}, sdgId: 7, euObjectiveId: 1}) { message } }`, { s: subId });
      const unit = await must(`mutation { addUnit(input: {name: "tCO2e/year", year: ${year}}) { id } }`);
      const sup = await must(`mutation($c: ID!) { addSuperIndicator(input: {name: "Emissions", categoryId: $c, year: ${year}}) { id } }`, { c: categoryId });
      const ind = await must(`mutation($s: ID!, $u: ID!) { addIndicator(input: {name: "GHG avoided", superIndicatorId: $s, unitId: $u, year: ${year}}) { id message } }`, { s: sup.addSuperIndicator.id, u: unit.addUnit.id });
      assert.match(ind.addIndicator.message, new RegExp(`${ind.addIndicator.id}\\.$`));
      await must(`mutation($c: ID!) { addCategoryTranslation(input: {id: $c, year: ${year}, languageCode: "sv", translation: "Ren transport"}) { message } }`, { c: categoryId });
      const nested = await must(`{ categories(year: ${year}, languageCode: "sv") { name language subCategories { name sdgs { goalNo name } euObjectives { objectiveNo name } } superIndicators { indicators { name unit { name } } } } }`);
      assert.deepEqual(nested.categories, [{
        name: 'Ren transport', language: 'Swedish',
        // The goals come in Swedish too: SDGs and EU objectives carry their official translations.
        subCategories: [{ name: 'Rail', sdgs: [{ goalNo: '7', name: 'Hållbar energi för alla' }], euObjectives: [{ objectiveNo: '1', name: 'Begränsning av klimatförändringar' }] }],
        superIndicators: [{ indicators: [{ name: 'GHG avoided', unit: { name: 'tCO2e/year' } }] }],
      }]);
      await must(`mutation($i: ID!) { removeIndicator(input: {id: $i, year: ${year}}) { message } }`, { i: ind.addIndicator.id });
      const denied = await graphqlClient(system.gatewayUrl, userKey)(`mutation { addUnit(input: {name: "t", year: ${year}}) { id } }`);
      assert.equal(denied.errors?.[0]?.extensions?.code, 'FORBIDDEN');
    });
  });
}
