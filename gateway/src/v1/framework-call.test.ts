import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { Visibility } from '@green-impact/proto/greenimpact/common/v1/common';
import { jsonHeaders, startTestGateway, type TestGateway } from '@green-impact/testing/gateway/real-gateway';
import { postCall } from '@green-impact/testing/gateway/v1-calls';

/**
 * /v1/call for frameworks and projects (spec §4.6, §4.7) against the real TaxonomyService with the
 * example taxonomy (year 2024, en + sv): what the gateway refuses itself (types), what the service refuses
 * (bounds, in its texts), the requests the gateway sends, and the spec's response shapes. ISSUER is the
 * USER account t.userKey; OTHER is another USER account.
 */

const ESG = 'SVC.ESG.Credits';
let ISSUER: Record<string, string>;
let OTHER: Record<string, string>;
/** Two sub categories of one category (S1 < S2) and two indicators of one super indicator (I1 < I2), of 2024. */
let S1: number, S2: number, I1: number, I2: number;

let t: TestGateway;
before(async () => {
  t = await startTestGateway({}, { taxonomy: true });
  ISSUER = jsonHeaders(t.userKey);
  OTHER = jsonHeaders((await t.createAccount('Other issuer')).apiKey);
  await t.loadExampleTaxonomy();
  const { rows } = await t.taxonomy!.client.getTaxonomy({ reportingYear: 2024 }, { caller: t.user });
  const group = <K>(key: (r: (typeof rows)[number]) => K, of: (r: (typeof rows)[number]) => number) => {
    const by = new Map<K, Set<number>>();
    for (const r of rows) by.set(key(r), (by.get(key(r)) ?? new Set()).add(of(r)));
    return [...by.values()].map((ids) => [...ids].sort((a, b) => a - b)).find((ids) => ids.length >= 2)!;
  };
  [S1, S2] = group((r) => r.categoryId, (r) => r.subCategoryId);
  [I1, I2] = group((r) => r.superIndicatorId, (r) => r.indicatorId);
});
after(async () => {
  await t.stop();
});

const call = (operation: string, parameters?: Record<string, unknown>, headers: Record<string, string> = ISSUER) =>
  postCall(t.baseUrl, { solution: ESG, operation, ...(parameters ? { parameters } : {}) }, headers);

type Res = Awaited<ReturnType<typeof postCall>>;

async function ok(operation: string, parameters?: Record<string, unknown>, headers: Record<string, string> = ISSUER): Promise<Res> {
  const res = await call(operation, parameters, headers);
  assert.equal(res.status, 200, `${operation}: ${res.text}`);
  return res;
}

function assertError(res: Res, status: number, code: string, message: string) {
  assert.equal(res.status, status, res.text);
  assert.deepEqual(res.json, { message, code });
}

/** The last request the service received for a method, without unset optional fields. */
function lastRequest(method: string): unknown {
  const found = t.taxonomy!.calls.filter((c) => c.method === method).at(-1);
  assert.ok(found, `no ${method} call`);
  return JSON.parse(JSON.stringify(found.request));
}

const FW = { framework_identifier: 'GBF-2024', reporting_year: 2024 };
const specifics = { ...FW, value_outstanding: 500e6, allocated_amount: 450e6, value_outstanding_framework: 'yes' };
const fwRow = () => ({ ...FW, sub_category_id: S1, sub_category_volume: 100, indicator_id: I1, indicator_value: 7 });

