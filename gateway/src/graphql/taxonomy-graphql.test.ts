import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startTestGateway, type TestGateway } from '../testing/test-gateway.js';
import { callsDuring as callsOf, data, gqlAt, onlyError, type GqlResponse } from '@green-impact/testing/gateway/graphql-calls';

/** GraphQL over the taxonomy service, against the fake TaxonomyService over real gRPC. */

let t: TestGateway;

const gql = (query: string, variables: Record<string, unknown> = {}, apiKey: string | null = 'user-key'): Promise<GqlResponse> =>
  gqlAt(t.baseUrl, query, variables, apiKey);
/** Calls per method the fake services behind the gateway receive while `run` runs. */
const callsDuring = (run: () => Promise<unknown>) => callsOf([t.taxonomy!], run);
before(async () => {
  t = await startTestGateway({}, { taxonomy: true });
});
after(async () => {
  await t.stop();
});

const NESTED = /* GraphQL */ `
  query ($year: Int!, $lang: String) {
    categories(year: $year, languageCode: $lang) {
      id
      name
      language
      subCategories {
        id
        name
        category { id name }
        sdgs { id goalNo name language }
        euObjectives { id objectiveNo name }
      }
      superIndicators {
        id
        name
        categories { id name }
        indicators {
          id
          name
          superIndicator { id name }
          unit { id name indicators { id } }
        }
      }
    }
  }
`;

