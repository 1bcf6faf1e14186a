import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startTestGateway, type TestGateway } from '@green-impact/testing/gateway/real-gateway';
import { callsDuring as callsOf, data, gqlAt, onlyError, type GqlResponse } from '@green-impact/testing/gateway/graphql-calls';
import { taxonomyIds, type TaxonomyIds } from '@green-impact/testing/gateway/taxonomy-ids';

/**
 * GraphQL over the real taxonomy service, with the ICMA example taxonomy for 2024 loaded through its API.
 * The gateway checks presence and types; bounds and their texts are the service's, relabelled with the
 * GraphQL argument names.
 */

let t: TestGateway;
let ids: TaxonomyIds;

const gql = (query: string, variables: Record<string, unknown> = {}, apiKey: string | null = t.userKey): Promise<GqlResponse> =>
  gqlAt(t.baseUrl, query, variables, apiKey);
/** Calls per method the taxonomy service receives from the gateway while `run` runs. */
const callsDuring = (run: () => Promise<unknown>) => callsOf([t.taxonomy!], run);
/** The last request the taxonomy service received for a method, without its unset optional fields. */
const sent = (method: string) => JSON.parse(JSON.stringify(t.taxonomy!.calls.filter((c) => c.method === method).at(-1)!.request));
const s = (id: number) => String(id);
before(async () => {
  t = await startTestGateway({}, { taxonomy: true });
  await t.loadExampleTaxonomy();
  ids = await taxonomyIds(t);
  t.taxonomy!.calls.splice(0);
});
after(async () => {
  await t?.stop();
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
    const re = { id: s(ids.category['Renewable energy']), name: 'Förnybar energi' };
    const sdgs = [
      { id: '7', goalNo: '7', name: 'Hållbar energi för alla', language: 'Swedish' },
      { id: '13', goalNo: '13', name: 'Bekämpa klimatförändringarna', language: 'Swedish' },
    ];
    const euObjectives = [{ id: '1', objectiveNo: '1', name: 'Begränsning av klimatförändringar' }];
    const sub = (name: string, svName: string) => ({ id: s(ids.subCategory[name]), name: svName, category: re, sdgs, euObjectives });
    const ghg = { id: s(ids.superIndicator['GHG emissions']), name: 'Växthusgasutsläpp' };
    const generation = { id: s(ids.superIndicator['Renewable energy generation']), name: 'Produktion av förnybar energi' };
    const unit = (name: string, svName: string, indicators: string[]) => ({
      id: s(ids.unit[name]),
      name: svName,
      indicators: indicators.map((i) => ({ id: s(ids.indicator[i]) })),
    });
    assert.deepEqual(categories[0], {
      ...re,
      language: 'Swedish',
      subCategories: [sub('Solar power', 'Solkraft'), sub('Wind power', 'Vindkraft'), sub('Hydropower', 'Hydropower')],
      superIndicators: [
        {
          ...ghg,
          categories: [
            re,
            { id: s(ids.category['Energy efficiency']), name: 'Energieffektivisering' },
            { id: s(ids.category['Clean transportation']), name: 'Ren transport' },
            { id: s(ids.category['Green buildings']), name: 'Gröna byggnader' },
            { id: s(ids.category['Pollution prevention and control']), name: 'Förebyggande och kontroll av föroreningar' },
          ],
          indicators: [
            {
              id: s(ids.indicator['Annual GHG emissions reduced/avoided']),
              name: 'Årliga minskade/undvikta växthusgasutsläpp',
              superIndicator: ghg,
              unit: unit('tCO2e/year', 'ton CO2e/år', ['Annual GHG emissions reduced/avoided']),
            },
          ],
        },
        {
          ...generation,
          categories: [re],
          indicators: [
            {
              id: s(ids.indicator['Annual renewable energy generation']),
              name: 'Årlig produktion av förnybar energi',
              superIndicator: generation,
              unit: unit('MWh/year', 'MWh/år', ['Annual renewable energy generation', 'Annual energy savings']),
            },
            {
              id: s(ids.indicator['Capacity of renewable energy plant(s) constructed or rehabilitated']),
              name: 'Capacity of renewable energy plant(s) constructed or rehabilitated',
              superIndicator: generation,
              unit: unit('MW', 'MW', ['Capacity of renewable energy plant(s) constructed or rehabilitated']),
            },
          ],
        },
      ],
    });
    const buildings = categories.find((c) => c['id'] === s(ids.category['Green buildings']))!;
    assert.deepEqual(
      (buildings['superIndicators'] as { id: string }[]).map((x) => x.id),
      [ghg.id, s(ids.superIndicator['Energy savings']), s(ids.superIndicator['Building performance'])],
      'a super indicator appears under each of its categories',
    );
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
    const { taxonomy } = data(res) as { taxonomy: { subCategory: { name: string }; superIndicator: { name: string } }[] };
    const expected = (await t.taxonomy!.client.getTaxonomy({ reportingYear: 2024 }, { caller: t.user })).rows.length;
    assert.equal(taxonomy.length, expected);
    assert.ok(taxonomy.length > 0);
    assert.deepEqual(
      taxonomy.find((r) => r.subCategory.name === 'Solar power' && r.superIndicator.name === 'GHG emissions'),
      {
        category: { id: s(ids.category['Renewable energy']), name: 'Renewable energy' },
        subCategory: { id: s(ids.subCategory['Solar power']), name: 'Solar power' },
        superIndicator: { id: s(ids.superIndicator['GHG emissions']), name: 'GHG emissions' },
        indicator: { id: s(ids.indicator['Annual GHG emissions reduced/avoided']), name: 'Annual GHG emissions reduced/avoided' },
        unit: { id: s(ids.unit['tCO2e/year']), name: 'tCO2e/year' },
        sdgs: [
          { goalNo: '7', name: 'Affordable and Clean Energy' },
          { goalNo: '13', name: 'Climate Action' },
        ],
        euObjectives: [{ objectiveNo: '1', name: 'Climate change mitigation' }],
        language: 'English',
        languageCode: 'en',
      },
    );
  });

  test('sub categories, super indicators, indicators and units at the top level', async () => {
    const res = await gql(`{
      subCategories(year: 2024) { id name category { id } }
      superIndicators(year: 2024) { id name categories { id } }
      indicators(year: 2024) { id name unit { name } superIndicator { name } }
      units(year: 2024) { id name year language languageCode }
    }`);
    const d = data(res) as Record<string, { id: string; name: string }[]>;
    const named = (list: string, name: string) => d[list]!.find((x) => x.name === name);
    assert.equal(d['subCategories']!.length, 15);
    assert.deepEqual(named('subCategories', 'Wastewater treatment'), {
      id: s(ids.subCategory['Wastewater treatment']),
      name: 'Wastewater treatment',
      category: { id: s(ids.category['Sustainable water and wastewater management']) },
    });
    assert.equal(d['superIndicators']!.length, 8);
    assert.deepEqual(named('superIndicators', 'Energy savings'), {
      id: s(ids.superIndicator['Energy savings']),
      name: 'Energy savings',
      categories: [{ id: s(ids.category['Energy efficiency']) }, { id: s(ids.category['Green buildings']) }],
    });
    assert.equal(d['indicators']!.length, 15);
    assert.deepEqual(named('indicators', 'Annual energy savings (heat and fuels)'), {
      id: s(ids.indicator['Annual energy savings (heat and fuels)']),
      name: 'Annual energy savings (heat and fuels)',
      unit: { name: 'GJ/year' },
      superIndicator: { name: 'Energy savings' },
    });
    assert.deepEqual(d['units']!.slice(0, 2), [
      { id: s(ids.unit['tCO2e/year']), name: 'tCO2e/year', year: 2024, language: 'English', languageCode: 'en' },
      { id: s(ids.unit['MWh/year']), name: 'MWh/year', year: 2024, language: 'English', languageCode: 'en' },
    ]);
    assert.equal(d['units']!.length, 10);
  });
});

