import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { postCall } from '@green-impact/testing/gateway/v1-calls';
import { jsonHeaders, startTestGateway, type TestGateway } from '@green-impact/testing/gateway/real-gateway';
import { taxonomyIds, type TaxonomyIds } from '@green-impact/testing/gateway/taxonomy-ids';

/**
 * /v1/call for the taxonomy service's operations, against the real taxonomy service (the ICMA example
 * taxonomy for 2024 loaded through its API). The gateway checks presence and types; the service owns
 * bounds and texts, so a value of the right type but out of bounds reaches it and is refused there.
 */

const ESG = 'SVC.ESG.Credits';

let t: TestGateway;
let OPERATOR: Record<string, string>;
let USER: Record<string, string>;
let ids: TaxonomyIds;
before(async () => {
  t = await startTestGateway({}, { taxonomy: true });
  await t.loadExampleTaxonomy();
  ids = await taxonomyIds(t);
  OPERATOR = jsonHeaders(t.operatorKey);
  USER = jsonHeaders(t.userKey);
  t.taxonomy!.calls.splice(0);
});
after(async () => {
  await t?.stop();
});

const call = (operation: string, parameters?: Record<string, unknown>, headers: Record<string, string> = USER) =>
  postCall(t.baseUrl, { solution: ESG, operation, ...(parameters ? { parameters } : {}) }, headers);

type Row = Record<string, unknown>;
/** The 200 body of a read: an array of rows. */
const rows = (res: Awaited<ReturnType<typeof postCall>>) => res.json as unknown as Row[];

/** The last request the taxonomy service received for a method from the gateway, without its unset optional fields. */
function lastRequest(method: string): unknown {
  const found = t.taxonomy!.calls.filter((c) => c.method === method && c.issuer === 'gateway').at(-1);
  assert.ok(found, `no ${method} call`);
  return JSON.parse(JSON.stringify(found.request));
}

function assertError(res: Awaited<ReturnType<typeof postCall>>, status: number, code: string, message: string) {
  assert.equal(res.status, status, res.text);
  assert.deepEqual(res.json, { message, code });
}

describe('validation failures are 4xx with message and code', () => {
  // [name, operation, parameters, message, the gRPC method that refuses it (none: the gateway refuses it itself)]
  const cases: [string, string, Record<string, unknown> | undefined, string, string | undefined][] = [
    ['5-digit year', 'getCategories', { reporting_year: 20245 }, 'reporting_year must be a 4-digit year from 1900 to 2200, got 20245.', 'getCategories'],
    ['2-digit year as text', 'getFXrates', { reporting_year: '24' }, 'reporting_year must be a 4-digit year from 1900 to 2200, got 24.', 'getFxRates'],
    ['missing year', 'getUnits', { language_code: 'sv' }, 'reporting_year is required.', undefined],
    ['no parameters at all', 'getTaxonomy', undefined, 'reporting_year is required.', undefined],
    ['2-letter currency', 'addCurrency', { currency_code: 'EU' }, 'currency_code must be a 3-letter currency code, got "EU".', 'addCurrency'],
    [
      '2-letter FX currency',
      'addFXrate',
      { currency_code_numerator: 'SE', currency_code_denominator: 'EUR', currency_code_quota: 11.5, reporting_year: 2024 },
      'currency_code_numerator must be a 3-letter currency code, got "SE".',
      'addFxRate',
    ],
    ['non-numeric id', 'removeCategory', { category_id: 'abc', reporting_year: 2024 }, 'category_id must be an integer.', undefined],
    ['non-numeric sdg_id', 'addGoalObjectiveToSubCategory', { sub_category_id: 10, reporting_year: 2024, sdg_id: 'seven' }, 'sdg_id must be an integer.', undefined],
    ['missing required name', 'addCategory', { reporting_year: 2024, language_code: 'en' }, 'category_name is required.', undefined],
    ['missing language_code on addCategory', 'addCategory', { category_name: 'X', reporting_year: 2024 }, 'language_code is required.', undefined],
    ['missing translation', 'addUnitTranslation', { unit_id: 40, reporting_year: 2024, language_code: 'sv' }, 'translation is required.', undefined],
    [
      'neither goal nor objective',
      'addGoalObjectiveToSubCategory',
      { sub_category_id: 10, reporting_year: 2024, sdg_id: '', eu_objective_id: '' },
      'Give sdg_id, eu_objective_id or both.',
      'addGoalObjectiveToSubCategory',
    ],
    ['missing FX pair member', 'removeFXrate', { currency_code_1: 'SEK', reporting_year: 2024 }, 'currency_code_2 is required.', undefined],
  ];
  for (const [name, operation, parameters, message, refusedBy] of cases) {
    test(`${name}: ${refusedBy ? 'the service refuses it' : 'the gateway refuses it, no taxonomy call'}`, async () => {
      const before = t.taxonomy!.calls.length;
      assertError(await call(operation, parameters, OPERATOR), 400, 'INVALID_ARGUMENT', message);
      assert.deepEqual(
        t.taxonomy!.calls.slice(before).map((c) => c.method),
        refusedBy ? [refusedBy] : [],
        refusedBy ? 'one call, which the service refused' : 'the gateway refused it itself',
      );
    });
  }
});