describe('validation failures are 400 with message and code: types refused by the gateway, bounds by the service', () => {
  /** `gateway`: refused before any taxonomy call; `service`: the taxonomy service's refusal, in its text. */
  const cases: [string, 'gateway' | 'service', string, () => Record<string, unknown> | undefined, string][] = [
    ['negative amount', 'service', 'addYearSpecificsToFramework', () => ({ ...specifics, value_outstanding: -1 }), 'value_outstanding must be a finite number of at least 0.'],
    ['huge amount', 'service', 'addYearSpecificsToFramework', () => ({ ...specifics, allocated_amount: 1e16 }), 'allocated_amount must be at most 1000000000000000.'],
    ['NaN as text', 'gateway', 'addYearSpecificsToFramework', () => ({ ...specifics, value_outstanding: 'NaN' }), 'value_outstanding must be a number.'],
    ['overflowing number as text', 'gateway', 'addYearSpecificsToProject', () => ({ project_identifier: 'P', allocated_amount: '1e999', reporting_year: 2024 }), 'allocated_amount is out of range.'],
    ['negative volume', 'service', 'addCategoryIndicatorToFramework', () => ({ ...fwRow(), sub_category_volume: -100 }), 'sub_category_volume must be a finite number of at least 0.'],
    ['indicator value as words', 'gateway', 'addCategoryIndicatorToProject', () => ({ project_identifier: 'P', sub_category_id: S1, sub_category_volume: 1, indicator_id: I1, indicator_value: 'lots', reporting_year: 2024 }), 'indicator_value must be a number.'],
    ['bad yes/no', 'gateway', 'addYearSpecificsToFramework', () => ({ ...specifics, value_outstanding_framework: 'maybe' }), 'value_outstanding_framework must be yes or no.'],
    ['yes/no as a boolean', 'gateway', 'addYearSpecificsToFramework', () => ({ ...specifics, value_outstanding_framework: true }), 'value_outstanding_framework must be yes or no.'],
    ['bad framework visibility', 'gateway', 'addFramework', () => ({ framework_identifier: 'F', framework_name: 'F', framework_currency_code: 'EUR', framework_visibility: 'shared' }), 'framework_visibility must be public or private.'],
    ['bad visibility filter', 'gateway', 'getProjects', () => ({ reporting_year: 2024, project_visibility: 'everyone' }), 'project_visibility must be public or private.'],
    ['missing framework identifier', 'gateway', 'getFrameworkDetails', () => ({ reporting_year: 2024 }), 'framework_identifier is required.'],
    ['empty framework identifier', 'gateway', 'removeFramework', () => ({ framework_identifier: '' }), 'framework_identifier is required.'],
    ['missing project identifier', 'gateway', 'removeProject', () => ({}), 'project_identifier is required.'],
    ['identifier with a newline', 'gateway', 'removeProject', () => ({ project_identifier: 'P\n1' }), 'project_identifier must not contain control characters.'],
    ['missing framework of a project', 'gateway', 'addProject', () => ({ project_identifier: 'P', project_name: 'P', project_currency_code: 'EUR' }), 'framework_identifier is required.'],
    ['4-letter currency', 'service', 'addFramework', () => ({ framework_identifier: 'F', framework_name: 'F', framework_currency_code: 'EURO' }), 'framework_currency_code must be a 3-letter currency code, got "EURO".'],
    ['5-digit year', 'service', 'getFrameworks', () => ({ reporting_year: 20245 }), 'reporting_year must be a 4-digit year from 1900 to 2200, got 20245.'],
    ['no parameters', 'gateway', 'buildFrameworkFromProjects', () => undefined, 'framework_identifier is required.'],
    ['zero sub category id', 'service', 'removeCategoryFromProject', () => ({ project_identifer: 'P', sub_category_id: 0, reporting_year: 2024 }), 'sub_category_id must be a positive integer.'],
    ['name too long', 'service', 'addFramework', () => ({ framework_identifier: 'F', framework_name: 'n'.repeat(256), framework_currency_code: 'EUR' }), 'framework_name must be 1 to 255 characters.'],
  ];
  for (const [name, owner, operation, parameters, message] of cases) {
    test(name, async () => {
      const before = t.taxonomy!.count(operation);
      assertError(await call(operation, parameters()), 400, 'INVALID_ARGUMENT', message);
      const after = t.taxonomy!.count(operation);
      if (owner === 'gateway') assert.equal(after, before, 'the gateway refused it itself');
      else assert.equal(after, before + 1, 'the service refused it');
    });
  }

  test('no key: 401 before validation', async () => {
    assertError(await call('getFrameworks', { reporting_year: 1 }, { 'content-type': 'application/json' }), 401, 'UNAUTHENTICATED', 'Please submit client identifier.');
  });
});

/** The ids the service gave (from its answers' texts). */
const ids: Record<string, number> = {};
const idIn = (res: Res) => Number(/with id (\d+)\.$/.exec(res.json['message'] as string)![1]);

