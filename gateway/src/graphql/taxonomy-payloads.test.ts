import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startTestGateway, type TestGateway } from '@green-impact/testing/gateway/real-gateway';
import { callsDuring as callsOf, data, gqlAt, type GqlResponse } from '@green-impact/testing/gateway/graphql-calls';
import { taxonomyIds, type TaxonomyIds } from '@green-impact/testing/gateway/taxonomy-ids';

/**
 * Taxonomy, currency and FX rate changes answer payloads carrying what they changed, read as a following
 * Query would read it (payloads.ts), against the real taxonomy service with the ICMA example taxonomy for
 * 2024 loaded. The taxonomy is shared reference data that only operators change, so there is no other
 * account's data to hide here.
 */

let t: TestGateway;
let ids: TaxonomyIds;

const gql = (query: string, variables: Record<string, unknown> = {}, apiKey: string | null = t.operatorKey): Promise<GqlResponse> =>
  gqlAt(t.baseUrl, query, variables, apiKey);
const callsDuring = (run: () => Promise<unknown>) => callsOf([t.taxonomy!], run);
const s = (id: number) => String(id);
before(async () => {
  t = await startTestGateway({}, { taxonomy: true });
  await t.loadExampleTaxonomy();
  ids = await taxonomyIds(t);
});
after(async () => {
  await t?.stop();
});

const CATEGORY = 'id name year language languageCode subCategories { id name } superIndicators { id name }';

/** The category with this id as categories(year) shows it, read by a separate request. */
async function categoryRead(id: string, languageCode?: string) {
  const { categories } = data(await gql(`query ($l: String) { categories(year: 2024, languageCode: $l) { ${CATEGORY} } }`, { l: languageCode }, t.userKey));
  return (categories as { id: string; name: string }[]).find((c) => c.id === id);
}