describe('service errors keep their texts and codes', () => {
  test('unknown language code: 400 from the service', async () => {
    assertError(await call('getSDGs', { language_code: 'xx' }), 400, 'INVALID_ARGUMENT', 'Unknown language code xx.');
  });
  test('unknown item: 404', async () => {
    assertError(await call('removeUnit', { unit_id: 99_999, reporting_year: 2024 }, OPERATOR), 404, 'NOT_FOUND', 'No such unit 99999 in 2024.');
  });
  test('item still in use: 400 FAILED_PRECONDITION', async () => {
    const id = ids.category['Sustainable water and wastewater management'];
    const res = await call('removeCategory', { category_id: id, reporting_year: 2024 }, OPERATOR);
    const [supply, wastewater, water] = [ids.subCategory['Water supply and efficiency'], ids.subCategory['Wastewater treatment'], ids.superIndicator['Water']];
    const message = `Category ${id} is still used by sub categories ${supply}, ${wastewater} and super indicator ${water}; remove those first.`;
    assertError(res, 400, 'FAILED_PRECONDITION', message);
  });
  test('changes by a non-operator: 403 Not authorized.', async () => {
    assertError(await call('addCurrency', { currency_code: 'NOK' }), 403, 'PERMISSION_DENIED', 'Not authorized.');
  });
  test('no key: 401 before anything else', async () => {
    const before = t.taxonomy!.calls.length;
    const res = await call('getCategories', { reporting_year: 20245 }, { 'content-type': 'application/json' });
    assertError(res, 401, 'UNAUTHENTICATED', 'Please submit client identifier.');
    assert.equal(t.taxonomy!.calls.length, before);
  });
});