describe("an issuer's framework and projects, in the spec's shapes", () => {
  test('addFramework and its year specifics: the requests carry the proto types', async () => {
    const added = await ok('addFramework', { framework_identifier: 'GBF-2024', framework_name: 'Green Bond Framework', framework_currency_code: 'eur', framework_visibility: 'PUBLIC' });
    assert.match(added.json['message'] as string, /^Framework added with id \d+\.$/);
    assert.deepEqual(Object.keys(added.json), ['message'], 'the id stays out of /v1/call');
    ids['GBF-2024'] = idIn(added);
    // The code goes as given: the service owns its form (3 letters, stored upper case; getFrameworks reads EUR).
    assert.deepEqual(lastRequest('addFramework'), {
      frameworkIdentifier: 'GBF-2024',
      frameworkName: 'Green Bond Framework',
      frameworkCurrencyCode: 'eur',
      frameworkVisibility: Visibility.VISIBILITY_PUBLIC,
    });
    ids['PRIV-1'] = idIn(await ok('addFramework', { framework_identifier: 'PRIV-1', framework_name: 'Draft', framework_currency_code: 'SEK' }));
    assert.equal((lastRequest('addFramework') as Record<string, unknown>)['frameworkVisibility'], undefined, 'absent visibility stays absent');

    const y = await ok('addYearSpecificsToFramework', { ...specifics, value_outstanding: '500000000', value_outstanding_framework: 'Yes' });
    assert.deepEqual(y.json, { message: 'Year specifics for 2024 added to framework.' });
    assert.deepEqual(lastRequest('addYearSpecificsToFramework'), {
      frameworkIdentifier: 'GBF-2024',
      valueOutstanding: 500e6,
      allocatedAmount: 450e6,
      valueOutstandingFramework: true,
      reportingYear: 2024,
    });
  });

  test('getFrameworks: summaries with yes/no and public/private; no year specifics → null figures', async () => {
    const res = await ok('getFrameworks', { reporting_year: '2024' });
    assert.deepEqual(res.json, [
      {
        framework_id: ids['GBF-2024'],
        framework_identifier: 'GBF-2024',
        framework_name: 'Green Bond Framework',
        framework_value_outstanding: 500e6,
        framework_allocated_amount: 450e6,
        framework_active_percentage: 90,
        framework_currency_code: 'EUR',
        value_outstanding_framework: 'yes',
        framework_visibility: 'public',
      },
      {
        framework_id: ids['PRIV-1'],
        framework_identifier: 'PRIV-1',
        framework_name: 'Draft',
        framework_value_outstanding: null,
        framework_allocated_amount: null,
        framework_active_percentage: null,
        framework_currency_code: 'SEK',
        value_outstanding_framework: null,
        framework_visibility: 'private',
      },
    ]);
    const filtered = await ok('getFrameworks', { reporting_year: 2024, framework_visibility: 'private' });
    assert.deepEqual((filtered.json as unknown as { framework_identifier: string }[]).map((f) => f.framework_identifier), ['PRIV-1']);
    assert.deepEqual(lastRequest('getFrameworks'), { reportingYear: 2024, frameworkVisibility: Visibility.VISIBILITY_PRIVATE });
  });

  test('rows, projects (with the project_identifer alias) and the build', async () => {
    assert.deepEqual((await ok('addCategoryIndicatorToFramework', fwRow())).json, { message: `Indicator ${I1} of sub category ${S1} added to framework.` });
    const project = (id: string) => ({ project_identifer: id, project_name: `Project ${id}`, project_currency_code: 'EUR', framework_identifier: 'GBF-2024' });
    const solar = await ok('addProject', project('P-SOLAR'));
    assert.match(solar.json['message'] as string, /^Project added with id \d+\.$/);
    ids['P-SOLAR'] = idIn(solar);
    assert.equal((lastRequest('addProject') as Record<string, unknown>)['projectIdentifier'], 'P-SOLAR', 'the alias arrives as project_identifier');
    await ok('addProject', { ...project('P-WIND'), project_visibility: 'public' });
    await ok('addYearSpecificsToProject', { project_identifer: 'P-SOLAR', allocated_amount: 250e6, reporting_year: 2024 });
    const row = (id: string, sub: number, ind: number, volume: number, value: number) =>
      ok('addCategoryIndicatorToProject', { project_identifier: id, sub_category_id: sub, sub_category_volume: volume, indicator_id: ind, indicator_value: value, reporting_year: 2024 });
    await row('P-SOLAR', S1, I1, 200e6, 1000);
    await row('P-SOLAR', S1, I2, 200e6, 50);
    await row('P-WIND', S1, I1, 150e6, 500.5);
    await row('P-WIND', S2, I1, 100e6, 20);

    const built = await ok('buildFrameworkFromProjects', FW);
    assert.deepEqual(built.json, { message: 'Framework built from 2 projects: 3 rows.' });
    assert.deepEqual(lastRequest('buildFrameworkFromProjects'), { frameworkIdentifier: 'GBF-2024', reportingYear: 2024 });
  });

  test('getFrameworkDetails: an array with the one detail, rows in the requested language', async () => {
    const res = await ok('getFrameworkDetails', { ...FW, language_code: 'sv' });
    const details = res.json as unknown as Record<string, unknown>[];
    assert.equal(details.length, 1);
    const [detail] = details;
    assert.deepEqual(Object.keys(detail!), [
      'framework_id', 'framework_identifier', 'framework_name', 'framework_value_outstanding', 'framework_allocated_amount',
      'framework_active_percentage', 'framework_currency_code', 'value_outstanding_framework', 'framework_visibility', 'framework',
    ]);
    const rows = detail!['framework'] as Record<string, unknown>[];
    // The names and goals are the taxonomy's in Swedish, as its own listings read them.
    const [subs, indicators] = await Promise.all([ok('getSubCategories', { reporting_year: 2024, language_code: 'sv' }), ok('getIndicators', { reporting_year: 2024, language_code: 'sv' })]);
    const sub = (subs.json as unknown as Record<string, unknown>[]).find((x) => x['sub_category_id'] === S1)!;
    const indicator = (indicators.json as unknown as Record<string, unknown>[]).find((x) => x['indicator_id'] === I1)!;
    assert.deepEqual(rows[0], {
      category_id: sub['category_id'],
      category_name: sub['category_name'],
      sub_category_id: S1,
      sub_category_name: sub['sub_category_name'],
      sub_category_volume: 350e6,
      framework_currency_code: 'EUR',
      super_indicator_id: indicator['super_indicator_id'],
      super_indicator_name: indicator['super_indicator_name'],
      indicator_id: I1,
      indicator_name: indicator['indicator_name'],
      indicator_value: 1500.5,
      unit_id: indicator['unit_id'],
      unit_name: indicator['unit_name'],
      year: 2024,
      sdg: sub['sdg'],
      eu_objective: sub['eu_objective'],
      language: indicator['language'],
    });
    assert.deepEqual(
      rows.map((r) => [r['sub_category_id'], r['indicator_id'], r['sub_category_volume'], r['indicator_value']]),
      [[S1, I1, 350e6, 1500.5], [S1, I2, 350e6, 50], [S2, I1, 100e6, 20]],
      'values summed per (sub category, indicator), volumes per sub category',
    );
    assert.deepEqual(lastRequest('getFrameworkDetails'), { frameworkIdentifier: 'GBF-2024', reportingYear: 2024, languageCode: 'sv' });
    assertError(await call('getFrameworkDetails', { ...FW, language_code: 'xx' }), 400, 'INVALID_ARGUMENT', 'Unknown language code xx.');
  });

  test('getProjects and getProjectDetails (alias accepted)', async () => {
    const list = await ok('getProjects', { reporting_year: 2024 });
    assert.deepEqual(list.json[0], {
      project_id: ids['P-SOLAR'],
      project_identifier: 'P-SOLAR',
      project_name: 'Project P-SOLAR',
      project_allocated_amount: 250e6,
      project_currency_code: 'EUR',
      framework_identifier: 'GBF-2024',
      framework_name: 'Green Bond Framework',
      project_visibility: 'private',
    });
    assert.equal((list.json[1] as Record<string, unknown>)['project_allocated_amount'], null);
    const details = await ok('getProjectDetails', { project_identifer: 'P-WIND', reporting_year: 2024 });
    const [detail] = details.json as unknown as Record<string, unknown>[];
    assert.equal(detail!['project_identifier'], 'P-WIND');
    const rows = detail!['project'] as Record<string, unknown>[];
    assert.equal(rows.length, 2);
    assert.equal(rows[0]!['project_currency_code'], 'EUR');
    assert.equal('framework_currency_code' in rows[0]!, false);
  });
});