test('a sub category without goals has empty sdgs and euObjectives', async () => {
  await t.taxonomy!.client.addSubCategory(
    { subCategoryName: 'Geothermal', categoryId: ids.category['Renewable energy'], reportingYear: 2024, languageCode: 'en' },
    { caller: t.operator },
  );
  const { subCategories } = data(await gql('{ subCategories(year: 2024) { name sdgs { id } euObjectives { id } } }'));
  assert.deepEqual(
    (subCategories as { name: string }[]).find((x) => x.name === 'Geothermal'),
    { name: 'Geothermal', sdgs: [], euObjectives: [] },
  );
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
    const d = data(res) as Record<string, Record<string, unknown>[]>;
    assert.deepEqual(d['sdgs']![6], { id: '7', goalNo: '7', name: 'Hållbar energi för alla', language: 'Swedish', languageCode: 'sv' });
    assert.deepEqual(d['euObjectives']![0], { id: '1', objectiveNo: '1', name: 'Climate change mitigation' });
    assert.deepEqual(d['languages']!.slice(0, 2), [
      { id: '1', code: 'en', name: 'English' },
      { id: '2', code: 'sv', name: 'Swedish' },
    ]);
    const codes = d['currencies']!.map((c) => c['code']);
    assert.ok(codes.includes('EUR') && codes.includes('SEK') && codes.includes('USD'));
    assert.deepEqual(Object.keys(d['currencies']![0]!), ['id', 'code']);
    const fx = d['fxRates']!;
    const pair = (n: string, m: string) => fx.find((r) => r['numeratorCurrencyCode'] === n && r['denominatorCurrencyCode'] === m);
    assert.deepEqual(pair('EUR', 'EUR'), { id: null, year: 2024, numeratorCurrencyCode: 'EUR', denominatorCurrencyCode: 'EUR', rate: '1', derived: true });
    const sekEur = pair('SEK', 'EUR')!;
    assert.deepEqual(sekEur, { id: sekEur['id'], year: 2024, numeratorCurrencyCode: 'SEK', denominatorCurrencyCode: 'EUR', rate: '11.4325', derived: false });
    assert.match(String(sekEur['id']), /^\d+$/);
  });
});