describe('read shapes (spec §2.1, §2.2)', () => {
  test('getSDGs and getEUObjectives, in the requested language', async () => {
    const sdgs = await call('getSDGs', { language_code: 'sv' });
    assert.equal(sdgs.status, 200);
    assert.equal(sdgs.json.length, 17);
    assert.deepEqual(sdgs.json[6], { sdg_id: 7, goal_no: '7', sdg: 'Hållbar energi för alla', language: 'Swedish' });
    const eu = await call('getEUObjectives');
    assert.equal(eu.json.length, 6);
    assert.deepEqual(eu.json[0], { eu_objectiv_id: 1, objective_no: '1', objective: 'Climate change mitigation', language: 'English' });
    assert.deepEqual(lastRequest('getEuObjectives'), {}, 'no language_code: the original language');
  });

  test('getCategories: year as text, language passed on; untranslated names stay in the original language', async () => {
    await call('addCategory', { category_name: 'Untranslated', reporting_year: 2024, language_code: 'en' }, OPERATOR);
    const untranslated = (await taxonomyIds(t)).category['Untranslated'];
    const res = await call('getCategories', { reporting_year: '2024', language_code: 'sv' });
    assert.equal(res.status, 200);
    assert.deepEqual(rows(res).find((c) => c['category_id'] === ids.category['Renewable energy']), {
      category_id: ids.category['Renewable energy'],
      category_name: 'Förnybar energi',
      language: 'Swedish',
    });
    assert.deepEqual(rows(res).find((c) => c['category_name'] === 'Untranslated'), {
      category_id: untranslated,
      category_name: 'Untranslated',
      language: 'English',
    });
    assert.deepEqual(lastRequest('getCategories'), { reportingYear: 2024, languageCode: 'sv' });
  });

  test('getSubCategories: sdg and eu_objective objects keyed by number', async () => {
    const geothermal = await t.taxonomy!.client.addSubCategory(
      { subCategoryName: 'Geothermal', categoryId: ids.category['Renewable energy'], reportingYear: 2024, languageCode: 'en' },
      { caller: t.operator },
    );
    const res = await call('getSubCategories', { reporting_year: 2024 });
    const bare = rows(res).find((s) => s['sub_category_id'] === geothermal.id)!;
    assert.deepEqual([bare['sdg'], bare['eu_objective']], [{}, {}], 'no goals: empty objects');
    assert.deepEqual(rows(res).find((s) => s['sub_category_name'] === 'Wind power'), {
      sub_category_id: ids.subCategory['Wind power'],
      sub_category_name: 'Wind power',
      category_id: ids.category['Renewable energy'],
      category_name: 'Renewable energy',
      sdg: { '7': 'Affordable and Clean Energy', '13': 'Climate Action' },
      eu_objective: { '1': 'Climate change mitigation' },
      language: 'English',
    });
    const water = rows(res).find((s) => s['sub_category_name'] === 'Wastewater treatment')!;
    assert.deepEqual(water['sdg'], { '6': 'Clean Water and Sanitation', '14': 'Life Below Water' });
    assert.deepEqual(water['eu_objective'], {
      '3': 'Sustainable use and protection of water and marine resources',
      '5': 'Pollution prevention and control',
    });
  });

  test('getSuperIndicators: one entry per (super indicator, category)', async () => {
    const res = await call('getSuperIndicators', { reporting_year: 2024 });
    const ghg = ids.superIndicator['GHG emissions'];
    assert.deepEqual(
      rows(res).filter((s) => s['super_indicator_id'] === ghg).map((s) => s['category_name']),
      ['Renewable energy', 'Energy efficiency', 'Clean transportation', 'Green buildings', 'Pollution prevention and control'],
    );
    assert.deepEqual(rows(res).find((s) => s['super_indicator_id'] === ghg), {
      super_indicator_id: ghg,
      super_indicator_name: 'GHG emissions',
      category_id: ids.category['Renewable energy'],
      category_name: 'Renewable energy',
      language: 'English',
    });
  });

  test('getIndicators and getUnits', async () => {
    const indicators = await call('getIndicators', { reporting_year: 2024 });
    assert.deepEqual(rows(indicators).find((i) => i['indicator_name'] === 'Annual GHG emissions reduced/avoided'), {
      indicator_id: ids.indicator['Annual GHG emissions reduced/avoided'],
      indicator_name: 'Annual GHG emissions reduced/avoided',
      super_indicator_id: ids.superIndicator['GHG emissions'],
      super_indicator_name: 'GHG emissions',
      unit_id: ids.unit['tCO2e/year'],
      unit_name: 'tCO2e/year',
      language: 'English',
    });
    const units = await call('getUnits', { reporting_year: 2024 });
    assert.deepEqual(
      rows(units).slice(0, 2),
      [
        { unit_id: ids.unit['tCO2e/year'], unit_name: 'tCO2e/year', language: 'English' },
        { unit_id: ids.unit['MWh/year'], unit_name: 'MWh/year', language: 'English' },
      ],
    );
    assert.equal(rows(units).length, 10);
  });

  test('getTaxonomy: full rows', async () => {
    const res = await call('getTaxonomy', { reporting_year: 2024 });
    assert.equal(res.status, 200);
    assert.deepEqual(Object.keys(rows(res)[0]!), [
      'category_id', 'category_name', 'sub_category_id', 'sub_category_name', 'super_indicator_id', 'super_indicator_name',
      'indicator_id', 'indicator_name', 'unit_id', 'unit_name', 'sdg', 'eu_objective', 'language',
    ]);
    const solarGhg = rows(res).find((r) => r['sub_category_name'] === 'Solar power' && r['super_indicator_name'] === 'GHG emissions');
    assert.deepEqual(solarGhg, {
      category_id: ids.category['Renewable energy'],
      category_name: 'Renewable energy',
      sub_category_id: ids.subCategory['Solar power'],
      sub_category_name: 'Solar power',
      super_indicator_id: ids.superIndicator['GHG emissions'],
      super_indicator_name: 'GHG emissions',
      indicator_id: ids.indicator['Annual GHG emissions reduced/avoided'],
      indicator_name: 'Annual GHG emissions reduced/avoided',
      unit_id: ids.unit['tCO2e/year'],
      unit_name: 'tCO2e/year',
      sdg: { '7': 'Affordable and Clean Energy', '13': 'Climate Action' },
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
    const languages = rows(await call('getLanguages'));
    assert.deepEqual(languages.slice(0, 2), [
      { id: 1, language_code: 'en', language: 'English' },
      { id: 2, language_code: 'sv', language: 'Swedish' },
    ]);
    assert.equal(languages.length, 41, 'the 41 languages of spec §2.2');
    const currencies = rows(await call('getCurrencies'));
    assert.deepEqual(Object.keys(currencies[0]!), ['id', 'currency_code']);
    assert.ok(currencies.some((c) => c['currency_code'] === 'EUR') && currencies.some((c) => c['currency_code'] === 'SEK'));
    const fx = rows(await call('getFXrates', { reporting_year: 2024 }));
    const sekEur = fx.find((r) => r['numerator_currency_code'] === 'SEK' && r['denominator_currency_code'] === 'EUR');
    assert.deepEqual(sekEur, {
      fx_conversion_id: sekEur!['fx_conversion_id'],
      year: 2024,
      numerator_currency_code: 'SEK',
      denominator_currency_code: 'EUR',
      fx_rate: 11.4325,
    });
    assert.equal(typeof sekEur!['fx_conversion_id'], 'number');
    assert.ok(
      fx.some((r) => r['numerator_currency_code'] === 'EUR' && r['denominator_currency_code'] === 'EUR' && r['fx_rate'] === 1),
      'identity and reciprocal pairs included',
    );
    assert.ok(fx.some((r) => r['numerator_currency_code'] === 'EUR' && r['denominator_currency_code'] === 'SEK'), 'the reciprocal pair');
  });
});

describe('changes answer {message} with the service text and send the right request', () => {
  test('addCategory: the message ends with the new id', async () => {
    const res = await call('addCategory', { category_name: 'Clean shipping', reporting_year: 2024, language_code: 'en' }, OPERATOR);
    assert.equal(res.status, 200);
    assert.deepEqual(res.json, { message: `Category added with id ${(await taxonomyIds(t)).category['Clean shipping']}.` });
  });

  test('addSubCategory accepts category_id_changed (numeric strings too)', async () => {
    const [from, to] = [ids.category['Renewable energy'], ids.category['Energy efficiency']];
    await call('addSubCategory', { sub_category_name: 'Tidal power', category_id: from, reporting_year: 2024, language_code: 'en' }, OPERATOR);
    const res = await call(
      'addSubCategory',
      { sub_category_name: 'Tidal power', category_id: String(from), reporting_year: 2024, sub_category_name_changed: '', category_id_changed: String(to), language_code: 'en' },
      OPERATOR,
    );
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(lastRequest('addSubCategory'), {
      subCategoryName: 'Tidal power',
      categoryId: from,
      reportingYear: 2024,
      categoryIdChanged: to,
      languageCode: 'en',
    });
    const moved = rows(await call('getSubCategories', { reporting_year: 2024 })).find((s) => s['sub_category_name'] === 'Tidal power');
    assert.equal(moved?.['category_id'], to);
  });

  test('addGoalObjectiveToSubCategory: "" for an unused id is left out of the gRPC request', async () => {
    const hydro = ids.subCategory['Hydropower'];
    const sdgOnly = await call('addGoalObjectiveToSubCategory', { sub_category_id: hydro, reporting_year: 2024, sdg_id: 6, eu_objective_id: '' }, OPERATOR);
    assert.deepEqual(sdgOnly.json, { message: `SDG 6 added to sub category ${hydro}.` });
    assert.deepEqual(lastRequest('addGoalObjectiveToSubCategory'), { subCategoryId: hydro, reportingYear: 2024, sdgId: 6 });

    const euOnly = await call('addGoalObjectiveToSubCategory', { sub_category_id: String(hydro), reporting_year: '2024', sdg_id: '', eu_objective_id: '2' }, OPERATOR);
    assert.deepEqual(euOnly.json, { message: `EU objective 2 added to sub category ${hydro}.` });
    assert.deepEqual(lastRequest('addGoalObjectiveToSubCategory'), { subCategoryId: hydro, reportingYear: 2024, euObjectiveId: 2 });

    const removed = await call('removeGoalObjectiveFromSubCategory', { sub_category_id: hydro, reporting_year: 2024, sdg_id: '', eu_objective_id: 2 }, OPERATOR);
    assert.equal(removed.status, 200, removed.text);
    assert.deepEqual(lastRequest('removeGoalObjectiveFromSubCategory'), { subCategoryId: hydro, reportingYear: 2024, euObjectiveId: 2 });
  });

  test('addIndicator passes every *_changed field', async () => {
    const [ghg, energy] = [ids.superIndicator['GHG emissions'], ids.superIndicator['Energy savings']];
    await call('addIndicator', { indicator_name: 'Avoided methane', super_indicator_id: ghg, unit_id: ids.unit['tCO2e/year'], reporting_year: 2024 }, OPERATOR);
    const res = await call(
      'addIndicator',
      {
        indicator_name: 'Avoided methane',
        super_indicator_id: ghg,
        reporting_year: 2024,
        indicator_name_changed: 'Avoided methane emissions',
        super_indicator_id_changed: energy,
        unit_id_changed: ids.unit['t/year'],
      },
      OPERATOR,
    );
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(lastRequest('addIndicator'), {
      indicatorName: 'Avoided methane',
      superIndicatorId: ghg,
      reportingYear: 2024,
      indicatorNameChanged: 'Avoided methane emissions',
      superIndicatorIdChanged: energy,
      unitIdChanged: ids.unit['t/year'],
    });
  });

  test('removeSuperIndicator: from one category or from all', async () => {
    const air = ids.superIndicator['Air quality'];
    assert.deepEqual((await call('removeSuperIndicator', { super_indicator_id: air, reporting_year: 2024, category_id: ids.category['Clean transportation'] }, OPERATOR)).json, {
      message: `Super indicator removed from category ${ids.category['Clean transportation']}.`,
    });
    const waste = ids.superIndicator['Waste'];
    const indicator = ids.indicator['Waste prevented, minimised, reused or recycled'];
    await call('removeIndicator', { indicator_id: indicator, reporting_year: 2024 }, OPERATOR);
    assert.deepEqual((await call('removeSuperIndicator', { super_indicator_id: waste, reporting_year: 2024 }, OPERATOR)).json, {
      message: 'Super indicator removed.',
    });
  });

  test('translations answer the spec texts verbatim', async () => {
    const expected: [string, string, number, string][] = [
      ['addCategoryTranslation', 'category_id', ids.category['Green buildings'], 'category translation added'],
      ['addSubCategoryTranslation', 'sub_category_id', ids.subCategory['Hydropower'], 'sub category translation changed'],
      ['addSuperIndicatorTranslation', 'super_indicator_id', ids.superIndicator['Clean transport'], 'super indicator translation added'],
      ['addIndicatorTranslation', 'indicator_id', ids.indicator['Annual energy savings (heat and fuels)'], 'indicator translation added'],
      ['addUnitTranslation', 'unit_id', ids.unit['MW'], 'unit translation changed'],
    ];
    for (const [operation, idName, id, message] of expected) {
      const res = await call(operation, { [idName]: String(id), reporting_year: '2024', language_code: 'sv', translation: 'Översättning' }, OPERATOR);
      assert.equal(res.status, 200, `${operation}: ${res.text}`);
      assert.deepEqual(res.json, { message });
    }
    assert.deepEqual(lastRequest('addUnitTranslation'), { unitId: ids.unit['MW'], reportingYear: 2024, languageCode: 'sv', translation: 'Översättning' });
  });

  test('currencies and FX rates: lower-case codes reach the service, which upper-cases them; the quota a number', async () => {
    const added = await call('addCurrency', { currency_code: 'xyz' }, OPERATOR);
    assert.equal(added.status, 200, added.text);
    assert.deepEqual(lastRequest('addCurrency'), { currencyCode: 'xyz' });
    const xyz = rows(await call('getCurrencies')).find((c) => c['currency_code'] === 'XYZ');
    assert.ok(xyz, 'listed upper-cased');
    assert.deepEqual(added.json, { message: `Currency added with id ${xyz['id']}.` });

    const fx = await call(
      'addFXrate',
      { currency_code_numerator: 'xyz', currency_code_denominator: 'eur', currency_code_quota: '11.49', reporting_year: '2024' },
      OPERATOR,
    );
    assert.equal(fx.status, 200, fx.text);
    assert.deepEqual(lastRequest('addFxRate'), {
      currencyCodeNumerator: 'xyz',
      currencyCodeDenominator: 'eur',
      currencyCodeQuota: 11.49,
      reportingYear: 2024,
    });
    const rate = rows(await call('getFXrates', { reporting_year: 2024 })).find((r) => r['numerator_currency_code'] === 'XYZ' && r['denominator_currency_code'] === 'EUR');
    assert.equal(rate?.['fx_rate'], 11.49);
    assert.deepEqual(fx.json, { message: `FX rate added with id ${rate!['fx_conversion_id']}.` });

    assert.deepEqual((await call('removeFXrate', { currency_code_1: 'EUR', currency_code_2: 'xyz', reporting_year: 2024 }, OPERATOR)).json, {
      message: 'FX rate removed.',
    });
    assert.deepEqual(lastRequest('removeFxRate'), { currencyCode1: 'EUR', currencyCode2: 'xyz', reportingYear: 2024 });
    assert.deepEqual((await call('removeCurrency', { currency_code: 'xyz' }, OPERATOR)).json, { message: 'Currency removed.' });
    assert.equal(rows(await call('getCurrencies')).find((c) => c['currency_code'] === 'XYZ'), undefined);
  });

  test('the caller travels to the taxonomy service', async () => {
    await call('getUnits', { reporting_year: 2024 }, OPERATOR);
    const last = t.taxonomy!.calls.at(-1)!;
    assert.equal(last.method, 'getUnits');
    assert.equal(last.caller?.accountId, t.operator.accountId);
    assert.equal(last.caller?.role, 'operator');
    await call('getUnits', { reporting_year: 2024 });
    assert.deepEqual(t.taxonomy!.calls.at(-1)!.caller, t.user);
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
    const headers = jsonHeaders(bare.userKey);
    const res = await postCall(bare.baseUrl, { solution: ESG, operation: 'getCategories', parameters: { reporting_year: 2024 } }, headers);
    assert.equal(res.status, 503);
    assert.deepEqual(res.json, {
      message: 'The taxonomy service is not available: this gateway has no taxonomy backend configured.',
      code: 'UNAVAILABLE',
    });
    const invalid = await postCall(bare.baseUrl, { solution: ESG, operation: 'getCategories', parameters: { reporting_year: 'abc' } }, headers);
    assert.equal(invalid.status, 400);
    assert.deepEqual(invalid.json, { message: 'reporting_year must be an integer.', code: 'INVALID_ARGUMENT' });
    const ready = await fetch(`${bare.baseUrl}/readyz`);
    assert.deepEqual(await ready.json(), { status: 'ready', backends: { identity: 'SERVING' } });
  } finally {
    await bare.stop();
  }
});