describe('nested reads', () => {
  test('a deeply nested query resolves from data read once per request', async () => {
    let res!: GqlResponse;
    const counts = await callsDuring(async () => {
      res = await gql(NESTED, { year: 2024, lang: 'sv' });
    });
    const { categories } = data(res) as { categories: Record<string, unknown>[] };
    assert.deepEqual(categories[0], {
      id: '1',
      name: 'Förnybar energi',
      language: 'Swedish',
      subCategories: [
        {
          id: '10',
          name: 'Solar power',
          category: { id: '1', name: 'Förnybar energi' },
          sdgs: [{ id: '7', goalNo: '7', name: 'Hållbar energi för alla', language: 'Swedish' }],
          euObjectives: [{ id: '1', objectiveNo: '1', name: 'Begränsning av klimatförändringar' }],
        },
        {
          id: '11',
          name: 'Wind power',
          category: { id: '1', name: 'Förnybar energi' },
          sdgs: [
            { id: '7', goalNo: '7', name: 'Hållbar energi för alla', language: 'Swedish' },
            { id: '13', goalNo: '13', name: 'Bekämpa klimatförändringarna', language: 'Swedish' },
          ],
          euObjectives: [],
        },
      ],
      superIndicators: [
        {
          id: '20',
          name: 'Växthusgasutsläpp',
          categories: [
            { id: '1', name: 'Förnybar energi' },
            { id: '2', name: 'Green buildings' },
          ],
          indicators: [
            {
              id: '30',
              name: 'Avoided emissions',
              superIndicator: { id: '20', name: 'Växthusgasutsläpp' },
              unit: { id: '40', name: 'tCO2e', indicators: [{ id: '30' }] },
            },
          ],
        },
        {
          id: '21',
          name: 'Energy',
          categories: [{ id: '1', name: 'Förnybar energi' }],
          indicators: [
            { id: '31', name: 'Renewable energy produced', superIndicator: { id: '21', name: 'Energy' }, unit: { id: '41', name: 'MWh', indicators: [{ id: '31' }] } },
          ],
        },
      ],
    });
    assert.equal((categories[1]!['superIndicators'] as unknown[]).length, 1, 'a super indicator appears under each of its categories');
    // One call per read method, however many nodes asked: 7 in all.
    assert.deepEqual(counts, {
      getCategories: 1,
      getSubCategories: 1,
      getSdgs: 1,
      getEuObjectives: 1,
      getSuperIndicators: 1,
      getIndicators: 1,
      getUnits: 1,
    });
    assert.ok(
      t.taxonomy!.calls.filter((c) => c.method === 'getSdgs').every((c) => (c.request as { languageCode?: string }).languageCode === 'sv'),
      'the language passes down to nested reads',
    );
  });

  test('the memo lasts one request: the next one reads again', async () => {
    const counts = await callsDuring(() => gql('{ categories(year: 2024) { id } }'));
    assert.deepEqual(counts, { getCategories: 1 });
  });

  test('the same list in two languages is two reads; the same language in two fields is one', async () => {
    const counts = await callsDuring(async () => {
      const res = await gql(`{
        en: categories(year: 2024) { name }
        sv: categories(year: 2024, languageCode: "sv") { name }
        again: categories(year: 2024, languageCode: "sv") { id }
      }`);
      const d = data(res) as Record<string, { name?: string }[]>;
      assert.equal(d['en']![0]!.name, 'Renewable energy');
      assert.equal(d['sv']![0]!.name, 'Förnybar energi');
    });
    assert.deepEqual(counts, { getCategories: 2 });
  });

  test('taxonomy rows with their items, SDGs and EU objectives', async () => {
    const res = await gql(`{
      taxonomy(year: 2024) {
        category { id name } subCategory { id name } superIndicator { id name } indicator { id name } unit { id name }
        sdgs { goalNo name } euObjectives { objectiveNo name } language languageCode
      }
    }`);
    const { taxonomy } = data(res) as { taxonomy: unknown[] };
    assert.equal(taxonomy.length, 5);
    assert.deepEqual(taxonomy[0], {
      category: { id: '1', name: 'Renewable energy' },
      subCategory: { id: '10', name: 'Solar power' },
      superIndicator: { id: '20', name: 'GHG emissions' },
      indicator: { id: '30', name: 'Avoided emissions' },
      unit: { id: '40', name: 'tCO2e' },
      sdgs: [{ goalNo: '7', name: 'Affordable and Clean Energy' }],
      euObjectives: [{ objectiveNo: '1', name: 'Climate change mitigation' }],
      language: 'English',
      languageCode: 'en',
    });
  });

  test('sub categories, super indicators, indicators and units at the top level', async () => {
    const res = await gql(`{
      subCategories(year: 2024) { id category { id } }
      superIndicators(year: 2024) { id categories { id } }
      indicators(year: 2024) { id unit { name } superIndicator { name } }
      units(year: 2024) { id name year language languageCode }
    }`);
    assert.deepEqual(data(res), {
      subCategories: [
        { id: '10', category: { id: '1' } },
        { id: '11', category: { id: '1' } },
        { id: '12', category: { id: '2' } },
      ],
      superIndicators: [
        { id: '20', categories: [{ id: '1' }, { id: '2' }] },
        { id: '21', categories: [{ id: '1' }] },
      ],
      indicators: [
        { id: '30', unit: { name: 'tCO2e' }, superIndicator: { name: 'GHG emissions' } },
        { id: '31', unit: { name: 'MWh' }, superIndicator: { name: 'Energy' } },
      ],
      units: [
        { id: '40', name: 'tCO2e', year: 2024, language: 'English', languageCode: 'en' },
        { id: '41', name: 'MWh', year: 2024, language: 'English', languageCode: 'en' },
      ],
    });
  });
});

describe('reference data', () => {
  test('sdgs, euObjectives, languages, currencies, fxRates', async () => {
    const res = await gql(`{
      sdgs(languageCode: "sv") { id goalNo name language languageCode }
      euObjectives { id objectiveNo name }
      languages { id code name }
      currencies { id code }
      fxRates(year: 2024) { id year numeratorCurrencyCode denominatorCurrencyCode rate derived }
    }`);
    const d = data(res) as Record<string, unknown[]>;
    assert.deepEqual(d['sdgs']![1], { id: '7', goalNo: '7', name: 'Hållbar energi för alla', language: 'Swedish', languageCode: 'sv' });
    assert.deepEqual(d['euObjectives']![0], { id: '1', objectiveNo: '1', name: 'Climate change mitigation' });
    assert.deepEqual(d['languages'], [
      { id: '1', code: 'en', name: 'English' },
      { id: '2', code: 'sv', name: 'Swedish' },
    ]);
    assert.deepEqual(d['currencies'], [
      { id: '1', code: 'EUR' },
      { id: '2', code: 'SEK' },
    ]);
    assert.deepEqual(d['fxRates']![0], { id: null, year: 2024, numeratorCurrencyCode: 'EUR', denominatorCurrencyCode: 'EUR', rate: 1, derived: true });
    assert.deepEqual(d['fxRates']![3], { id: '1', year: 2024, numeratorCurrencyCode: 'SEK', denominatorCurrencyCode: 'EUR', rate: 11.5, derived: false });
  });
});