describe('another account sees only what is public and changes nothing of it', () => {
  test('reads: the public framework and project only', async () => {
    const frameworks = await ok('getFrameworks', { reporting_year: 2024 }, OTHER);
    assert.deepEqual((frameworks.json as unknown as { framework_identifier: string }[]).map((f) => f.framework_identifier), ['GBF-2024']);
    const projects = await ok('getProjects', { reporting_year: 2024 }, OTHER);
    assert.deepEqual((projects.json as unknown as { project_identifier: string }[]).map((p) => p.project_identifier), ['P-WIND']);
    assertError(await call('getFrameworkDetails', { framework_identifier: 'PRIV-1', reporting_year: 2024 }, OTHER), 404, 'NOT_FOUND', 'No such framework "PRIV-1".');
  });

  test("changes of the issuer's public items: 403 Not authorized.; of its private ones: 404", async () => {
    for (const [operation, parameters] of [
      ['removeFramework', { framework_identifier: 'GBF-2024' }],
      ['addYearSpecificsToFramework', specifics],
      ['removeFrameworkYearSpecifics', FW],
      ['buildFrameworkFromProjects', FW],
      ['removeProject', { project_identifier: 'P-WIND' }],
      ['removeYearSpecificsFromProject', { project_identifer: 'P-WIND', reporting_year: 2024 }],
    ] as const) {
      assertError(await call(operation, parameters, OTHER), 403, 'PERMISSION_DENIED', 'Not authorized.');
    }
    assertError(await call('removeFramework', { framework_identifier: 'PRIV-1' }, OTHER), 404, 'NOT_FOUND', 'No such framework "PRIV-1".');
  });
});

