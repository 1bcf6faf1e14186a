import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { skipReason, testDatabases } from '@green-impact/testing/shared/databases';
import type { RunningSystem } from '@green-impact/embedded/system';
import { createUserAccount, graphqlClient, ok, refused, startTestSystem } from './support/system.js';
import { conformingV1Client } from './support/answer-conformance.js';

const ESG = 'SVC.ESG.Credits';
const OPERATOR = 'frameworks-operator-key';
const idOf = (message: string): number => Number(/(\d+)\.$/.exec(message)?.[1]);

/**
 * The scenario with the whole system: an operator loads a small taxonomy; an issuer creates a
 * framework in EUR with its year specifics, builds it from two projects and reads it back in English and
 * Swedish; a second account sees only what is public and may change nothing of it; then each removal.
 * Once through /v1/call (2024) and once through GraphQL (2025), on PGlite and on PostgreSQL.
 */
for (const db of testDatabases) {
  describe(`frameworks and projects end to end through the gateway on ${db.name}`, { skip: await skipReason(db) }, () => {
    let system: RunningSystem;
    let issuerKey: string;
    let otherKey: string;

    before(async () => {
      system = await startTestSystem(db, OPERATOR);
      issuerKey = await createUserAccount(system.gatewayUrl, OPERATOR, 'Nordic Issuer');
      otherKey = await createUserAccount(system.gatewayUrl, OPERATOR, 'Other Issuer');
    });
    after(async () => system?.stop());

    it('through /v1/call: the issuer builds a framework from two projects; another account sees only what is public', async () => {
      const year = 2024;
      const op = conformingV1Client(system.gatewayUrl, OPERATOR);
      const issuer = conformingV1Client(system.gatewayUrl, issuerKey);
      const other = conformingV1Client(system.gatewayUrl, otherKey);

      // ---- the operator's taxonomy: one category, one sub category (SDG 7), two indicators with units ----
      const id = async (operation: string, params: Record<string, unknown>) => {
        const body = await ok(op(ESG, operation, { reporting_year: year, language_code: 'en', ...params }), operation);
        const found = idOf(body.message);
        assert.ok(found > 0, `${operation}: ${body.message}`);
        return found;
      };
      const category = await id('addCategory', { category_name: 'Renewable energy' });
      const solar = await id('addSubCategory', { sub_category_name: 'Solar power', category_id: category });
      await ok(op(ESG, 'addGoalObjectiveToSubCategory', { sub_category_id: solar, reporting_year: year, sdg_id: 7, eu_objective_id: '' }), 'sdg');
      const mwh = await id('addUnit', { unit_name: 'MWh/year' });
      const tco2e = await id('addUnit', { unit_name: 'tCO2e/year' });
      const energy = await id('addSuperIndicator', { super_indicator_name: 'Energy', category_id: category });
      const generation = await id('addIndicator', { indicator_name: 'Renewable energy generated', super_indicator_id: energy, unit_id: mwh });
      const avoided = await id('addIndicator', { indicator_name: 'GHG emissions avoided', super_indicator_id: energy, unit_id: tco2e });
      const sv = (operation: string, params: Record<string, unknown>) =>
        ok(op(ESG, operation, { reporting_year: year, language_code: 'sv', ...params }), operation);
      await sv('addCategoryTranslation', { category_id: category, translation: 'Förnybar energi' });
      await sv('addSubCategoryTranslation', { sub_category_id: solar, translation: 'Solkraft' });
      await sv('addIndicatorTranslation', { indicator_id: generation, translation: 'Producerad förnybar energi' });
      await sv('addUnitTranslation', { unit_id: mwh, translation: 'MWh/år' });

      // ---- the issuer's framework in EUR: 500m outstanding, 450m allocated ----
      const added = await ok(
        issuer(ESG, 'addFramework', { framework_identifier: 'GBF-2024', framework_name: 'Green Bond Framework', framework_currency_code: 'eur', framework_visibility: 'public' }),
        'addFramework',
      );
      const frameworkId = idOf(added.message);
      assert.deepEqual(added, { message: `Framework added with id ${frameworkId}.` });
      const draft = await ok(issuer(ESG, 'addFramework', { framework_identifier: 'PRIV-1', framework_name: 'Draft', framework_currency_code: 'SEK' }), 'draft');
      const specifics = { framework_identifier: 'GBF-2024', value_outstanding: 500_000_000, allocated_amount: '450000000', value_outstanding_framework: 'yes', reporting_year: year };
      assert.deepEqual(await ok(issuer(ESG, 'addYearSpecificsToFramework', specifics), 'specifics'), { message: 'Year specifics for 2024 added to framework.' });
      await refused(issuer(ESG, 'addYearSpecificsToFramework', { ...specifics, value_outstanding: -1 }), 400, 'INVALID_ARGUMENT', 'value_outstanding must be a finite number of at least 0.');
      await refused(issuer(ESG, 'addYearSpecificsToFramework', { ...specifics, value_outstanding: 'Infinity' }), 400, 'INVALID_ARGUMENT', 'value_outstanding must be a number.');
      await refused(issuer(ESG, 'addYearSpecificsToFramework', { ...specifics, value_outstanding_framework: 'sometimes' }), 400, 'INVALID_ARGUMENT', 'value_outstanding_framework must be yes or no.');
      await refused(issuer(ESG, 'addFramework', { framework_identifier: 'X', framework_name: 'X', framework_currency_code: 'EUR', framework_visibility: 'shared' }), 400, 'INVALID_ARGUMENT');
      await refused(issuer(ESG, 'addFramework', { framework_identifier: 'X', framework_name: 'X', framework_currency_code: 'XYZ' }), 404, 'NOT_FOUND', 'No such currency XYZ.');

      const frameworks = await ok(issuer(ESG, 'getFrameworks', { reporting_year: year }), 'getFrameworks');
      assert.deepEqual(frameworks, [
        {
          framework_id: frameworkId,
          framework_identifier: 'GBF-2024',
          framework_name: 'Green Bond Framework',
          framework_value_outstanding: 500_000_000,
          framework_allocated_amount: 450_000_000,
          framework_active_percentage: 90,
          framework_currency_code: 'EUR',
          value_outstanding_framework: 'yes',
          framework_visibility: 'public',
        },
        {
          framework_id: idOf(draft.message),
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

      // ---- two projects; their rows build the framework ----
      const project = (identifier: string, visibility: string) =>
        ok(issuer(ESG, 'addProject', { project_identifer: identifier, project_name: `Project ${identifier}`, project_currency_code: 'EUR', framework_identifier: 'GBF-2024', project_visibility: visibility }), identifier);
      assert.match((await project('P-SOLAR', 'public')).message, /^Project added with id \d+\.$/);
      await project('P-ROOF', 'private');
      await ok(issuer(ESG, 'addYearSpecificsToProject', { project_identifer: 'P-SOLAR', allocated_amount: 300_000_000, reporting_year: year }), 'project specifics');
      const row = (identifier: string, indicator: number, volume: number, value: number) =>
        ok(issuer(ESG, 'addCategoryIndicatorToProject', { project_identifier: identifier, sub_category_id: solar, sub_category_volume: volume, indicator_id: indicator, indicator_value: value, reporting_year: year }), `${identifier} row`);
      assert.deepEqual(await row('P-SOLAR', generation, 300_000_000, 45_000), { message: `Indicator ${generation} of sub category ${solar} added to project.` });
      await row('P-SOLAR', avoided, 300_000_000, 12_000);
      await row('P-ROOF', generation, 100_000_000, 5_000.5);
      await row('P-ROOF', avoided, 100_000_000, 3_000);
      assert.deepEqual(await ok(issuer(ESG, 'buildFrameworkFromProjects', { framework_identifier: 'GBF-2024', reporting_year: year }), 'build'), {
        message: 'Framework built from 2 projects: 2 rows.',
      });

      // ---- details in English and Swedish ----
      const [en] = await ok(issuer(ESG, 'getFrameworkDetails', { framework_identifier: 'GBF-2024', reporting_year: year }), 'details en');
      assert.deepEqual({ ...en, framework: undefined }, { ...frameworks[0], framework: undefined });
      assert.deepEqual(en.framework, [
        {
          category_id: category,
          category_name: 'Renewable energy',
          sub_category_id: solar,
          sub_category_name: 'Solar power',
          sub_category_volume: 400_000_000,
          framework_currency_code: 'EUR',
          super_indicator_id: energy,
          super_indicator_name: 'Energy',
          indicator_id: generation,
          indicator_name: 'Renewable energy generated',
          indicator_value: 50_000.5,
          unit_id: mwh,
          unit_name: 'MWh/year',
          year,
          sdg: { '7': 'Affordable and Clean Energy' },
          eu_objective: {},
          language: 'English',
        },
        {
          category_id: category,
          category_name: 'Renewable energy',
          sub_category_id: solar,
          sub_category_name: 'Solar power',
          sub_category_volume: 400_000_000,
          framework_currency_code: 'EUR',
          super_indicator_id: energy,
          super_indicator_name: 'Energy',
          indicator_id: avoided,
          indicator_name: 'GHG emissions avoided',
          indicator_value: 15_000,
          unit_id: tco2e,
          unit_name: 'tCO2e/year',
          year,
          sdg: { '7': 'Affordable and Clean Energy' },
          eu_objective: {},
          language: 'English',
        },
      ]);
      const [svDetail] = await ok(issuer(ESG, 'getFrameworkDetails', { framework_identifier: 'GBF-2024', reporting_year: year, language_code: 'sv' }), 'details sv');
      const names = (r: any) => [r.category_name, r.sub_category_name, r.indicator_name, r.unit_name, r.sdg['7'], r.language];
      assert.deepEqual(names(svDetail.framework[0]), ['Förnybar energi', 'Solkraft', 'Producerad förnybar energi', 'MWh/år', 'Hållbar energi för alla', 'Swedish']);
      // No Swedish name for the second indicator and its unit: they keep their original names.
      assert.deepEqual(names(svDetail.framework[1]), ['Förnybar energi', 'Solkraft', 'GHG emissions avoided', 'tCO2e/year', 'Hållbar energi för alla', 'English']);

      const projects = await ok(issuer(ESG, 'getProjects', { reporting_year: year }), 'getProjects');
      assert.deepEqual(projects.map((p: any) => [p.project_identifier, p.project_allocated_amount, p.project_visibility, p.framework_identifier, p.framework_name]), [
        ['P-ROOF', null, 'private', 'GBF-2024', 'Green Bond Framework'],
        ['P-SOLAR', 300_000_000, 'public', 'GBF-2024', 'Green Bond Framework'],
      ]);
      const [solarDetail] = await ok(issuer(ESG, 'getProjectDetails', { project_identifer: 'P-SOLAR', reporting_year: year, language_code: 'sv' }), 'project details');
      assert.deepEqual(Object.keys(solarDetail), [
        'project_id', 'project_identifier', 'project_name', 'project_allocated_amount', 'project_currency_code', 'framework_identifier',
        'framework_name', 'project_visibility', 'project',
      ]);
      assert.deepEqual(solarDetail.project.map((r: any) => [r.indicator_id, r.sub_category_volume, r.indicator_value, r.project_currency_code, r.sub_category_name]), [
        [generation, 300_000_000, 45_000, 'EUR', 'Solkraft'],
        [avoided, 300_000_000, 12_000, 'EUR', 'Solkraft'],
      ]);

      // ---- a second account: only what is public, and nothing of it to change ----
      assert.deepEqual((await ok(other(ESG, 'getFrameworks', { reporting_year: year }), 'other frameworks')).map((f: any) => f.framework_identifier), ['GBF-2024']);
      assert.deepEqual((await ok(other(ESG, 'getProjects', { reporting_year: year }), 'other projects')).map((p: any) => p.project_identifier), ['P-SOLAR']);
      const [seen] = await ok(other(ESG, 'getFrameworkDetails', { framework_identifier: 'GBF-2024', reporting_year: year }), 'other details');
      assert.deepEqual(seen.framework, en.framework);
      await refused(other(ESG, 'getFrameworkDetails', { framework_identifier: 'PRIV-1', reporting_year: year }), 404, 'NOT_FOUND', 'No such framework "PRIV-1".');
      await refused(other(ESG, 'getProjectDetails', { project_identifier: 'P-ROOF', reporting_year: year }), 404, 'NOT_FOUND', 'No such project "P-ROOF".');
      for (const [operation, params] of [
        ['addYearSpecificsToFramework', { ...specifics, value_outstanding: 1 }],
        ['addCategoryIndicatorToFramework', { framework_identifier: 'GBF-2024', sub_category_id: solar, sub_category_volume: 1, indicator_id: generation, indicator_value: 1, reporting_year: year }],
        ['removeIndicatorFromFramework', { framework_identifier: 'GBF-2024', sub_category_id: solar, indicator_id: generation, reporting_year: year }],
        ['removeCategoryFromFramework', { framework_identifier: 'GBF-2024', sub_category_id: solar, reporting_year: year }],
        ['removeFrameworkYearSpecifics', { framework_identifier: 'GBF-2024', reporting_year: year }],
        ['buildFrameworkFromProjects', { framework_identifier: 'GBF-2024', reporting_year: year }],
        ['removeFramework', { framework_identifier: 'GBF-2024' }],
        ['addYearSpecificsToProject', { project_identifier: 'P-SOLAR', allocated_amount: 1, reporting_year: year }],
        ['removeYearSpecificsFromProject', { project_identifer: 'P-SOLAR', reporting_year: year }],
        ['removeProject', { project_identifier: 'P-SOLAR' }],
      ] as const) {
        await refused(other(ESG, operation, params), 403, 'PERMISSION_DENIED', 'Not authorized.');
      }
      await refused(other(ESG, 'removeFramework', { framework_identifier: 'PRIV-1' }), 404, 'NOT_FOUND', 'No such framework "PRIV-1".');
      assert.deepEqual((await ok(issuer(ESG, 'getFrameworks', { reporting_year: year }), 'unchanged'))[0], frameworks[0]);

      // ---- each removal ----
      await refused(issuer(ESG, 'removeFramework', { framework_identifier: 'GBF-2024' }), 400, 'FAILED_PRECONDITION', /P-ROOF.*P-SOLAR/);
      for (const [operation, params, message] of [
        ['removeIndicatorFromProject', { project_identifer: 'P-ROOF', indicator_id: avoided, sub_category_id: solar, reporting_year: year }, `Indicator ${avoided} of sub category ${solar} removed from project.`],
        ['removeCategoryFromProject', { project_identifier: 'P-ROOF', sub_category_id: solar, reporting_year: year }, `Sub category ${solar} removed from project (1 row).`],
        ['removeYearSpecificsFromProject', { project_identifer: 'P-SOLAR', reporting_year: year }, 'Year specifics for 2024 removed from project.'],
        ['removeProject', { project_identifier: 'P-ROOF' }, 'Project removed.'],
        ['removeProject', { project_identifer: 'P-SOLAR' }, 'Project removed.'],
        ['removeIndicatorFromFramework', { framework_identifier: 'GBF-2024', indicator_id: avoided, sub_category_id: solar, reporting_year: year }, `Indicator ${avoided} of sub category ${solar} removed from framework.`],
        ['removeCategoryFromFramework', { framework_identifier: 'GBF-2024', sub_category_id: solar, reporting_year: year }, `Sub category ${solar} removed from framework (1 row).`],
        ['removeFrameworkYearSpecifics', { framework_identifier: 'GBF-2024', reporting_year: year }, 'Year specifics for 2024 removed from framework.'],
        ['removeFramework', { framework_identifier: 'GBF-2024' }, 'Framework removed.'],
        ['removeFramework', { framework_identifier: 'PRIV-1' }, 'Framework removed.'],
      ] as const) {
        assert.deepEqual(await ok(issuer(ESG, operation, params), operation), { message });
      }
      assert.deepEqual(await ok(issuer(ESG, 'getFrameworks', { reporting_year: year }), 'none left'), []);
      assert.deepEqual(await ok(issuer(ESG, 'getProjects', { reporting_year: year }), 'none left'), []);
      // With no framework rows left, the taxonomy under them may go.
      await ok(op(ESG, 'removeIndicator', { indicator_id: avoided, reporting_year: year }), 'removeIndicator');
    });

    it('through GraphQL: the same story, nested and translated', async () => {
      const year = 2025;
      const must = (key: string) => async (query: string, variables?: Record<string, unknown>): Promise<any> => {
        const res = await graphqlClient(system.gatewayUrl, key)(query, variables);
        assert.equal(res.errors, undefined, JSON.stringify(res.errors));
        return res.data;
      };
      const op = must(OPERATOR);
      const issuer = must(issuerKey);
      const otherGql = graphqlClient(system.gatewayUrl, otherKey);

      // ---- the operator's taxonomy of 2025 ----
      const { c } = await op(`mutation { c: addCategory(input: {name: "Clean transport", year: ${year}, languageCode: "en"}) { id } }`);
      const { s } = await op(`mutation($c: ID!) { s: addSubCategory(input: {name: "Rail", categoryId: $c, year: ${year}, languageCode: "en"}) { id } }`, { c: c.id });
      const { u, si } = await op(
        `mutation($c: ID!, $s: ID!) {
          g: addGoalObjectiveToSubCategory(input: {subCategoryId: $s, year: ${year}, sdgId: 7}) { message }
          u: addUnit(input: {name: "tCO2e/year", year: ${year}}) { id }
          si: addSuperIndicator(input: {name: "Emissions", categoryId: $c, year: ${year}}) { id }
          t: addSubCategoryTranslation(input: {id: $s, year: ${year}, languageCode: "sv", translation: "Järnväg"}) { message }
        }`,
        { c: c.id, s: s.id },
      );
      const { i } = await op(`mutation($si: ID!, $u: ID!) { i: addIndicator(input: {name: "GHG avoided", superIndicatorId: $si, unitId: $u, year: ${year}}) { id } }`, { si: si.id, u: u.id });
      await op(`mutation($i: ID!) { addIndicatorTranslation(input: {id: $i, year: ${year}, languageCode: "sv", translation: "Undvikta utsläpp"}) { message } }`, { i: i.id });

      // ---- the issuer: framework, year specifics, two projects, their rows, the build ----
      const created = await issuer(
        `mutation {
          f: addFramework(input: {identifier: "GBF-2025", name: "Rail Framework", currencyCode: "EUR", visibility: PUBLIC}) { message id }
          d: addFramework(input: {identifier: "DRAFT", name: "Draft", currencyCode: "EUR"}) { id }
          y: addYearSpecificsToFramework(input: {identifier: "GBF-2025", year: ${year}, valueOutstanding: 500000000, allocatedAmount: 450000000, valueOutstandingFramework: true}) { message }
          a: addProject(input: {identifier: "P-NORTH", name: "North line", currencyCode: "EUR", frameworkIdentifier: "GBF-2025", visibility: PUBLIC}) { id }
          b: addProject(input: {identifier: "P-SOUTH", name: "South line", currencyCode: "EUR", frameworkIdentifier: "GBF-2025"}) { id }
          pa: addYearSpecificsToProject(input: {identifier: "P-NORTH", year: ${year}, allocatedAmount: 200000000}) { message }
        }`,
      );
      assert.equal(created.f.message, `Framework added with id ${created.f.id}.`);
      const rows = await issuer(
        `mutation($s: ID!, $i: ID!) {
          n: addCategoryIndicatorToProject(input: {identifier: "P-NORTH", year: ${year}, subCategoryId: $s, volume: 250000000, indicatorId: $i, value: 1200}) { message id }
          m: addCategoryIndicatorToProject(input: {identifier: "P-SOUTH", year: ${year}, subCategoryId: $s, volume: 150000000, indicatorId: $i, value: 800.25}) { message }
          b: buildFrameworkFromProjects(identifier: "GBF-2025", year: ${year}) { message id }
        }`,
        { s: s.id, i: i.id },
      );
      assert.deepEqual(rows.b, { message: 'Framework built from 2 projects: 1 row.', id: created.f.id });
      const invalid = await graphqlClient(system.gatewayUrl, issuerKey)(
        `mutation { addYearSpecificsToProject(input: {identifier: "P-NORTH", year: ${year}, allocatedAmount: -5}) { message } }`,
      );
      assert.deepEqual([invalid.errors?.[0]?.message, invalid.errors?.[0]?.extensions?.code], ['input.allocatedAmount must be a finite number of at least 0.', 'BAD_USER_INPUT']);

      // ---- read back, nested, in English and Swedish ----
      const read = await issuer(`{
        framework(identifier: "GBF-2025", year: ${year}) {
          id identifier name currencyCode visibility owned year
          yearSpecifics { valueOutstanding allocatedAmount activePercentage valueOutstandingFramework }
          en: rows { subCategory { id name category { name } } indicator { id name } unit { name } volume currencyCode value year sdgs { goalNo name } language }
          sv: rows(languageCode: "sv") { subCategory { name } indicator { name } sdgs { name } language languageCode }
          projects { identifier allocatedAmount visibility framework { identifier } rows { volume value } }
        }
      }`);
      assert.deepEqual(read.framework, {
        id: String(created.f.id),
        identifier: 'GBF-2025',
        name: 'Rail Framework',
        currencyCode: 'EUR',
        visibility: 'PUBLIC',
        owned: true,
        year,
        yearSpecifics: { valueOutstanding: '500000000', allocatedAmount: '450000000', activePercentage: '90', valueOutstandingFramework: true },
        en: [{
          subCategory: { id: s.id, name: 'Rail', category: { name: 'Clean transport' } },
          indicator: { id: i.id, name: 'GHG avoided' },
          unit: { name: 'tCO2e/year' },
          volume: '400000000',
          currencyCode: 'EUR',
          value: '2000.25',
          year,
          sdgs: [{ goalNo: '7', name: 'Affordable and Clean Energy' }],
          language: 'English',
        }],
        sv: [{ subCategory: { name: 'Järnväg' }, indicator: { name: 'Undvikta utsläpp' }, sdgs: [{ name: 'Hållbar energi för alla' }], language: 'Swedish', languageCode: 'sv' }],
        projects: [
          { identifier: 'P-NORTH', allocatedAmount: '200000000', visibility: 'PUBLIC', framework: { identifier: 'GBF-2025' }, rows: [{ volume: '250000000', value: '1200' }] },
          { identifier: 'P-SOUTH', allocatedAmount: null, visibility: 'PRIVATE', framework: { identifier: 'GBF-2025' }, rows: [{ volume: '150000000', value: '800.25' }] },
        ],
      });
      const listed = await issuer(`{ frameworks(year: ${year}, visibility: PRIVATE) { nodes { identifier yearSpecifics { valueOutstanding } } } project(identifier: "P-SOUTH", year: ${year}) { name framework { name } } }`);
      assert.deepEqual(listed, { frameworks: { nodes: [{ identifier: 'DRAFT', yearSpecifics: null }] }, project: { name: 'South line', framework: { name: 'Rail Framework' } } });

      // ---- the second account ----
      const seen = await otherGql(`{
        frameworks(year: ${year}) { nodes { identifier owned projects { identifier owned } rows { value } } }
        projects(year: ${year}) { nodes { identifier } }
        draft: framework(identifier: "DRAFT", year: ${year}) { id }
      }`);
      assert.equal(seen.errors, undefined, JSON.stringify(seen.errors));
      assert.deepEqual(seen.data, {
        frameworks: { nodes: [{ identifier: 'GBF-2025', owned: false, projects: [{ identifier: 'P-NORTH', owned: false }], rows: [{ value: '2000.25' }] }] },
        projects: { nodes: [{ identifier: 'P-NORTH' }] },
        draft: null,
      });
      for (const mutation of [
        'removeFramework(identifier: "GBF-2025")',
        `buildFrameworkFromProjects(identifier: "GBF-2025", year: ${year})`,
        `addYearSpecificsToFramework(input: {identifier: "GBF-2025", year: ${year}, valueOutstanding: 1, allocatedAmount: 1, valueOutstandingFramework: false})`,
        'removeProject(identifier: "P-NORTH")',
      ]) {
        const denied = await otherGql(`mutation { ${mutation} { message } }`);
        assert.deepEqual([denied.errors?.[0]?.message, denied.errors?.[0]?.extensions?.code], ['Not authorized.', 'FORBIDDEN'], mutation);
      }
      const hidden = await otherGql('mutation { removeFramework(identifier: "DRAFT") { message } }');
      assert.equal(hidden.errors?.[0]?.extensions?.code, 'NOT_FOUND');

      // ---- each removal ----
      const removed = await issuer(
        `mutation($s: ID!, $i: ID!) {
          a: removeIndicatorFromProject(input: {identifier: "P-SOUTH", year: ${year}, subCategoryId: $s, indicatorId: $i}) { message }
          b: removeCategoryFromProject(input: {identifier: "P-NORTH", year: ${year}, subCategoryId: $s}) { message }
          c: removeYearSpecificsFromProject(identifier: "P-NORTH", year: ${year}) { message }
          d: removeProject(identifier: "P-NORTH") { message }
          e: removeProject(identifier: "P-SOUTH") { message }
          f: removeIndicatorFromFramework(input: {identifier: "GBF-2025", year: ${year}, subCategoryId: $s, indicatorId: $i}) { message }
          g: removeFrameworkYearSpecifics(identifier: "GBF-2025", year: ${year}) { message }
          h: removeFramework(identifier: "GBF-2025") { message }
          i: removeFramework(identifier: "DRAFT") { message }
        }`,
        { s: s.id, i: i.id },
      );
      assert.deepEqual(Object.values(removed).map((r: any) => r.message), [
        `Indicator ${i.id} of sub category ${s.id} removed from project.`,
        `Sub category ${s.id} removed from project (1 row).`,
        'Year specifics for 2025 removed from project.',
        'Project removed.',
        'Project removed.',
        `Indicator ${i.id} of sub category ${s.id} removed from framework.`,
        'Year specifics for 2025 removed from framework.',
        'Framework removed.',
        'Framework removed.',
      ]);
      assert.deepEqual(await issuer(`{ frameworks(year: ${year}) { nodes { id } } projects(year: ${year}) { nodes { id } } }`), { frameworks: { nodes: [] }, projects: { nodes: [] } });
    });
  });
}
