import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { rejectsWith } from '@green-impact/testing/shared/assertions';
import { skipReason, testDatabases } from '@green-impact/testing/shared/databases';
import { loadIcma, Y, type IcmaIds } from '@green-impact/testing/taxonomy/icma-fixture';
import { startTaxonomyHarness, type TaxonomyHarness } from '@green-impact/testing/taxonomy/harness';

/** Negative impacts (issue 37): values below 0 only in a unit an operator marked signed; the database holds the rule too. */
for (const db of testDatabases) {
  describe(`signed units over gRPC on ${db.name}`, { skip: await skipReason(db) }, () => {
    let h: TaxonomyHarness;
    let t: IcmaIds;
    let ghgUnit: number;
    let generationUnit: number;
    let ghgName: string;
    let ghgSuper: number;
    const a = () => ({ caller: h.user });
    const op = () => ({ caller: h.operator });
    const row = (indicatorValue: number, more = {}) =>
      h.client.addCategoryIndicatorToProject({ projectIdentifier: 'P', subCategoryId: t.solar, subCategoryVolume: 10, indicatorId: t.ghg, indicatorValue, reportingYear: Y, ...more }, a());
    const sign = (unitId: number, unitSigned: boolean, caller = h.operator) => h.client.setUnitSigned({ unitId, reportingYear: Y, unitSigned }, { caller });

    before(async () => {
      h = await startTaxonomyHarness(db);
      t = await loadIcma(h);
      const { rows } = await h.client.getTaxonomy({ reportingYear: Y }, op());
      const ghg = rows.find((r) => r.indicatorId === t.ghg)!;
      [ghgUnit, ghgName, ghgSuper] = [ghg.unitId, ghg.indicatorName, ghg.superIndicatorId];
      generationUnit = rows.find((r) => r.indicatorId === t.generation)!.unitId;
      assert.notEqual(ghgUnit, generationUnit);
      await h.client.addFramework({ frameworkIdentifier: 'GBF', frameworkName: 'Green bonds', frameworkCurrencyCode: 'EUR' }, a());
      await h.client.addProject({ projectIdentifier: 'P', projectName: 'Solar', projectCurrencyCode: 'EUR', frameworkIdentifier: 'GBF' }, a());
    });
    after(async () => {
      await h?.stop();
    });

    it('refuses a negative value in an unsigned unit, in the service and in the database', async () => {
      await rejectsWith(row(-50), 'INVALID_ARGUMENT', 'indicator_value must be a finite number of at least 0.');
      await rejectsWith(row(5, { baselineValue: -1 }), 'INVALID_ARGUMENT', 'baseline_value must be a finite number of at least 0.');
      await row(5);
      await assert.rejects(
        h.service.dataSource.query(`UPDATE taxonomy.project_rows SET indicator_value = -1 WHERE indicator_id = $1`, [t.ghg]),
        /negative value in an unsigned unit/,
      );
    });

    it('takes negative values once an operator marks the unit signed, and keeps them from an un-signing or a unit change', async () => {
      await rejectsWith(sign(ghgUnit, true, h.user), 'PERMISSION_DENIED');
      assert.equal((await sign(ghgUnit, true)).message, `Unit ${ghgUnit} is signed: its values may be negative.`);
      await row(-50, { baselineValue: -20 });
      const stored = (await h.client.getProjectDetails({ projectIdentifier: 'P', reportingYear: Y }, a())).projects[0]!.project[0]!;
      assert.deepEqual([stored.indicatorValue, stored.baselineValue], [-50, -20]);

      await rejectsWith(sign(ghgUnit, false), 'FAILED_PRECONDITION', `Unit ${ghgUnit} holds negative values in 1 row; make them 0 or more before marking it unsigned.`);
      await rejectsWith(
        h.client.addIndicator({ indicatorName: ghgName, superIndicatorId: ghgSuper, unitIdChanged: generationUnit, reportingYear: Y }, op()),
        'FAILED_PRECONDITION',
        `Indicator ${t.ghg} has negative values in 1 row; unit ${generationUnit} is not signed (setUnitSigned).`,
      );

      // A build sums signed values as they are.
      await h.client.addYearSpecificsToFramework({ frameworkIdentifier: 'GBF', valueOutstanding: 10, allocatedAmount: 10, valueOutstandingFramework: false, reportingYear: Y }, a());
      await h.client.buildFrameworkFromProjects({ frameworkIdentifier: 'GBF', reportingYear: Y }, a());
      const built = (await h.client.getFrameworkDetails({ frameworkIdentifier: 'GBF', reportingYear: Y }, a())).frameworks[0]!.framework;
      assert.deepEqual(built.map((r) => r.indicatorValue), [-50]);

      await row(0, { baselineValue: 0 });
      await h.client.removeIndicatorFromFramework({ frameworkIdentifier: 'GBF', subCategoryId: t.solar, indicatorId: t.ghg, reportingYear: Y }, a());
      assert.equal((await sign(ghgUnit, false)).message, `Unit ${ghgUnit} is unsigned: its values are 0 or more.`);
      await rejectsWith(row(-1), 'INVALID_ARGUMENT', 'indicator_value must be a finite number of at least 0.');
    });
  });
}