describe('taxonomy payloads', () => {
  test('addCategory carries the new category as a following read shows it; message and id are unchanged', async () => {
    const res = data(await gql(`mutation { addCategory(input: { name: "Clean shipping", year: 2024, languageCode: "en" }) { message id category { ${CATEGORY} } } }`));
    const { message, id, category } = res['addCategory'];
    const made = s((await taxonomyIds(t)).category['Clean shipping']);
    assert.equal(message, `Category added with id ${made}.`);
    assert.equal(id, made);
    assert.deepEqual(category, { id: made, name: 'Clean shipping', year: 2024, language: 'English', languageCode: 'en', subCategories: [], superIndicators: [] });
    assert.deepEqual(category, await categoryRead(made));
  });

  test('the entity is read only when selected', async () => {
    const counts = await callsDuring(() => gql('mutation { addCategory(input: { name: "Clean shipping", year: 2024, languageCode: "en" }) { message id } }'));
    assert.deepEqual(counts, { addCategory: 1 });
  });

  test('each change of a request reads after itself: a rename shows the new name, not an earlier field\'s read', async () => {
    const res = data(
      await gql(`mutation {
        a: addCategory(input: { name: "Green shipping", year: 2024, languageCode: "en" }) { category { id name } }
        b: addCategory(input: { name: "Green shipping", year: 2024, languageCode: "en", newName: "Green ports" }) { category { id name } }
      }`),
    );
    const made = s((await taxonomyIds(t)).category['Green ports']);
    assert.deepEqual(res, { a: { category: { id: made, name: 'Green shipping' } }, b: { category: { id: made, name: 'Green ports' } } });
    assert.equal((await categoryRead(made))?.name, 'Green ports');
  });

  test('a translation carries the item in the translation\'s language', async () => {
    const id = s(ids.category['Green buildings']);
    const res = data(await gql(`mutation { addCategoryTranslation(input: { id: ${id}, year: 2024, languageCode: "sv", translation: "Gröna hus" }) { message category { ${CATEGORY} } } }`));
    assert.equal(res['addCategoryTranslation'].message, 'category translation added');
    assert.deepEqual(res['addCategoryTranslation'].category, await categoryRead(id, 'sv'));
    assert.equal(res['addCategoryTranslation'].category.name, 'Gröna hus');
  });

  test('goal links carry the sub category; sub categories, super indicators, indicators and units their own kind', async () => {
    const hydro = ids.subCategory['Hydropower'];
    const ghg = ids.superIndicator['GHG emissions'];
    const savings = ids.indicator['Annual energy savings'];
    const res = data(
      await gql(`mutation {
        g: addGoalObjectiveToSubCategory(input: { subCategoryId: ${hydro}, year: 2024, sdgId: 6 }) { id subCategory { id name category { id } sdgs { goalNo } } }
        s: addSuperIndicatorTranslation(input: { id: ${ghg}, year: 2024, languageCode: "sv", translation: "Utsläpp av växthusgaser" }) { superIndicator { id name categories { id } } }
        i: addIndicatorTranslation(input: { id: ${savings}, year: 2024, languageCode: "sv", translation: "Årligt sparad energi" }) { indicator { id name unit { id name } } }
        u: addUnitTranslation(input: { id: ${ids.unit['km']}, year: 2024, languageCode: "sv", translation: "kilometer" }) { unit { id name } }
      }`),
    );
    const c = (name: string) => ({ id: s(ids.category[name]) });
    assert.deepEqual(res, {
      g: { id: s(hydro), subCategory: { id: s(hydro), name: 'Hydropower', category: c('Renewable energy'), sdgs: [{ goalNo: '6' }, { goalNo: '7' }, { goalNo: '13' }] } },
      s: {
        superIndicator: {
          id: s(ghg),
          name: 'Utsläpp av växthusgaser',
          categories: [c('Renewable energy'), c('Energy efficiency'), c('Clean transportation'), c('Green buildings'), c('Pollution prevention and control')],
        },
      },
      i: { indicator: { id: s(savings), name: 'Årligt sparad energi', unit: { id: s(ids.unit['MWh/year']), name: 'MWh/år' } } },
      u: { unit: { id: s(ids.unit['km']), name: 'kilometer' } },
    });
  });

  test('removals carry the removed id and no entity; removing a super indicator\'s link carries the super indicator', async () => {
    const op = { caller: t.operator };
    const unit = (await t.taxonomy!.client.addUnit({ unitName: 'ha', reportingYear: 2024, languageCode: 'en' }, op)).id!;
    const lone = (await t.taxonomy!.client.addSuperIndicator({ superIndicatorName: 'Land', categoryId: ids.category['Green buildings'], reportingYear: 2024, languageCode: 'en' }, op)).id!;
    const res = data(
      await gql(`mutation {
        u: removeUnit(input: { id: ${unit}, year: 2024 }) { message id removedId }
        l: removeSuperIndicator(input: { id: ${ids.superIndicator['Air quality']}, year: 2024, categoryId: ${ids.category['Pollution prevention and control']} }) { removedId superIndicator { id name } }
        s: removeSuperIndicator(input: { id: ${lone}, year: 2024 }) { removedId superIndicator { id } }
      }`),
    );
    assert.deepEqual(res, {
      u: { message: 'Unit removed.', id: s(unit), removedId: s(unit) },
      l: { removedId: null, superIndicator: { id: s(ids.superIndicator['Air quality']), name: 'Air quality' } },
      s: { removedId: s(lone), superIndicator: null },
    });
  });

  test('currencies and FX rates: the added item as the listings show it, and the removed one\'s id', async () => {
    const res = data(
      await gql(`mutation {
        c: addCurrency(currencyCode: "xyz") { message currency { id code } }
        f: addFxRate(input: { numeratorCurrencyCode: "XYZ", denominatorCurrencyCode: "EUR", rate: 2.5, year: 2024 }) { fxRate { id year numeratorCurrencyCode denominatorCurrencyCode rate derived } }
      }`),
    );
    const reads = data(await gql('{ currencies { id code } fxRates(year: 2024) { id year numeratorCurrencyCode denominatorCurrencyCode rate derived } }', {}, t.userKey));
    const xyz = (reads['currencies'] as { id: string; code: string }[]).find((c) => c.code === 'XYZ')!;
    const xyzEur = (reads['fxRates'] as { id: string | null; numeratorCurrencyCode: string; denominatorCurrencyCode: string }[]).find(
      (r) => r.id !== null && r.numeratorCurrencyCode === 'XYZ' && r.denominatorCurrencyCode === 'EUR',
    )!;
    assert.deepEqual(res, { c: { message: `Currency added with id ${xyz.id}.`, currency: xyz }, f: { fxRate: xyzEur } });
    assert.equal(xyzEur.id !== null && (xyzEur as { rate?: string }).rate, '2.5');

    const removed = data(
      await gql(`mutation {
        x: removeFxRate(input: { currencyCode1: "EUR", currencyCode2: "XYZ", year: 2024 }) { removedId }
        r: removeCurrency(currencyCode: "XYZ") { removedId }
      }`),
    );
    assert.deepEqual(removed, { x: { removedId: xyzEur.id }, r: { removedId: xyz.id } });
  });

  test('a removal reads nothing unless removedId is selected', async () => {
    await gql('mutation { addCurrency(currencyCode: "XYY") { message } }');
    const counts = await callsDuring(() => gql('mutation { removeCurrency(currencyCode: "XYY") { message } }'));
    assert.deepEqual(counts, { removeCurrency: 1 });
  });
});