describe('removals', () => {
  test('each removal answers the service message; a framework in use is refused', async () => {
    const refused = await call('removeFramework', { framework_identifier: 'GBF-2024' });
    assertError(refused, 400, 'FAILED_PRECONDITION', 'Framework "GBF-2024" is still used by projects "P-SOLAR", "P-WIND"; remove those first.');
    const steps: [string, Record<string, unknown>, string][] = [
      ['removeIndicatorFromProject', { project_identifer: 'P-SOLAR', indicator_id: I2, sub_category_id: S1, reporting_year: 2024 }, `Indicator ${I2} of sub category ${S1} removed from project.`],
      ['removeCategoryFromProject', { project_identifier: 'P-WIND', sub_category_id: S2, reporting_year: 2024 }, `Sub category ${S2} removed from project (1 row).`],
      ['removeYearSpecificsFromProject', { project_identifer: 'P-SOLAR', reporting_year: 2024 }, 'Year specifics for 2024 removed from project.'],
      ['removeProject', { project_identifier: 'P-SOLAR' }, 'Project removed.'],
      ['removeProject', { project_identifer: 'P-WIND' }, 'Project removed.'],
      ['removeIndicatorFromFramework', { ...FW, indicator_id: I2, sub_category_id: S1 }, `Indicator ${I2} of sub category ${S1} removed from framework.`],
      ['removeCategoryFromFramework', { ...FW, sub_category_id: S1 }, `Sub category ${S1} removed from framework (1 row).`],
      ['removeFrameworkYearSpecifics', FW, 'Year specifics for 2024 removed from framework.'],
      ['removeFramework', { framework_identifier: 'GBF-2024' }, 'Framework removed.'],
    ];
    for (const [operation, parameters, message] of steps) {
      assert.deepEqual((await ok(operation, parameters)).json, { message }, operation);
    }
    assert.deepEqual(lastRequest('removeYearSpecificsFromProject'), { projectIdentifier: 'P-SOLAR', reportingYear: 2024 });
    assertError(await call('removeFramework', { framework_identifier: 'GBF-2024' }), 404, 'NOT_FOUND', 'No such framework "GBF-2024".');
    const left = await ok('getFrameworks', { reporting_year: 2024 });
    assert.deepEqual((left.json as unknown as { framework_identifier: string }[]).map((f) => f.framework_identifier), ['PRIV-1']);
  });
});