describe('errors carry extensions.code', () => {
  test('a 5-digit year: INVALID_ARGUMENT naming the argument, no backend call', async () => {
    const counts = await callsDuring(async () => {
      assert.deepEqual(onlyError(await gql('{ categories(year: 20245) { id } }')), {
        message: 'year must be a 4-digit year.',
        code: 'INVALID_ARGUMENT',
      });
    });
    assert.deepEqual(counts, {});
  });

  test('input fields are named in messages', async () => {
    const fx = await gql('mutation ($i: AddFxRateInput!) { addFxRate(input: $i) { message } }', {
      i: { numeratorCurrencyCode: 'SE', denominatorCurrencyCode: 'EUR', rate: 11.5, year: 2024 },
    }, 'op-key');
    assert.deepEqual(onlyError(fx), { message: 'input.numeratorCurrencyCode must be a 3-letter currency code.', code: 'INVALID_ARGUMENT' });
    const id = await gql('mutation { removeCategory(input: { id: "abc", year: 2024 }) { message } }', {}, 'op-key');
    assert.deepEqual(onlyError(id), { message: 'input.id must be an integer.', code: 'INVALID_ARGUMENT' });
    const goals = await gql('mutation { addGoalObjectiveToSubCategory(input: { subCategoryId: 10, year: 2024 }) { message } }', {}, 'op-key');
    assert.deepEqual(onlyError(goals), { message: 'Give input.sdgId, input.euObjectiveId or both.', code: 'INVALID_ARGUMENT' });
    const name = await gql('mutation { addCategory(input: { name: "", year: 2024, languageCode: "en" }) { message } }', {}, 'op-key');
    assert.deepEqual(onlyError(name), { message: 'input.name is required.', code: 'INVALID_ARGUMENT' });
  });

  test('service errors: unknown language, not found, not authorized', async () => {
    assert.deepEqual(onlyError(await gql('{ sdgs(languageCode: "xx") { id } }')), { message: 'Unknown language code xx.', code: 'INVALID_ARGUMENT' });
    assert.deepEqual(onlyError(await gql('mutation { removeUnit(input: { id: 99, year: 2024 }) { message } }', {}, 'op-key')), {
      message: 'No such unit 99 in 2024.',
      code: 'NOT_FOUND',
    });
    assert.deepEqual(onlyError(await gql('mutation { addCurrency(currencyCode: "NOK") { message } }')), {
      message: 'Not authorized.',
      code: 'PERMISSION_DENIED',
    });
  });

  test('a year without a taxonomy: empty lists, not errors', async () => {
    assert.deepEqual(data(await gql('{ categories(year: 1999) { id subCategories { id } } }')), { categories: [] });
  });
});

