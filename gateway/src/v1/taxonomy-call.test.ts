import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { postCall, startTestGateway, type TestGateway } from '../testing/test-gateway.js';

/** /v1/call for the taxonomy service's operations, against the fake TaxonomyService over real gRPC. */

const ESG = 'SVC.ESG.Credits';
const OPERATOR = { 'content-type': 'application/json', 'x-api-key': 'op-key' };

let t: TestGateway;
before(async () => {
  t = await startTestGateway({}, { taxonomy: true });
});
after(async () => {
  await t.stop();
});

const call = (operation: string, parameters?: Record<string, unknown>, headers?: Record<string, string>) =>
  postCall(t.baseUrl, { solution: ESG, operation, ...(parameters ? { parameters } : {}) }, headers);

type Row = Record<string, unknown>;
/** The 200 body of a read: an array of rows. */
const rows = (res: Awaited<ReturnType<typeof postCall>>) => res.json as unknown as Row[];

/** The last request the fake taxonomy service received for a method, without its unset optional fields. */
function lastRequest(method: string): unknown {
  const found = t.taxonomy!.calls.filter((c) => c.method === method).at(-1);
  assert.ok(found, `no ${method} call`);
  return JSON.parse(JSON.stringify(found.request));
}

function assertError(res: Awaited<ReturnType<typeof postCall>>, status: number, code: string, message: string) {
  assert.equal(res.status, status, res.text);
  assert.deepEqual(res.json, { message, code });
}

describe('validation failures are 4xx with message and code, before any taxonomy call', () => {
  const cases: [string, string, Record<string, unknown> | undefined, string][] = [
    ['5-digit year', 'getCategories', { reporting_year: 20245 }, 'reporting_year must be a 4-digit year.'],
    ['2-digit year as text', 'getFXrates', { reporting_year: '24' }, 'reporting_year must be a 4-digit year.'],
    ['missing year', 'getUnits', { language_code: 'sv' }, 'reporting_year is required.'],
    ['no parameters at all', 'getTaxonomy', undefined, 'reporting_year is required.'],
    ['2-letter currency', 'addCurrency', { currency_code: 'EU' }, 'currency_code must be a 3-letter currency code.'],
    [
      '2-letter FX currency',
      'addFXrate',
      { currency_code_numerator: 'SE', currency_code_denominator: 'EUR', currency_code_quota: 11.5, reporting_year: 2024 },
      'currency_code_numerator must be a 3-letter currency code.',
    ],
    ['non-numeric id', 'removeCategory', { category_id: 'abc', reporting_year: 2024 }, 'category_id must be an integer.'],
    ['non-numeric sdg_id', 'addGoalObjectiveToSubCategory', { sub_category_id: 10, reporting_year: 2024, sdg_id: 'seven' }, 'sdg_id must be an integer.'],
    ['missing required name', 'addCategory', { reporting_year: 2024, language_code: 'en' }, 'category_name is required.'],
    ['missing language_code on addCategory', 'addCategory', { category_name: 'X', reporting_year: 2024 }, 'language_code is required.'],
    ['missing translation', 'addUnitTranslation', { unit_id: 40, reporting_year: 2024, language_code: 'sv' }, 'translation is required.'],
    ['neither goal nor objective', 'addGoalObjectiveToSubCategory', { sub_category_id: 10, reporting_year: 2024, sdg_id: '', eu_objective_id: '' }, 'Give sdg_id, eu_objective_id or both.'],
    ['missing FX pair member', 'removeFXrate', { currency_code_1: 'SEK', reporting_year: 2024 }, 'currency_code_2 is required.'],
  ];
  for (const [name, operation, parameters, message] of cases) {
    test(name, async () => {
      const before = t.taxonomy!.calls.length;
      assertError(await call(operation, parameters, OPERATOR), 400, 'INVALID_ARGUMENT', message);
      assert.equal(t.taxonomy!.calls.length, before, 'the gateway refused it itself');
    });
  }
});

