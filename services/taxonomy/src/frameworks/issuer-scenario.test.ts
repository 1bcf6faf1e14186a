import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { DocumentFormat, Visibility } from '@green-impact/proto/greenimpact/common/v1/common';
import { skipReason, testDatabases } from '@green-impact/testing/shared/databases';
import { rejectsWith, startTaxonomyHarness, type TaxonomyHarness } from '@green-impact/testing/taxonomy/harness';
import { ISSUER_B, loadIcma, near, Y, type IcmaIds } from '@green-impact/testing/taxonomy/icma-fixture';

const SEK_PER_EUR = 11.4325; // the ICMA example's rate of 2024
const PUBLIC = Visibility.VISIBILITY_PUBLIC;

/**
 * The issuer's story of the issue, over real gRPC: a framework in EUR with its 2024 specifics, two
 * projects (one in SEK) built into it, details in English and Swedish, a second account that sees only
 * what is public and may change nothing of it, the refusals that protect used data, and each removal.
 */
for (const db of testDatabases) {
  describe(`issuer scenario over gRPC on ${db.name}`, { skip: await skipReason(db) }, () => {
    let h: TaxonomyHarness;
    let t: IcmaIds;
    let frameworkId = 0;
    const a = () => ({ caller: h.user });
    const b = { caller: ISSUER_B };
    const count = async (sql: string, params: unknown[]) => Number((await h.service.dataSource.query(sql, params))[0].n);

    before(async () => {
      h = await startTaxonomyHarness(db);
      t = await loadIcma(h);
    });
    after(async () => {
      await h?.stop();
    });

    it('adds a public framework in EUR, updates it, and adds a private one', async () => {
      const added = await h.client.addFramework(
        { frameworkIdentifier: 'GBF-2024', frameworkName: 'Green Bond Framework', frameworkCurrencyCode: 'eur', frameworkVisibility: PUBLIC },
        a(),
      );
      frameworkId = added.id!;
      assert.equal(added.message, `Framework added with id ${frameworkId}.`);
      const updated = await h.client.addFramework(
        { frameworkIdentifier: 'GBF-2024', frameworkName: 'Nordic Green Bond Framework', frameworkCurrencyCode: 'EUR' },
        a(),
      );
      assert.deepEqual(updated, { message: 'Framework updated.', id: frameworkId });
      await h.client.addFramework({ frameworkIdentifier: 'PRIV-1', frameworkName: 'Internal draft', frameworkCurrencyCode: 'SEK' }, a());
      await rejectsWith(
        h.client.addFramework({ frameworkIdentifier: 'X', frameworkName: 'X', frameworkCurrencyCode: 'ABC' }, a()),
        'NOT_FOUND',
        'No such currency ABC.',
      );
    });

    it('adds year specifics: 500m outstanding, 450m allocated, 90 % active', async () => {
      const specifics = { frameworkIdentifier: 'GBF-2024', valueOutstanding: 500e6, allocatedAmount: 450e6, valueOutstandingFramework: true, reportingYear: Y };
      const added = await h.client.addYearSpecificsToFramework(specifics, a());
      assert.deepEqual(added, { message: 'Year specifics for 2024 added to framework.', id: frameworkId });
      const again = await h.client.addYearSpecificsToFramework(specifics, a());
      assert.equal(again.message, 'Year specifics for 2024 of framework updated.');

      const { frameworks } = await h.client.getFrameworks({ reportingYear: Y }, a());
      assert.deepEqual(frameworks.map((f) => f.frameworkIdentifier), ['GBF-2024', 'PRIV-1']);
      assert.deepEqual(frameworks[0], {
        frameworkId,
        frameworkIdentifier: 'GBF-2024',
        frameworkName: 'Nordic Green Bond Framework',
        frameworkValueOutstanding: 500e6,
        frameworkAllocatedAmount: 450e6,
        frameworkActivePercentage: 90,
        frameworkCurrencyCode: 'EUR',
        valueOutstandingFramework: true,
        frameworkVisibility: PUBLIC,
        reportingYear: Y,
        owned: true,
        // The EU GBS report fields (issue 37) were not given.
        issuerLei: undefined,
        externalReviewer: undefined,
        approvingAuthority: undefined,
        reportingPeriodStart: undefined,
        reportingPeriodEnd: undefined,
        unallocatedProceedsPlacement: undefined,
      });
      // Without specifics for the year, a framework is listed without its year fields.
      assert.equal(frameworks[1]!.frameworkValueOutstanding, undefined);
      assert.equal(frameworks[1]!.frameworkVisibility, Visibility.VISIBILITY_PRIVATE);
      const [in2023] = (await h.client.getFrameworks({ reportingYear: 2023 }, a())).frameworks;
      assert.deepEqual([in2023!.frameworkActivePercentage, in2023!.valueOutstandingFramework, in2023!.reportingYear], [undefined, undefined, 2023]);
      const ys = await h.client.getFrameworkYearSpecifics({ frameworkIdentifier: 'GBF-2024', reportingYear: Y }, a());
      assert.deepEqual([ys.valueOutstanding, ys.allocatedAmount, ys.valueOutstandingFramework, ys.frameworkCurrencyCode], [500e6, 450e6, true, 'EUR']);
    });

    it('builds the framework from two projects, converting SEK volumes with the 2024 rate', async () => {
      const solar = await h.client.addProject(
        { projectIdentifier: 'P-SOLAR', projectName: 'Solar parks', projectCurrencyCode: 'EUR', frameworkIdentifier: 'GBF-2024', projectVisibility: PUBLIC },
        a(),
      );
      assert.equal(solar.message, `Project added with id ${solar.id}.`);
      const wind = await h.client.addProject({ projectIdentifier: 'P-WIND', projectName: 'Wind farms', projectCurrencyCode: 'SEK', frameworkIdentifier: 'GBF-2024' }, a());
      assert.equal(
        (await h.client.addYearSpecificsToProject({ projectIdentifier: 'P-SOLAR', allocatedAmount: 300e6, reportingYear: Y }, a())).message,
        'Year specifics for 2024 added to project.',
      );
      const row = (projectIdentifier: string, subCategoryId: number, subCategoryVolume: number, indicatorId: number, indicatorValue: number) =>
        h.client.addCategoryIndicatorToProject({ projectIdentifier, subCategoryId, subCategoryVolume, indicatorId, indicatorValue, reportingYear: Y }, a());
      assert.equal((await row('P-SOLAR', t.solar, 300e6, t.ghg, 12_000)).message, `Indicator ${t.ghg} of sub category ${t.solar} added to project.`);
      await row('P-SOLAR', t.solar, 300e6, t.generation, 45_000);
      await row('P-WIND', t.solar, 100e6 * SEK_PER_EUR, t.ghg, 3_000);
      await row('P-WIND', t.wind, 50e6 * SEK_PER_EUR, t.ghg, 8_000);
      assert.equal((await row('P-WIND', t.wind, 50e6 * SEK_PER_EUR, t.generation, 20_000)).id, wind.id);

      const built = await h.client.buildFrameworkFromProjects({ frameworkIdentifier: 'GBF-2024', reportingYear: Y }, a());
      assert.deepEqual(built, { message: 'Framework built from 2 projects: 4 rows.', id: frameworkId, projectCount: 2, rowCount: 4, proRataProjectCount: 0 });

      const [detail] = (await h.client.getFrameworkDetails({ frameworkIdentifier: 'GBF-2024', reportingYear: Y }, a())).frameworks;
      const figures = detail!.framework.map((r) => [r.subCategoryId, r.indicatorId, r.indicatorValue]);
      assert.deepEqual(figures, [[t.solar, t.ghg, 15_000], [t.solar, t.generation, 45_000], [t.wind, t.ghg, 8_000], [t.wind, t.generation, 20_000]]);
      for (const [i, volume] of [400e6, 400e6, 50e6, 50e6].entries()) near(detail!.framework[i]!.subCategoryVolume, volume, `volume of row ${i}`);
      assert.ok(detail!.framework.every((r) => r.frameworkCurrencyCode === 'EUR' && r.year === Y));
      assert.equal(detail!.frameworkSummary!.frameworkActivePercentage, 90);
    });

    it('reads the details back in English and in Swedish, name by name with fallback', async () => {
      // An amendment after the build: a hydropower row (neither name has a Swedish translation).
      const hydro = { frameworkIdentifier: 'GBF-2024', subCategoryId: t.hydro, subCategoryVolume: 10e6, indicatorId: t.capacity, indicatorValue: 25, reportingYear: Y };
      assert.equal((await h.client.addCategoryIndicatorToFramework(hydro, a())).message, `Indicator ${t.capacity} of sub category ${t.hydro} added to framework.`);
      assert.equal((await h.client.addCategoryIndicatorToFramework({ ...hydro, indicatorValue: 30 }, a())).message, `Indicator ${t.capacity} of sub category ${t.hydro} updated in framework.`);

      const en = (await h.client.getFrameworkDetails({ frameworkIdentifier: 'GBF-2024', reportingYear: Y }, a())).frameworks[0]!;
      const solarGhg = en.framework[0]!;
      assert.deepEqual(
        [solarGhg.categoryName, solarGhg.subCategoryName, solarGhg.superIndicatorName, solarGhg.indicatorName, solarGhg.unitName, solarGhg.language, solarGhg.languageCode],
        ['Renewable energy', 'Solar power', 'GHG emissions', 'Annual GHG emissions reduced/avoided', 'tCO2e/year', 'English', 'en'],
      );
      assert.deepEqual(solarGhg.sdg, { '7': 'Affordable and Clean Energy', '13': 'Climate Action' });
      assert.deepEqual(solarGhg.euObjective, { '1': 'Climate change mitigation' });
      assert.equal(en.framework.length, 5);

      const sv = (await h.client.getFrameworkDetails({ frameworkIdentifier: 'GBF-2024', reportingYear: Y, languageCode: 'sv' }, a())).frameworks[0]!;
      const [svSolarGhg, svSolarGeneration] = sv.framework;
      assert.deepEqual(
        [svSolarGhg!.categoryName, svSolarGhg!.subCategoryName, svSolarGhg!.indicatorName, svSolarGhg!.unitName, svSolarGhg!.language, svSolarGhg!.sdg['7']],
        ['Förnybar energi', 'Solkraft', 'Årliga minskade/undvikta växthusgasutsläpp', 'ton CO2e/år', 'Swedish', 'Hållbar energi för alla'],
      );
      assert.equal(svSolarGeneration!.indicatorName, 'Årlig produktion av förnybar energi');
      const svHydro = sv.framework.find((r) => r.subCategoryId === t.hydro)!;
      assert.deepEqual(
        [svHydro.categoryName, svHydro.subCategoryName, svHydro.indicatorName, svHydro.indicatorValue, svHydro.language, svHydro.languageCode],
        ['Förnybar energi', 'Hydropower', 'Capacity of renewable energy plant(s) constructed or rehabilitated', 30, 'English', 'en'],
      );
      await rejectsWith(h.client.getFrameworkDetails({ frameworkIdentifier: 'GBF-2024', reportingYear: Y, languageCode: 'xx' }, a()), 'INVALID_ARGUMENT', 'Unknown language code xx.');
    });

    it('shows a second account only what is public, and lets it change nothing of it', async () => {
      const { frameworks } = await h.client.getFrameworks({ reportingYear: Y }, b);
      assert.deepEqual(frameworks.map((f) => [f.frameworkIdentifier, f.owned]), [['GBF-2024', false]]);
      assert.equal((await h.client.getFrameworkDetails({ frameworkIdentifier: 'GBF-2024', reportingYear: Y }, b)).frameworks[0]!.framework.length, 5);
      assert.deepEqual((await h.client.getProjects({ reportingYear: Y }, b)).projects.map((p) => [p.projectIdentifier, p.frameworkIdentifier]), [['P-SOLAR', 'GBF-2024']]);
      await rejectsWith(h.client.getFrameworkDetails({ frameworkIdentifier: 'PRIV-1', reportingYear: Y }, b), 'NOT_FOUND', 'No such framework "PRIV-1".');
      await rejectsWith(h.client.getProjectDetails({ projectIdentifier: 'P-WIND', reportingYear: Y }, b), 'NOT_FOUND', 'No such project "P-WIND".');

      const fw = { frameworkIdentifier: 'GBF-2024', reportingYear: Y };
      const pr = { projectIdentifier: 'P-SOLAR', reportingYear: Y };
      const denied = [
        () => h.client.addYearSpecificsToFramework({ ...fw, valueOutstanding: 1, allocatedAmount: 1, valueOutstandingFramework: false }, b),
        () => h.client.addCategoryIndicatorToFramework({ ...fw, subCategoryId: t.solar, subCategoryVolume: 1, indicatorId: t.ghg, indicatorValue: 1 }, b),
        () => h.client.removeIndicatorFromFramework({ ...fw, subCategoryId: t.solar, indicatorId: t.ghg }, b),
        () => h.client.removeCategoryFromFramework({ ...fw, subCategoryId: t.solar }, b),
        () => h.client.removeFrameworkYearSpecifics(fw, b),
        () => h.client.removeFramework({ frameworkIdentifier: 'GBF-2024' }, b),
        () => h.client.buildFrameworkFromProjects(fw, b),
        () => h.client.addYearSpecificsToProject({ ...pr, allocatedAmount: 1 }, b),
        () => h.client.addCategoryIndicatorToProject({ ...pr, subCategoryId: t.solar, subCategoryVolume: 1, indicatorId: t.ghg, indicatorValue: 1 }, b),
        () => h.client.removeIndicatorFromProject({ ...pr, subCategoryId: t.solar, indicatorId: t.ghg }, b),
        () => h.client.removeCategoryFromProject({ ...pr, subCategoryId: t.solar }, b),
        () => h.client.removeYearSpecificsFromProject(pr, b),
        () => h.client.removeProject({ projectIdentifier: 'P-SOLAR' }, b),
      ];
      // One at a time: each refusal is awaited as it is made.
      for (const call of denied) await rejectsWith(call(), 'PERMISSION_DENIED', 'Not authorized.');
      // Another account's private items are not revealed, not even by a refusal.
      await rejectsWith(h.client.removeFramework({ frameworkIdentifier: 'PRIV-1' }, b), 'NOT_FOUND', 'No such framework "PRIV-1".');
      await rejectsWith(h.client.removeProject({ projectIdentifier: 'P-WIND' }, b), 'NOT_FOUND', 'No such project "P-WIND".');
      assert.equal((await h.client.getFrameworkDetails(fw, a())).frameworks[0]!.framework.length, 5);
    });

    it('lets the second account have its own identifiers, and resolves each caller to its own first', async () => {
      const own = await h.client.addFramework({ frameworkIdentifier: 'GBF-2024', frameworkName: 'B framework', frameworkCurrencyCode: 'USD' }, b);
      assert.notEqual(own.id, frameworkId);
      const mine = (await h.client.getFrameworkDetails({ frameworkIdentifier: 'GBF-2024', reportingYear: Y }, b)).frameworks[0]!;
      assert.deepEqual([mine.frameworkSummary!.frameworkId, mine.frameworkSummary!.owned, mine.framework.length], [own.id, true, 0]);
      assert.deepEqual((await h.client.getFrameworks({ reportingYear: Y }, b)).frameworks.map((f) => [f.frameworkId, f.owned]), [[own.id, true], [frameworkId, false]]);
      assert.equal((await h.client.getFrameworkDetails({ frameworkIdentifier: 'GBF-2024', reportingYear: Y }, a())).frameworks[0]!.frameworkSummary!.frameworkId, frameworkId);
      await rejectsWith(
        h.client.addProject({ projectIdentifier: 'B-1', projectName: 'B', projectCurrencyCode: 'EUR', frameworkIdentifier: 'PRIV-1' }, b),
        'NOT_FOUND',
        'No such framework "PRIV-1".',
      );
      assert.equal((await h.client.removeFramework({ frameworkIdentifier: 'GBF-2024' }, b)).message, 'Framework removed.');
      // Now GBF-2024 means A's public framework to B: B's project may refer to it, but A's build ignores it.
      await h.client.addProject({ projectIdentifier: 'B-1', projectName: 'B project', projectCurrencyCode: 'EUR', frameworkIdentifier: 'GBF-2024', projectVisibility: PUBLIC }, b);
      await h.client.addCategoryIndicatorToProject({ projectIdentifier: 'B-1', subCategoryId: t.solar, subCategoryVolume: 1e9, indicatorId: t.ghg, indicatorValue: 1e6, reportingYear: Y }, b);
      const [bProject] = (await h.client.getProjects({ reportingYear: Y }, b)).projects.filter((p) => p.owned);
      assert.deepEqual([bProject!.projectIdentifier, bProject!.frameworkIdentifier, bProject!.frameworkName], ['B-1', 'GBF-2024', 'Nordic Green Bond Framework']);
      const rebuilt = await h.client.buildFrameworkFromProjects({ frameworkIdentifier: 'GBF-2024', reportingYear: Y }, a());
      assert.equal(rebuilt.message, 'Framework built from 2 projects: 4 rows.');
      // The build replaced the year's rows, the hydropower amendment included; add it again.
      const fw = { frameworkIdentifier: 'GBF-2024', reportingYear: Y };
      const rows = (await h.client.getFrameworkDetails(fw, a())).frameworks[0]!.framework;
      assert.deepEqual(rows.map((r) => r.indicatorValue), [15_000, 45_000, 8_000, 20_000]);
      await h.client.addCategoryIndicatorToFramework({ ...fw, subCategoryId: t.hydro, subCategoryVolume: 10e6, indicatorId: t.capacity, indicatorValue: 30 }, a());
    });

    it('renders the framework document for a reader, JSON and HTML, the same bytes each time', async () => {
      const req = { frameworkIdentifier: 'GBF-2024', reportingYear: Y, format: DocumentFormat.DOCUMENT_FORMAT_JSON, languageCode: 'sv', decimals: 2, sdgGoalsIncluded: true, euObjectivesIncluded: false };
      const json = await h.client.renderFrameworkDocument(req, b);
      assert.equal(json.contentType, 'application/json');
      assert.equal(json.sha256, createHash('sha256').update(json.content).digest('hex'));
      assert.deepEqual([json.frameworkId, json.frameworkIdentifier], [frameworkId, 'GBF-2024']);
      const doc = JSON.parse(Buffer.from(json.content).toString('utf8'));
      assert.deepEqual(
        [doc.framework_identifier, doc.framework_value_outstanding, doc.framework_active_percentage, doc.value_outstanding_framework, doc.language_code, doc.framework.length],
        ['GBF-2024', 500e6, 90, 'yes', 'sv', 5],
      );
      assert.equal(doc.framework[0].sub_category_name, 'Solkraft');
      assert.equal(doc.framework[0].sub_category_volume, 400e6);
      assert.deepEqual(doc.framework[0].sdg, { '7': 'Hållbar energi för alla', '13': 'Bekämpa klimatförändringarna' });
      assert.equal(doc.framework[0].eu_objective, undefined);
      assert.equal((await h.client.renderFrameworkDocument(req, a())).sha256, json.sha256);

      const html = await h.client.renderFrameworkDocument({ ...req, format: DocumentFormat.DOCUMENT_FORMAT_HTML, languageCode: undefined, euObjectivesIncluded: true }, b);
      const page = Buffer.from(html.content).toString('utf8');
      assert.equal(html.contentType, 'text/html; charset=utf-8');
      assert.ok(page.startsWith('<!DOCTYPE html>\n<html lang="en">'));
      assert.ok(page.includes('<td>Solar power</td>') && page.includes('<th scope="col">EU objectives</th>'));
      await rejectsWith(h.client.renderFrameworkDocument({ ...req, format: DocumentFormat.DOCUMENT_FORMAT_UNSPECIFIED }, b), 'INVALID_ARGUMENT', 'format must be JSON or HTML.');
      await rejectsWith(h.client.renderFrameworkDocument({ ...req, decimals: 11 }, b), 'INVALID_ARGUMENT', 'decimals must be an integer from 0 to 10, got 11.');
      await rejectsWith(h.client.renderFrameworkDocument({ ...req, frameworkIdentifier: 'PRIV-1' }, b), 'NOT_FOUND');
    });

    it('refuses to remove currencies and taxonomy items that frameworks and projects use', async () => {
      const op = { caller: h.operator };
      await rejectsWith(h.client.removeCurrency({ currencyCode: 'SEK' }, op), 'FAILED_PRECONDITION',
        'Currency SEK is still used by FX rates of 2024, 1 framework and 1 project; remove those first.');
      await rejectsWith(h.client.removeSubCategory({ subCategoryId: t.solar, reportingYear: Y }, op), 'FAILED_PRECONDITION',
        `Sub category ${t.solar} is still used by the rows of 1 framework and 3 projects; remove those rows first.`);
      await rejectsWith(h.client.removeIndicator({ indicatorId: t.capacity, reportingYear: Y }, op), 'FAILED_PRECONDITION',
        `Indicator ${t.capacity} is still used by the rows of 1 framework; remove those rows first.`);
      // An unused item still goes.
      await h.client.removeSubCategory({ subCategoryId: t.smartGrids, reportingYear: Y }, op);
    });

    it('removes rows, sub categories, year specifics, projects and finally the framework', async () => {
      const fw = { frameworkIdentifier: 'GBF-2024', reportingYear: Y };
      const removed = await h.client.removeIndicatorFromFramework({ ...fw, subCategoryId: t.solar, indicatorId: t.generation }, a());
      assert.deepEqual(removed, { message: `Indicator ${t.generation} of sub category ${t.solar} removed from framework.`, id: frameworkId });
      await rejectsWith(h.client.removeIndicatorFromFramework({ ...fw, subCategoryId: t.solar, indicatorId: t.generation }, a()), 'NOT_FOUND',
        `Framework "GBF-2024" has no row for sub category ${t.solar} and indicator ${t.generation} in 2024.`);
      assert.equal((await h.client.removeCategoryFromFramework({ ...fw, subCategoryId: t.wind }, a())).message, `Sub category ${t.wind} removed from framework (2 rows).`);
      await rejectsWith(h.client.removeCategoryFromFramework({ ...fw, subCategoryId: t.wind }, a()), 'NOT_FOUND', `Framework "GBF-2024" has no rows of sub category ${t.wind} in 2024.`);
      assert.deepEqual((await h.client.getFrameworkDetails(fw, a())).frameworks[0]!.framework.map((r) => [r.subCategoryId, r.indicatorId]), [[t.solar, t.ghg], [t.hydro, t.capacity]]);

      assert.equal((await h.client.removeFrameworkYearSpecifics(fw, a())).message, 'Year specifics for 2024 removed from framework.');
      await rejectsWith(h.client.removeFrameworkYearSpecifics(fw, a()), 'NOT_FOUND', 'Framework "GBF-2024" has no year specifics for 2024.');
      const [summary] = (await h.client.getFrameworks({ reportingYear: Y }, a())).frameworks;
      assert.deepEqual([summary!.frameworkIdentifier, summary!.frameworkValueOutstanding, summary!.frameworkActivePercentage], ['GBF-2024', undefined, undefined]);
      await rejectsWith(h.client.getFrameworkYearSpecifics(fw, a()), 'FAILED_PRECONDITION', 'Framework "GBF-2024" has no year specifics for 2024.');
      assert.equal((await h.client.getFrameworkDetails(fw, a())).frameworks[0]!.framework.length, 2); // the rows stay

      const pr = { projectIdentifier: 'P-WIND', reportingYear: Y };
      assert.equal((await h.client.removeIndicatorFromProject({ ...pr, subCategoryId: t.wind, indicatorId: t.ghg }, a())).message,
        `Indicator ${t.ghg} of sub category ${t.wind} removed from project.`);
      assert.equal((await h.client.removeCategoryFromProject({ ...pr, subCategoryId: t.solar }, a())).message, `Sub category ${t.solar} removed from project (1 row).`);
      assert.equal((await h.client.removeYearSpecificsFromProject({ projectIdentifier: 'P-SOLAR', reportingYear: Y }, a())).message,
        'Year specifics for 2024 removed from project.');
      assert.equal((await h.client.getProjects({ reportingYear: Y }, a())).projects.find((p) => p.projectIdentifier === 'P-SOLAR')!.projectAllocatedAmount, undefined);

      await rejectsWith(h.client.removeFramework({ frameworkIdentifier: 'GBF-2024' }, a()), 'FAILED_PRECONDITION',
        'Framework "GBF-2024" is still used by projects "P-SOLAR", "P-WIND" and 1 project of another account; remove those first.');
      for (const p of ['P-SOLAR', 'P-WIND']) assert.equal((await h.client.removeProject({ projectIdentifier: p }, a())).message, 'Project removed.');
      await h.client.removeProject({ projectIdentifier: 'B-1' }, b);
      assert.deepEqual(await h.client.removeFramework({ frameworkIdentifier: 'GBF-2024' }, a()), { message: 'Framework removed.', id: frameworkId });
      await rejectsWith(h.client.removeFramework({ frameworkIdentifier: 'GBF-2024' }, a()), 'NOT_FOUND', 'No such framework "GBF-2024".');

      for (const table of ['framework_rows', 'framework_year_specifics', 'project_rows', 'project_year_specifics', 'projects']) {
        assert.equal(await count(`SELECT count(*) AS n FROM taxonomy.${table}`, []), 0, table);
      }
      assert.deepEqual((await h.client.getFrameworks({ reportingYear: Y }, a())).frameworks.map((f) => f.frameworkIdentifier), ['PRIV-1']);
      // Nothing uses SEK's projects any more; the private framework still does.
      await rejectsWith(h.client.removeCurrency({ currencyCode: 'SEK' }, { caller: h.operator }), 'FAILED_PRECONDITION',
        'Currency SEK is still used by FX rates of 2024 and 1 framework; remove those first.');
    });
  });
}