describe('errors carry extensions.code', () => {
  test('a 5-digit year: BAD_USER_INPUT naming the argument, from the service', async () => {
    const counts = await callsDuring(async () => {
      assert.deepEqual(onlyError(await gql('{ categories(year: 20245) { id } }')), {
        message: 'year must be a 4-digit year from 1900 to 2200, got 20245.',
        code: 'BAD_USER_INPUT',
      });
    });
    assert.deepEqual(counts, { getCategories: 1 }, 'the service owns the bounds');
  });

  test('input fields are named in messages', async () => {
    const op = t.operatorKey;
    const fx = await gql('mutation ($i: AddFxRateInput!) { addFxRate(input: $i) { message } }', {
      i: { numeratorCurrencyCode: 'SE', denominatorCurrencyCode: 'EUR', rate: '11.5', year: 2024 },
    }, op);
    assert.deepEqual(onlyError(fx), { message: 'input.numeratorCurrencyCode must be a 3-letter currency code, got "SE".', code: 'BAD_USER_INPUT' });
    const year = await gql('mutation { addCategory(input: { name: "X", year: 24, languageCode: "en" }) { message } }', {}, op);
    assert.deepEqual(onlyError(year), { message: 'input.year must be a 4-digit year from 1900 to 2200, got 24.', code: 'BAD_USER_INPUT' });
    const counts = await callsDuring(async () => {
      const id = await gql('mutation { removeCategory(input: { id: "abc", year: 2024 }) { message } }', {}, op);
      assert.deepEqual(onlyError(id), { message: 'input.id must be an integer.', code: 'BAD_USER_INPUT' });
      const name = await gql('mutation { addCategory(input: { name: "", year: 2024, languageCode: "en" }) { message } }', {}, op);
      assert.deepEqual(onlyError(name), { message: 'input.name is required.', code: 'BAD_USER_INPUT' });
    });
    assert.deepEqual(counts, {}, 'types and presence: the gateway refuses them itself');
    const goals = await gql('mutation { addGoalObjectiveToSubCategory(input: { subCategoryId: 10, year: 2024 }) { message } }', {}, op);
    assert.deepEqual(onlyError(goals), { message: 'Give input.sdgId, input.euObjectiveId or both.', code: 'BAD_USER_INPUT' });
  });

  test('service errors: unknown language, not found, not authorized', async () => {
    assert.deepEqual(onlyError(await gql('{ sdgs(languageCode: "xx") { id } }')), { message: 'Unknown language code xx.', code: 'BAD_USER_INPUT' });
    assert.deepEqual(onlyError(await gql('mutation { removeUnit(input: { id: 99999, year: 2024 }) { message } }', {}, t.operatorKey)), {
      message: 'No such unit 99999 in 2024.',
      code: 'NOT_FOUND',
    });
    assert.deepEqual(onlyError(await gql('mutation { addCurrency(currencyCode: "NOK") { message } }')), {
      message: 'Not authorized.',
      code: 'FORBIDDEN',
    });
  });

  test('a year without a taxonomy: empty lists, not errors', async () => {
    assert.deepEqual(data(await gql('{ categories(year: 1999) { id subCategories { id } } }')), { categories: [] });
  });
});