describe('mutations answer their message and id', () => {
  test('addCategory: the service message and the new id', async () => {
    const res = await gql('mutation ($i: AddCategoryInput!) { addCategory(input: $i) { message id } }', {
      i: { name: 'Clean transport', year: 2024, languageCode: 'en' },
    }, 'op-key');
    assert.deepEqual(data(res), { addCategory: { message: 'Category added with id 3.', id: '3' } });
  });

  test('goal links: an omitted id is absent in the gRPC request', async () => {
    const res = await gql('mutation { addGoalObjectiveToSubCategory(input: { subCategoryId: "10", year: 2024, euObjectiveId: 2 }) { message id } }', {}, 'op-key');
    assert.deepEqual(data(res), { addGoalObjectiveToSubCategory: { message: 'EU objective 2 added to sub category 10.', id: '10' } });
    const last = t.taxonomy!.calls.filter((c) => c.method === 'addGoalObjectiveToSubCategory').at(-1)!;
    assert.deepEqual(JSON.parse(JSON.stringify(last.request)), { subCategoryId: 10, reportingYear: 2024, euObjectiveId: 2 });
  });

  test('translations, sub categories, indicators, currencies and FX rates', async () => {
    const res = await gql(
      `mutation {
        t: addSubCategoryTranslation(input: { id: 10, year: 2024, languageCode: "sv", translation: "Solkraft" }) { message }
        s: addSubCategory(input: { name: "Solar power", categoryId: 1, year: 2024, languageCode: "en", newCategoryId: 2 }) { message }
        i: addIndicator(input: { name: "Heat", superIndicatorId: 21, unitId: 41, year: 2024 }) { message id }
        r: removeSuperIndicator(input: { id: 20, year: 2024, categoryId: 2 }) { message }
        c: addCurrency(currencyCode: "dkk") { message }
        f: addFxRate(input: { numeratorCurrencyCode: "sek", denominatorCurrencyCode: "EUR", rate: 11.4, year: 2024 }) { message }
        x: removeFxRate(input: { currencyCode1: "EUR", currencyCode2: "SEK", year: 2024 }) { message }
      }`,
      {},
      'op-key',
    );
    assert.deepEqual(data(res), {
      t: { message: 'sub category translation changed' },
      s: { message: 'Sub category added with id 13.' },
      i: { message: 'Indicator added with id 32.', id: '32' },
      r: { message: 'Super indicator removed from category 2.' },
      c: { message: 'Currency added with id 3.' },
      f: { message: 'FX rate added with id 2.' },
      x: { message: 'FX rate removed.' },
    });
    const sent = (method: string) => JSON.parse(JSON.stringify(t.taxonomy!.calls.filter((c) => c.method === method).at(-1)!.request));
    assert.deepEqual(sent('addSubCategory'), { subCategoryName: 'Solar power', categoryId: 1, reportingYear: 2024, categoryIdChanged: 2, languageCode: 'en' });
    assert.deepEqual(sent('addCurrency'), { currencyCode: 'DKK' });
    assert.deepEqual(sent('addFxRate'), { currencyCodeNumerator: 'SEK', currencyCodeDenominator: 'EUR', currencyCodeQuota: 11.4, reportingYear: 2024 });
  });
});

test('every taxonomy type, field and argument is described', async () => {
  const res = await gql(`{
    __schema { types { name kind description fields { name description args { name description } }
      inputFields { name description } } }
  }`);
  const types = (data(res)['__schema'] as { types: { name: string; description: string | null; fields: { name: string; description: string | null; args: { name: string; description: string | null }[] }[] | null; inputFields: { name: string; description: string | null }[] | null }[] }).types;
  const mine = new Set([
    'Sdg', 'EuObjective', 'Language', 'Currency', 'FxRate', 'Category', 'SubCategory', 'SuperIndicator', 'Indicator', 'Unit',
    'TaxonomyRow', 'AddCategoryInput', 'AddSubCategoryInput', 'GoalObjectiveInput', 'AddUnitInput', 'AddSuperIndicatorInput',
    'AddIndicatorInput', 'RemoveTaxonomyItemInput', 'RemoveSuperIndicatorInput', 'TranslationInput', 'AddFxRateInput', 'RemoveFxRateInput',
  ]);
  const missing: string[] = [];
  for (const type of types) {
    if (mine.has(type.name)) {
      if (!type.description) missing.push(type.name);
      for (const f of [...(type.fields ?? []), ...(type.inputFields ?? [])]) if (!f.description) missing.push(`${type.name}.${f.name}`);
    }
    if (type.name === 'Query' || type.name === 'Mutation') {
      for (const f of type.fields ?? []) {
        if (!f.description) missing.push(`${type.name}.${f.name}`);
        for (const a of f.args) if (!a.description && a.name !== 'input') missing.push(`${type.name}.${f.name}(${a.name})`);
      }
    }
  }
  assert.deepEqual(missing, []);
});

test('without a taxonomy backend: UNAVAILABLE', async () => {
  const bare = await startTestGateway();
  try {
    const res = await gqlAt(bare.baseUrl, '{ categories(year: 2024) { id } }');
    assert.deepEqual(onlyError(res), {
      message: 'The taxonomy service is not available: this gateway has no taxonomy backend configured.',
      code: 'UNAVAILABLE',
    });
  } finally {
    await bare.stop();
  }
});