describe('service errors keep their texts and codes', () => {
  test('unknown language code: 400 from the service', async () => {
    assertError(await call('getSDGs', { language_code: 'xx' }), 400, 'INVALID_ARGUMENT', 'Unknown language code xx.');
  });
  test('unknown item: 404', async () => {
    assertError(await call('removeUnit', { unit_id: 99, reporting_year: 2024 }, OPERATOR), 404, 'NOT_FOUND', 'No such unit 99 in 2024.');
  });
  test('item still in use: 400 FAILED_PRECONDITION', async () => {
    const res = await call('removeCategory', { category_id: 1, reporting_year: 2024 }, OPERATOR);
    assertError(res, 400, 'FAILED_PRECONDITION', 'Category 1 is still used by sub categories; remove them first.');
  });
  test('changes by a non-operator: 403 Not authorized.', async () => {
    assertError(await call('addCurrency', { currency_code: 'NOK' }), 403, 'PERMISSION_DENIED', 'Not authorized.');
  });
  test('no key: 401 before anything else', async () => {
    const res = await call('getCategories', { reporting_year: 20245 }, { 'content-type': 'application/json' });
    assertError(res, 401, 'UNAUTHENTICATED', 'Please submit client identifier.');
  });
});

describe('read shapes (spec §2.1, §2.2)', () => {
  test('getSDGs and getEUObjectives, in the requested language', async () => {
    const sdgs = await call('getSDGs', { language_code: 'sv' });
    assert.equal(sdgs.status, 200);
    assert.deepEqual(sdgs.json[1], { sdg_id: 7, goal_no: '7', sdg: 'Hållbar energi för alla', language: 'Swedish' });
    const eu = await call('getEUObjectives');
    assert.deepEqual(eu.json[0], { eu_objectiv_id: 1, objective_no: '1', objective: 'Climate change mitigation', language: 'English' });
    assert.deepEqual(lastRequest('getEuObjectives'), {}, 'no language_code: the original language');
  });

  test('getCategories: year as text, language passed on', async () => {
    const res = await call('getCategories', { reporting_year: '2024', language_code: 'sv' });
    assert.equal(res.status, 200);
    assert.deepEqual(res.json, [
      { category_id: 1, category_name: 'Förnybar energi', language: 'Swedish' },
      { category_id: 2, category_name: 'Green buildings', language: 'English' },
    ]);
    assert.deepEqual(lastRequest('getCategories'), { reportingYear: 2024, languageCode: 'sv' });
  });

  test('getSubCategories: sdg and eu_objective objects keyed by number', async () => {
    const res = await call('getSubCategories', { reporting_year: 2024 });
    assert.deepEqual(res.json[1], {
      sub_category_id: 11,
      sub_category_name: 'Wind power',
      category_id: 1,
      category_name: 'Renewable energy',
      sdg: { '7': 'Affordable and Clean Energy', '13': 'Climate Action' },
      eu_objective: {},
      language: 'English',
    });
    assert.deepEqual(rows(res)[0]!['sdg'], { '7': 'Affordable and Clean Energy' });
    assert.deepEqual(rows(res)[0]!['eu_objective'], { '1': 'Climate change mitigation' });
  });

  test('getSuperIndicators: one entry per (super indicator, category)', async () => {
    const res = await call('getSuperIndicators', { reporting_year: 2024 });
    assert.deepEqual(
      rows(res).map((s) => [s['super_indicator_id'], s['category_id']]),
      [[20, 1], [20, 2], [21, 1]],
    );
    assert.deepEqual(res.json[0], {
      super_indicator_id: 20,
      super_indicator_name: 'GHG emissions',
      category_id: 1,
      category_name: 'Renewable energy',
      language: 'English',
    });
  });

  test('getIndicators and getUnits', async () => {
    const indicators = await call('getIndicators', { reporting_year: 2024 });
    assert.deepEqual(indicators.json[0], {
      indicator_id: 30,
      indicator_name: 'Avoided emissions',
      super_indicator_id: 20,
      super_indicator_name: 'GHG emissions',
      unit_id: 40,
      unit_name: 'tCO2e',
      language: 'English',
    });
    const units = await call('getUnits', { reporting_year: 2024 });
    assert.deepEqual(units.json, [
      { unit_id: 40, unit_name: 'tCO2e', language: 'English' },
      { unit_id: 41, unit_name: 'MWh', language: 'English' },
    ]);
  });

  test('getTaxonomy: full rows', async () => {
    const res = await call('getTaxonomy', { reporting_year: 2024 });
    assert.equal(res.status, 200);
    assert.deepEqual(Object.keys(rows(res)[0]!), [
      'category_id', 'category_name', 'sub_category_id', 'sub_category_name', 'super_indicator_id', 'super_indicator_name',
      'indicator_id', 'indicator_name', 'unit_id', 'unit_name', 'sdg', 'eu_objective', 'language',
    ]);
    assert.deepEqual(res.json[0], {
      category_id: 1,
      category_name: 'Renewable energy',
      sub_category_id: 10,
      sub_category_name: 'Solar power',
      super_indicator_id: 20,
      super_indicator_name: 'GHG emissions',
      indicator_id: 30,
      indicator_name: 'Avoided emissions',
      unit_id: 40,
      unit_name: 'tCO2e',
      sdg: { '7': 'Affordable and Clean Energy' },
      eu_objective: { '1': 'Climate change mitigation' },
      language: 'English',
    });
  });

  test('a year without a taxonomy is an empty list', async () => {
    const res = await call('getCategories', { reporting_year: 1999 });
    assert.equal(res.status, 200);
    assert.deepEqual(res.json, []);
  });

  test('getLanguages, getCurrencies (no parameters) and getFXrates', async () => {
    assert.deepEqual((await call('getLanguages')).json, [
      { id: 1, language_code: 'en', language: 'English' },
      { id: 2, language_code: 'sv', language: 'Swedish' },
    ]);
    assert.deepEqual((await call('getCurrencies')).json, [
      { id: 1, currency_code: 'EUR' },
      { id: 2, currency_code: 'SEK' },
    ]);
    const fx = await call('getFXrates', { reporting_year: 2024 });
    assert.deepEqual(fx.json.at(-1), {
      fx_conversion_id: 1,
      year: 2024,
      numerator_currency_code: 'SEK',
      denominator_currency_code: 'EUR',
      fx_rate: 11.5,
    });
    assert.equal(fx.json.length, 4, 'identity and reciprocal pairs included');
  });
});

