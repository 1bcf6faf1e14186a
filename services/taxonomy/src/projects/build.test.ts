import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Visibility } from '@green-impact/proto/greenimpact/common/v1/common';
import { skipReason, testDatabases } from '@green-impact/testing/shared/databases';
import { ISSUER_B, loadIcma, near, Y, type IcmaIds } from '@green-impact/testing/taxonomy/icma-fixture';
import { rejectsWith, startTaxonomyHarness, type TaxonomyHarness } from '@green-impact/testing/taxonomy/harness';

/** buildFrameworkFromProjects: each precondition fails clearly, and a build replaces only its year's rows. */
for (const db of testDatabases) {
  describe(`buildFrameworkFromProjects over gRPC on ${db.name}`, { skip: await skipReason(db) }, () => {
    let h: TaxonomyHarness;
    let t: IcmaIds;
    const a = () => ({ caller: h.user });
    const op = () => ({ caller: h.operator });
    const build = (frameworkIdentifier = 'FW-A', caller = h.user) => h.client.buildFrameworkFromProjects({ frameworkIdentifier, reportingYear: Y }, { caller });
    const projectRow = (projectIdentifier: string, subCategoryId: number, subCategoryVolume: number, indicatorId: number, indicatorValue: number, caller = h.user) =>
      h.client.addCategoryIndicatorToProject({ projectIdentifier, subCategoryId, subCategoryVolume, indicatorId, indicatorValue, reportingYear: Y }, { caller });
    const frameworkRows = async (reportingYear = Y) =>
      (await h.client.getFrameworkDetails({ frameworkIdentifier: 'FW-A', reportingYear }, a())).frameworks[0]!.framework.map((r) => [
        r.subCategoryId,
        r.indicatorId,
        r.subCategoryVolume,
        r.indicatorValue,
      ]);

    before(async () => {
      h = await startTaxonomyHarness(db);
      t = await loadIcma(h);
    });
    after(async () => {
      await h?.stop();
    });

    it('needs a framework the caller owns', async () => {
      await rejectsWith(build('NOPE'), 'NOT_FOUND', 'No such framework "NOPE".');
      await h.client.addFramework(
        { frameworkIdentifier: 'FW-A', frameworkName: 'Framework A', frameworkCurrencyCode: 'EUR', frameworkVisibility: Visibility.VISIBILITY_PUBLIC },
        a(),
      );
      await rejectsWith(build('FW-A', ISSUER_B), 'PERMISSION_DENIED', 'Not authorized.');
    });

    it('needs the year specifics of the year', async () => {
      await rejectsWith(build(), 'FAILED_PRECONDITION',
        'Framework "FW-A" has no year specifics for 2024; add them with addYearSpecificsToFramework before building.');
      await h.client.addYearSpecificsToFramework(
        { frameworkIdentifier: 'FW-A', valueOutstanding: 1000, allocatedAmount: 800, valueOutstandingFramework: false, reportingYear: Y },
        a(),
      );
    });

    it("needs a project of the framework's owner referring to it", async () => {
      await rejectsWith(build(), 'FAILED_PRECONDITION', 'No project of yours refers to framework "FW-A"; add projects with addProject before building.');
      // Another account's project referring to the public framework never counts.
      await h.client.addProject({ projectIdentifier: 'B-1', projectName: 'B', projectCurrencyCode: 'EUR', frameworkIdentifier: 'FW-A' }, { caller: ISSUER_B });
      await projectRow('B-1', t.solar, 1e9, t.ghg, 1e9, ISSUER_B);
      await rejectsWith(build(), 'FAILED_PRECONDITION', 'No project of yours refers to framework "FW-A"; add projects with addProject before building.');
    });

    it('needs project rows for the year', async () => {
      await h.client.addProject({ projectIdentifier: 'P-EUR', projectName: 'Euro project', projectCurrencyCode: 'EUR', frameworkIdentifier: 'FW-A' }, a());
      await h.client.addProject({ projectIdentifier: 'P-EMPTY', projectName: 'Nothing yet', projectCurrencyCode: 'EUR', frameworkIdentifier: 'FW-A' }, a());
      await rejectsWith(build(), 'FAILED_PRECONDITION',
        'The projects of framework "FW-A" have no rows for 2024; add them with addCategoryIndicatorToProject before building.');
    });

    it('needs an FX rate for a project in another currency, and then writes nothing', async () => {
      await h.client.addCategoryIndicatorToFramework(
        { frameworkIdentifier: 'FW-A', subCategoryId: t.solar, subCategoryVolume: 5, indicatorId: t.ghg, indicatorValue: 5, reportingYear: Y },
        a(),
      );
      await h.client.addProject({ projectIdentifier: 'P-NOK', projectName: 'Norwegian project', projectCurrencyCode: 'NOK', frameworkIdentifier: 'FW-A' }, a());
      await projectRow('P-EUR', t.solar, 100, t.ghg, 10);
      await projectRow('P-NOK', t.solar, 1150, t.ghg, 5);
      await projectRow('P-NOK', t.wind, 2300, t.generation, 7);
      await rejectsWith(build(), 'FAILED_PRECONDITION',
        'No FX rate between NOK and EUR for 2024: project "P-NOK" is in NOK, the framework in EUR; add the rate with addFXrate before building.');
      assert.deepEqual(await frameworkRows(), [[t.solar, t.ghg, 5, 5]]);
    });

    it('sums the projects per (sub category, indicator), converted, and replaces the rows of the year only', async () => {
      // A framework row of 2023 (a taxonomy of its own) must survive a build of 2024.
      const y23 = { reportingYear: 2023 };
      const category = (await h.client.addCategory({ categoryName: 'Renewable energy', languageCode: 'en', ...y23 }, op())).id!;
      const sub = (await h.client.addSubCategory({ subCategoryName: 'Solar power', categoryId: category, languageCode: 'en', ...y23 }, op())).id!;
      const unit = (await h.client.addUnit({ unitName: 'MWh/year', ...y23 }, op())).id!;
      const si = (await h.client.addSuperIndicator({ superIndicatorName: 'Energy', categoryId: category, ...y23 }, op())).id!;
      const ind = (await h.client.addIndicator({ indicatorName: 'Generation', superIndicatorId: si, unitId: unit, ...y23 }, op())).id!;
      await h.client.addCategoryIndicatorToFramework({ frameworkIdentifier: 'FW-A', subCategoryId: sub, subCategoryVolume: 9, indicatorId: ind, indicatorValue: 9, ...y23 }, a());
      await rejectsWith(
        h.client.addCategoryIndicatorToFramework({ frameworkIdentifier: 'FW-A', subCategoryId: t.solar, subCategoryVolume: 1, indicatorId: ind, indicatorValue: 1, ...y23 }, a()),
        'NOT_FOUND',
        `No such sub category ${t.solar} in 2023.`,
      );

      await h.client.addFxRate({ currencyCodeNumerator: 'NOK', currencyCodeDenominator: 'EUR', currencyCodeQuota: 11.5, reportingYear: Y }, op());
      const built = await build();
      assert.deepEqual(built, { message: 'Framework built from 2 projects: 2 rows.', id: built.id, projectCount: 2, rowCount: 2, proRataProjectCount: 0 });
      const rows = await frameworkRows();
      assert.deepEqual(rows.map((r) => [r[0], r[1], r[3]]), [[t.solar, t.ghg, 15], [t.wind, t.generation, 7]]);
      near(rows[0]![2], 200, 'solar volume (100 EUR + 1150 NOK)');
      near(rows[1]![2], 200, 'wind volume (2300 NOK)');
      assert.deepEqual(await frameworkRows(2023), [[sub, ind, 9, 9]]);
    });

    it("keeps one volume per sub category: a project's rows share it, and a build counts it once per project", async () => {
      const added = await projectRow('P-EUR', t.solar, 150, t.generation, 1);
      assert.equal(added.message, `Indicator ${t.generation} of sub category ${t.solar} added to project.`);
      const detail = (await h.client.getProjectDetails({ projectIdentifier: 'P-EUR', reportingYear: Y }, a())).projects[0]!;
      assert.deepEqual(detail.project.map((r) => [r.indicatorId, r.subCategoryVolume, r.projectCurrencyCode]), [[t.ghg, 150, 'EUR'], [t.generation, 150, 'EUR']]);
      assert.equal(detail.projectSummary!.frameworkIdentifier, 'FW-A');

      const built = await build();
      assert.equal(built.message, 'Framework built from 2 projects: 3 rows.');
      const rows = await frameworkRows();
      assert.deepEqual(rows.map((r) => [r[0], r[1], r[3]]), [[t.solar, t.ghg, 15], [t.solar, t.generation, 1], [t.wind, t.generation, 7]]);
      near(rows[0]![2], 250, 'solar volume (150 EUR + 1150 NOK)');
      near(rows[1]![2], 250, 'solar volume in every solar row');
    });
  });
}
