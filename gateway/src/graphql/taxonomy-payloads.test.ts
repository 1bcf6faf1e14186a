import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startTestGateway, type TestGateway } from '../testing/test-gateway.js';
import { callsDuring as callsOf, data, gqlAt, type GqlResponse } from '@green-impact/testing/gateway/graphql-calls';

/**
 * Taxonomy, currency and FX rate changes answer payloads carrying what they changed, read as a following
 * Query would read it (payloads.ts), against the fake TaxonomyService over real gRPC. The taxonomy is
 * shared reference data that only operators change, so there is no other account's data to hide here.
 */

let t: TestGateway;

const gql = (query: string, variables: Record<string, unknown> = {}, apiKey: string | null = 'op-key'): Promise<GqlResponse> =>
  gqlAt(t.baseUrl, query, variables, apiKey);
const callsDuring = (run: () => Promise<unknown>) => callsOf([t.taxonomy!], run);
before(async () => {
  t = await startTestGateway({}, { taxonomy: true });
});
after(async () => {
  await t.stop();
});

const CATEGORY = 'id name year language languageCode subCategories { id name } superIndicators { id name }';

/** The category with this id as categories(year) shows it, read by a separate request. */
async function categoryRead(id: string, languageCode?: string) {
  const { categories } = data(await gql(`query ($l: String) { categories(year: 2024, languageCode: $l) { ${CATEGORY} } }`, { l: languageCode }, 'user-key'));
  return (categories as { id: string; name: string }[]).find((c) => c.id === id);
}

describe('taxonomy payloads', () => {
  test('addCategory carries the new category as a following read shows it; message and id are unchanged', async () => {
    const res = data(await gql(`mutation { addCategory(input: { name: "Clean transport", year: 2024, languageCode: "en" }) { message id category { ${CATEGORY} } } }`));
    const { message, id, category } = res['addCategory'];
    assert.equal(message, 'Category added with id 3.');
    assert.equal(id, '3');
    assert.deepEqual(category, { id: '3', name: 'Clean transport', year: 2024, language: 'English', languageCode: 'en', subCategories: [], superIndicators: [] });
    assert.deepEqual(category, await categoryRead('3'));
  });

  test('the entity is read only when selected', async () => {
    const counts = await callsDuring(() => gql('mutation { addCategory(input: { name: "Clean transport", year: 2024, languageCode: "en" }) { message id } }'));
    assert.deepEqual(counts, { addCategory: 1 });
  });

  test('each change of a request reads after itself: a rename shows the new name, not an earlier field\'s read', async () => {
    const res = data(
      await gql(`mutation {
        a: addCategory(input: { name: "Green shipping", year: 2024, languageCode: "en" }) { category { id name } }
        b: addCategory(input: { name: "Green shipping", year: 2024, languageCode: "en", newName: "Green ports" }) { category { id name } }
      }`),
    );
    assert.deepEqual(res, { a: { category: { id: '4', name: 'Green shipping' } }, b: { category: { id: '4', name: 'Green ports' } } });
    assert.equal((await categoryRead('4'))?.name, 'Green ports');
  });

  test('a translation carries the item in the translation\'s language', async () => {
    const res = data(await gql(`mutation { addCategoryTranslation(input: { id: 1, year: 2024, languageCode: "sv", translation: "Förnybar energi" }) { message category { ${CATEGORY} } } }`));
    assert.equal(res['addCategoryTranslation'].message, 'category translation added');
    assert.deepEqual(res['addCategoryTranslation'].category, await categoryRead('1', 'sv'));
    assert.equal(res['addCategoryTranslation'].category.name, 'Förnybar energi');
  });

  test('goal links carry the sub category; sub categories, super indicators, indicators and units their own kind', async () => {
    const res = data(
      await gql(`mutation {
        g: addGoalObjectiveToSubCategory(input: { subCategoryId: 10, year: 2024, sdgId: 7 }) { id subCategory { id name category { id } sdgs { goalNo } } }
        s: addSuperIndicatorTranslation(input: { id: 20, year: 2024, languageCode: "sv", translation: "Växthusgasutsläpp" }) { superIndicator { id name categories { id } } }
        i: addIndicatorTranslation(input: { id: 30, year: 2024, languageCode: "en", translation: "Avoided emissions" }) { indicator { id name unit { id name } } }
        u: addUnitTranslation(input: { id: 41, year: 2024, languageCode: "en", translation: "MWh" }) { unit { id name } }
      }`),
    );
    assert.deepEqual(res, {
      g: { id: '10', subCategory: { id: '10', name: 'Solar power', category: { id: '1' }, sdgs: [{ goalNo: '7' }] } },
      s: { superIndicator: { id: '20', name: 'Växthusgasutsläpp', categories: [{ id: '1' }, { id: '2' }] } },
      i: { indicator: { id: '30', name: 'Avoided emissions', unit: { id: '40', name: 'tCO2e' } } },
      u: { unit: { id: '41', name: 'MWh' } },
    });
  });

  test('removals carry the removed id and no entity; removing a super indicator\'s link carries the super indicator', async () => {
    const res = data(
      await gql(`mutation {
        u: removeUnit(input: { id: 41, year: 2024 }) { message id removedId }
        l: removeSuperIndicator(input: { id: 20, year: 2024, categoryId: 1 }) { removedId superIndicator { id name } }
        s: removeSuperIndicator(input: { id: 21, year: 2024 }) { removedId superIndicator { id } }
      }`),
    );
    assert.deepEqual(res, {
      u: { message: 'Unit removed.', id: null, removedId: '41' },
      l: { removedId: null, superIndicator: { id: '20', name: 'GHG emissions' } },
      s: { removedId: '21', superIndicator: null },
    });
  });

  test('currencies and FX rates: the added item as the listings show it, and the removed one\'s id', async () => {
    const res = data(
      await gql(`mutation {
        c: addCurrency(currencyCode: "nok") { message currency { id code } }
        f: addFxRate(input: { numeratorCurrencyCode: "SEK", denominatorCurrencyCode: "EUR", rate: 11.5, year: 2024 }) { fxRate { id year numeratorCurrencyCode denominatorCurrencyCode rate derived } }
        x: removeFxRate(input: { currencyCode1: "EUR", currencyCode2: "SEK", year: 2024 }) { removedId }
        r: removeCurrency(currencyCode: "NOK") { removedId }
      }`),
    );
    const reads = data(await gql('{ currencies { id code } fxRates(year: 2024) { id year numeratorCurrencyCode denominatorCurrencyCode rate derived } }', {}, 'user-key'));
    const nok = (reads['currencies'] as { code: string }[]).find((c) => c.code === 'NOK');
    const sekEur = (reads['fxRates'] as { id: string | null }[]).find((r) => r.id !== null);
    assert.deepEqual(res, { c: { message: 'Currency added with id 3.', currency: nok }, f: { fxRate: sekEur }, x: { removedId: '1' }, r: { removedId: '3' } });
  });

  test('a removal reads nothing unless removedId is selected', async () => {
    const counts = await callsDuring(() => gql('mutation { removeCurrency(currencyCode: "SEK") { message } }'));
    assert.deepEqual(counts, { removeCurrency: 1 });
  });
});