describe('changes answer {message} with the service text and send the right request', () => {
  test('addCategory: the message ends with the new id', async () => {
    const res = await call('addCategory', { category_name: 'Clean transport', reporting_year: 2024, language_code: 'en' }, OPERATOR);
    assert.equal(res.status, 200);
    assert.deepEqual(res.json, { message: 'Category added with id 3.' });
  });

  test('addSubCategory accepts category_id_changed (numeric strings too)', async () => {
    const res = await call(
      'addSubCategory',
      { sub_category_name: 'Solar power', category_id: '1', reporting_year: 2024, sub_category_name_changed: '', category_id_changed: '2', language_code: 'en' },
      OPERATOR,
    );
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(lastRequest('addSubCategory'), {
      subCategoryName: 'Solar power',
      categoryId: 1,
      reportingYear: 2024,
      categoryIdChanged: 2,
      languageCode: 'en',
    });
  });

  test('addGoalObjectiveToSubCategory: "" for an unused id is left out of the gRPC request', async () => {
    const sdgOnly = await call('addGoalObjectiveToSubCategory', { sub_category_id: 10, reporting_year: 2024, sdg_id: 7, eu_objective_id: '' }, OPERATOR);
    assert.deepEqual(sdgOnly.json, { message: 'SDG 7 added to sub category 10.' });
    assert.deepEqual(lastRequest('addGoalObjectiveToSubCategory'), { subCategoryId: 10, reportingYear: 2024, sdgId: 7 });

    const euOnly = await call('addGoalObjectiveToSubCategory', { sub_category_id: '10', reporting_year: '2024', sdg_id: '', eu_objective_id: '2' }, OPERATOR);
    assert.deepEqual(euOnly.json, { message: 'EU objective 2 added to sub category 10.' });
    assert.deepEqual(lastRequest('addGoalObjectiveToSubCategory'), { subCategoryId: 10, reportingYear: 2024, euObjectiveId: 2 });

    await call('removeGoalObjectiveFromSubCategory', { sub_category_id: 10, reporting_year: 2024, sdg_id: '', eu_objective_id: 1 }, OPERATOR);
    assert.deepEqual(lastRequest('removeGoalObjectiveFromSubCategory'), { subCategoryId: 10, reportingYear: 2024, euObjectiveId: 1 });
  });

  test('addIndicator passes every *_changed field', async () => {
    await call(
      'addIndicator',
      {
        indicator_name: 'Avoided emissions',
        super_indicator_id: 20,
        reporting_year: 2024,
        indicator_name_changed: 'Avoided GHG emissions',
        super_indicator_id_changed: 21,
        unit_id_changed: 41,
      },
      OPERATOR,
    );
    assert.deepEqual(lastRequest('addIndicator'), {
      indicatorName: 'Avoided emissions',
      superIndicatorId: 20,
      reportingYear: 2024,
      indicatorNameChanged: 'Avoided GHG emissions',
      superIndicatorIdChanged: 21,
      unitIdChanged: 41,
    });
  });

  test('removeSuperIndicator: from one category or from all', async () => {
    assert.deepEqual((await call('removeSuperIndicator', { super_indicator_id: 20, reporting_year: 2024, category_id: 2 }, OPERATOR)).json, {
      message: 'Super indicator removed from category 2.',
    });
    assert.deepEqual((await call('removeSuperIndicator', { super_indicator_id: 20, reporting_year: 2024 }, OPERATOR)).json, {
      message: 'Super indicator removed.',
    });
  });

  test('translations answer the spec texts verbatim', async () => {
    const expected: [string, string, string][] = [
      ['addCategoryTranslation', 'category_id', 'category translation added'],
      ['addSubCategoryTranslation', 'sub_category_id', 'sub category translation changed'],
      ['addSuperIndicatorTranslation', 'super_indicator_id', 'super indicator translation added'],
      ['addIndicatorTranslation', 'indicator_id', 'indicator translation added'],
      ['addUnitTranslation', 'unit_id', 'unit translation changed'],
    ];
    for (const [operation, idName, message] of expected) {
      const res = await call(operation, { [idName]: '1', reporting_year: '2024', language_code: 'sv', translation: 'Översättning' }, OPERATOR);
      assert.equal(res.status, 200, `${operation}: ${res.text}`);
      assert.deepEqual(res.json, { message });
    }
    assert.deepEqual(lastRequest('addUnitTranslation'), { unitId: 1, reportingYear: 2024, languageCode: 'sv', translation: 'Översättning' });
  });

  test('currencies and FX rates: codes upper-cased, the quota a number', async () => {
    assert.deepEqual((await call('addCurrency', { currency_code: 'nok' }, OPERATOR)).json, { message: 'Currency added with id 3.' });
    assert.deepEqual(lastRequest('addCurrency'), { currencyCode: 'NOK' });
    const fx = await call(
      'addFXrate',
      { currency_code_numerator: 'sek', currency_code_denominator: 'eur', currency_code_quota: '11.49', reporting_year: '2024' },
      OPERATOR,
    );
    assert.deepEqual(fx.json, { message: 'FX rate added with id 2.' });
    assert.deepEqual(lastRequest('addFxRate'), {
      currencyCodeNumerator: 'SEK',
      currencyCodeDenominator: 'EUR',
      currencyCodeQuota: 11.49,
      reportingYear: 2024,
    });
    assert.deepEqual((await call('removeFXrate', { currency_code_1: 'EUR', currency_code_2: 'SEK', reporting_year: 2024 }, OPERATOR)).json, {
      message: 'FX rate removed.',
    });
    assert.deepEqual(lastRequest('removeFxRate'), { currencyCode1: 'EUR', currencyCode2: 'SEK', reportingYear: 2024 });
    assert.deepEqual((await call('removeCurrency', { currency_code: 'NOK' }, OPERATOR)).json, { message: 'Currency removed.' });
  });

  test('the caller travels to the taxonomy service', async () => {
    await call('getUnits', { reporting_year: 2024 }, OPERATOR);
    const last = t.taxonomy!.calls.at(-1)!;
    assert.equal(last.caller?.accountId, 'acc-op');
    assert.equal(last.caller?.role, 'operator');
  });
});

test('/readyz checks the taxonomy service when configured', async () => {
  const res = await fetch(`${t.baseUrl}/readyz`);
  assert.equal(res.status, 200);
  assert.deepEqual(await res.json(), { status: 'ready', backends: { identity: 'SERVING', taxonomy: 'SERVING' } });
});

test('without TAXONOMY_GRPC_ADDR: 503 UNAVAILABLE with a clear message; validation still comes first', async () => {
  const bare = await startTestGateway();
  try {
    const res = await postCall(bare.baseUrl, { solution: ESG, operation: 'getCategories', parameters: { reporting_year: 2024 } });
    assert.equal(res.status, 503);
    assert.deepEqual(res.json, {
      message: 'The taxonomy service is not available: this gateway has no taxonomy backend configured.',
      code: 'UNAVAILABLE',
    });
    const invalid = await postCall(bare.baseUrl, { solution: ESG, operation: 'getCategories', parameters: { reporting_year: 20245 } });
    assert.equal(invalid.status, 400);
    const ready = await fetch(`${bare.baseUrl}/readyz`);
    assert.deepEqual(await ready.json(), { status: 'ready', backends: { identity: 'SERVING' } });
  } finally {
    await bare.stop();
  }
});
