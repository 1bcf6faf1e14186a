import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { refusedNaming as refused } from '@green-impact/testing/shared/assertions';
import { skipReason, testDatabases } from '@green-impact/testing/shared/databases';
import { loadIcma, Y, type IcmaIds } from '@green-impact/testing/taxonomy/icma-fixture';
import { startTaxonomyHarness, type TaxonomyHarness } from '@green-impact/testing/taxonomy/harness';
import { countryCode, financingShare, financingType, lifetimeYears, totalProjectCost } from './financing.js';

describe('project financing rules', () => {
  it('takes ISO 3166-1 alpha-2 codes in any case and refuses unassigned ones', () => {
    assert.equal(countryCode('c', ' se '), 'SE');
    assert.equal(countryCode('c', ''), undefined);
    for (const bad of ['XX', 'ZZ', 'SWE', 'S', 'UK']) assert.throws(() => countryCode('c', bad), /c must be an ISO 3166-1 alpha-2 country code/);
  });
  it('bounds lifetimes and financing types', () => {
    assert.equal(lifetimeYears('l', 25), 25);
    for (const bad of [0, 201, 2.5]) assert.throws(() => lifetimeYears('l', bad), /l must be a whole number of years from 1 to 200/);
    assert.equal(financingType('f', 'Refinancing'), 'refinancing');
    assert.throws(() => financingType('f', 'loan'), /f must be financing or refinancing, got "loan"\./);
    assert.throws(() => totalProjectCost('t', 0), /t must be a finite number above 0\./);
  });
  it('states the share only when both amounts are known', () => {
    assert.equal(financingShare(40, 100), 0.4);
    assert.equal(financingShare(null, 100), undefined);
    assert.equal(financingShare(40, null), undefined);
  });
});