describe('mutations answer their message and id', () => {
  test('addCategory: the service message and the new id', async () => {
    const res = await gql('mutation ($i: AddCategoryInput!) { addCategory(input: $i) { message id } }', {
      i: { name: 'Clean shipping', year: 2024, languageCode: 'en' },
    }, t.operatorKey);
    const id = s((await taxonomyIds(t)).category['Clean shipping']);
    assert.deepEqual(data(res), { addCategory: { message: `Category added with id ${id}.`, id } });
  });

  test('goal links: an omitted id is absent in the gRPC request', async () => {
    const hydro = ids.subCategory['Hydropower'];
    const res = await gql(`mutation { addGoalObjectiveToSubCategory(input: { subCategoryId: "${hydro}", year: 2024, euObjectiveId: 2 }) { message id } }`, {}, t.operatorKey);
    assert.deepEqual(data(res), { addGoalObjectiveToSubCategory: { message: `EU objective 2 added to sub category ${hydro}.`, id: s(hydro) } });
    assert.deepEqual(sent('addGoalObjectiveToSubCategory'), { subCategoryId: hydro, reportingYear: 2024, euObjectiveId: 2 });
  });

  test('translations, sub categories, indicators, currencies and FX rates', async () => {
    const [re, ee] = [ids.category['Renewable energy'], ids.category['Energy efficiency']];
    await t.taxonomy!.client.addSubCategory({ subCategoryName: 'Tidal power', categoryId: re, reportingYear: 2024, languageCode: 'en' }, { caller: t.operator });
    const res = await gql(
      `mutation {
        t: addSubCategoryTranslation(input: { id: ${ids.subCategory['Hydropower']}, year: 2024, languageCode: "sv", translation: "Vattenkraft" }) { message }
        s: addSubCategory(input: { name: "Tidal power", categoryId: ${re}, year: 2024, languageCode: "en", newCategoryId: ${ee} }) { message }
        i: addIndicator(input: { name: "Heat recovered", superIndicatorId: ${ids.superIndicator['Energy savings']}, unitId: ${ids.unit['GJ/year']}, year: 2024 }) { message id }
        r: removeSuperIndicator(input: { id: ${ids.superIndicator['Air quality']}, year: 2024, categoryId: ${ids.category['Clean transportation']} }) { message }
        c: addCurrency(currencyCode: "xyz") { message }
        f: addFxRate(input: { numeratorCurrencyCode: "xyz", denominatorCurrencyCode: "EUR", rate: 11.4, year: 2024 }) { message }
        x: removeFxRate(input: { currencyCode1: "EUR", currencyCode2: "xyz", year: 2024 }) { message }
      }`,
      {},
      t.operatorKey,
    );
    const after = await taxonomyIds(t);
    const heat = after.indicator['Heat recovered'];
    const xyz = (await t.taxonomy!.client.getCurrencies({}, { caller: t.user })).currencies.find((c) => c.currencyCode === 'XYZ');
    assert.ok(xyz, 'the service upper-cased the code');
    const d = data(res);
    assert.match(d['f'].message, /^FX rate added with id \d+\.$/);
    assert.deepEqual(d, {
      t: { message: 'sub category translation changed' },
      s: { message: 'Sub category changed.' },
      i: { message: `Indicator added with id ${heat}.`, id: s(heat) },
      r: { message: `Super indicator removed from category ${ids.category['Clean transportation']}.` },
      c: { message: `Currency added with id ${xyz.id}.` },
      f: { message: d['f'].message },
      x: { message: 'FX rate removed.' },
    });
    assert.deepEqual(sent('addSubCategory'), { subCategoryName: 'Tidal power', categoryId: re, reportingYear: 2024, categoryIdChanged: ee, languageCode: 'en' });
    assert.deepEqual(sent('addCurrency'), { currencyCode: 'xyz' }, 'lower case reaches the service');
    assert.deepEqual(sent('addFxRate'), { currencyCodeNumerator: 'xyz', currencyCodeDenominator: 'EUR', currencyCodeQuota: 11.4, reportingYear: 2024 });
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

test('without a taxonomy backend: SERVICE_UNAVAILABLE', async () => {
  const bare = await startTestGateway();
  try {
    const res = await gqlAt(bare.baseUrl, '{ categories(year: 2024) { id } }', {}, bare.userKey);
    assert.deepEqual(onlyError(res), {
      message: 'The taxonomy service is not available: this gateway has no taxonomy backend configured.',
      code: 'SERVICE_UNAVAILABLE',
    });
  } finally {
    await bare.stop();
  }
});