for (const db of testDatabases) {
  describe(`project financing over gRPC on ${db.name}`, { skip: await skipReason(db) }, () => {
    let h: TaxonomyHarness;
    let t: IcmaIds;
    const a = () => ({ caller: h.user });
    const summary = async (projectIdentifier: string) =>
      (await h.client.getProjectDetails({ projectIdentifier, reportingYear: Y }, a())).projects[0]!.projectSummary!;
    const yearSpecifics = (projectIdentifier: string, more: { totalProjectCost?: number; signedAmount?: number }, allocatedAmount = 10) =>
      h.client.addYearSpecificsToProject({ projectIdentifier, allocatedAmount, reportingYear: Y, ...more }, a());
    const row = (projectIdentifier: string, subCategoryId: number, indicatorId: number, indicatorValue: number) =>
      h.client.addCategoryIndicatorToProject({ projectIdentifier, subCategoryId, subCategoryVolume: 10, indicatorId, indicatorValue, reportingYear: Y }, a());

    before(async () => {
      h = await startTaxonomyHarness(db);
      t = await loadIcma(h);
      await h.client.addFramework({ frameworkIdentifier: 'GBF', frameworkName: 'Green bonds', frameworkCurrencyCode: 'EUR' }, a());
      await h.client.addYearSpecificsToFramework(
        { frameworkIdentifier: 'GBF', valueOutstanding: 100, allocatedAmount: 20, valueOutstandingFramework: false, reportingYear: Y },
        a(),
      );
    });
    after(async () => {
      await h?.stop();
    });

    it("stores a project's country, lifetime and financing type, and keeps them when an update leaves them out", async () => {
      const add = { projectIdentifier: 'P-SOLAR', projectName: 'Solar park', projectCurrencyCode: 'EUR', frameworkIdentifier: 'GBF' };
      await h.client.addProject({ ...add, projectCountryCode: 'se', projectLifetimeYears: 25, projectFinancingType: 'refinancing' }, a());
      await h.client.addProject({ ...add, projectName: 'Solar park II' }, a());
      const s = await summary('P-SOLAR');
      assert.deepEqual([s.projectName, s.projectCountryCode, s.projectLifetimeYears, s.projectFinancingType], ['Solar park II', 'SE', 25, 'refinancing']);
      await refused(h.client.addProject({ ...add, projectCountryCode: 'XK' }, a()), 'project_country_code',
        'project_country_code must be an ISO 3166-1 alpha-2 country code, got "XK".');
      await refused(h.client.addProject({ ...add, projectLifetimeYears: 0 }, a()), 'project_lifetime_years',
        'project_lifetime_years must be a whole number of years from 1 to 200, got 0.');
      await refused(h.client.addProject({ ...add, projectFinancingType: 'grant' }, a()), 'project_financing_type',
        'project_financing_type must be financing or refinancing, got "grant".');
      // A project added before issue 37 (or without them) answers none of them.
      await h.client.addProject({ projectIdentifier: 'P-WIND', projectName: 'Wind farm', projectCurrencyCode: 'EUR', frameworkIdentifier: 'GBF' }, a());
      const w = await summary('P-WIND');
      assert.deepEqual([w.projectCountryCode, w.projectLifetimeYears, w.projectFinancingType, w.financingShare], [undefined, undefined, undefined, undefined]);
    });

    it('keeps the signed amount within the total project cost, given together or one at a time', async () => {
      await refused(yearSpecifics('P-SOLAR', { totalProjectCost: 100, signedAmount: 120 }), 'signed_amount',
        'signed_amount must not exceed total_project_cost (100), got 120.');
      await refused(yearSpecifics('P-SOLAR', { totalProjectCost: 0 }), 'total_project_cost', 'total_project_cost must be a finite number above 0.');
      await refused(yearSpecifics('P-SOLAR', { signedAmount: -1 }), 'signed_amount', 'signed_amount must be a finite number of at least 0.');
      await yearSpecifics('P-SOLAR', { totalProjectCost: 100 });
      await refused(yearSpecifics('P-SOLAR', { signedAmount: 101 }), 'signed_amount', 'signed_amount must not exceed total_project_cost (100), got 101.');
      await yearSpecifics('P-SOLAR', { signedAmount: 40 });
      await refused(yearSpecifics('P-SOLAR', { totalProjectCost: 39 }), 'total_project_cost', 'total_project_cost must be at least signed_amount (40), got 39.');
      // The spec's call alone (allocated amount only) keeps both.
      await yearSpecifics('P-SOLAR', {}, 12);
      const s = await summary('P-SOLAR');
      assert.deepEqual([s.projectAllocatedAmount, s.totalProjectCost, s.signedAmount, s.financingShare], [12, 100, 40, 0.4]);
    });

    it("counts the issuer's pro-rata share of a project whose share is known, and the full values of one whose share is not", async () => {
      // P-SOLAR: signed 40 of a total cost of 100, so share 0.4. P-WIND: no share known (the spec's plain sum).
      await row('P-SOLAR', t.solar, t.ghg, 1000);
      await row('P-SOLAR', t.solar, t.generation, 500);
      await row('P-WIND', t.wind, t.ghg, 250);
      await row('P-WIND', t.wind, t.generation, 80);
      const built = await h.client.buildFrameworkFromProjects({ frameworkIdentifier: 'GBF', reportingYear: Y }, a());
      assert.deepEqual(built, { message: 'Framework built from 2 projects: 4 rows.', id: built.id, projectCount: 2, rowCount: 4, proRataProjectCount: 1 });
      const rows = (await h.client.getFrameworkDetails({ frameworkIdentifier: 'GBF', reportingYear: Y }, a())).frameworks[0]!.framework;
      const value = (sub: number, ind: number) => rows.find((r) => r.subCategoryId === sub && r.indicatorId === ind)?.indicatorValue;
      assert.equal(value(t.solar, t.ghg), 400, '0.4 × 1000');
      assert.equal(value(t.solar, t.generation), 200, '0.4 × 500');
      assert.equal(value(t.wind, t.ghg), 250, 'full value, share unknown');
      assert.equal(value(t.wind, t.generation), 80, 'full value, share unknown');
      assert.ok(rows.every((r) => r.subCategoryVolume === 10), 'volumes are never scaled');
    });
  });
}
