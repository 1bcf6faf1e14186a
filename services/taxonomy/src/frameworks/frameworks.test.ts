import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Visibility } from '@green-impact/proto/greenimpact/common/v1/common';
import { skipReason, testDatabases } from '@green-impact/testing/shared/databases';
import { rejectsWith, startTaxonomyHarness, type TaxonomyHarness } from '@green-impact/testing/taxonomy/harness';
import { ISSUER_B, loadIcma, Y, type IcmaIds } from '@green-impact/testing/taxonomy/icma-fixture';

const { VISIBILITY_PUBLIC: PUBLIC, VISIBILITY_PRIVATE: PRIVATE } = Visibility;

/** Framework and project reads, visibility filters, the service-internal selectors, and input validation. */
for (const db of testDatabases) {
  describe(`frameworks and projects over gRPC on ${db.name}`, { skip: await skipReason(db) }, () => {
    let h: TaxonomyHarness;
    let t: IcmaIds;
    const a = () => ({ caller: h.user });
    const b = { caller: ISSUER_B };
    const ids: Record<string, number> = {};

    before(async () => {
      h = await startTaxonomyHarness(db);
      t = await loadIcma(h);
      const add = async (caller: typeof b, frameworkIdentifier: string, frameworkVisibility?: Visibility) =>
        (await h.client.addFramework({ frameworkIdentifier, frameworkName: `${frameworkIdentifier} name`, frameworkCurrencyCode: 'EUR', frameworkVisibility }, caller)).id!;
      ids['A-PUB'] = await add(a(), 'A-PUB', PUBLIC);
      ids['A-PRIV'] = await add(a(), 'A-PRIV');
      ids['B-PUB'] = await add(b, 'B-PUB', PUBLIC);
      ids['B-PRIV'] = await add(b, 'B-PRIV', PRIVATE);
      await h.client.addYearSpecificsToFramework(
        { frameworkIdentifier: 'B-PRIV', valueOutstanding: 0, allocatedAmount: 10, valueOutstandingFramework: false, reportingYear: Y },
        b,
      );
    });
    after(async () => {
      await h?.stop();
    });

    it('lists own frameworks of either visibility and public ones of others, filtered on request', async () => {
      const list = async (frameworkVisibility?: Visibility) =>
        (await h.client.getFrameworks({ reportingYear: Y, frameworkVisibility }, a())).frameworks.map((f) => f.frameworkIdentifier);
      assert.deepEqual(await list(), ['A-PRIV', 'A-PUB', 'B-PUB']);
      assert.deepEqual(await list(Visibility.VISIBILITY_UNSPECIFIED), ['A-PRIV', 'A-PUB', 'B-PUB']);
      assert.deepEqual(await list(PUBLIC), ['A-PUB', 'B-PUB']);
      assert.deepEqual(await list(PRIVATE), ['A-PRIV']);
      // A visibility change through addFramework; absent leaves it as it is.
      await h.client.addFramework({ frameworkIdentifier: 'A-PRIV', frameworkName: 'A-PRIV name', frameworkCurrencyCode: 'EUR', frameworkVisibility: PUBLIC }, a());
      assert.deepEqual((await h.client.getFrameworks({ reportingYear: Y }, b)).frameworks.map((f) => f.frameworkIdentifier), ['A-PRIV', 'A-PUB', 'B-PRIV', 'B-PUB']);
      await h.client.addFramework({ frameworkIdentifier: 'A-PRIV', frameworkName: 'A-PRIV name', frameworkCurrencyCode: 'EUR', frameworkVisibility: PRIVATE }, a());
      await h.client.addFramework({ frameworkIdentifier: 'A-PRIV', frameworkName: 'A-PRIV renamed', frameworkCurrencyCode: 'EUR' }, a());
      assert.deepEqual((await h.client.getFrameworks({ reportingYear: Y }, b)).frameworks.map((f) => f.frameworkIdentifier), ['A-PUB', 'B-PRIV', 'B-PUB']);
      // Active percentage is 0 when nothing is outstanding.
      const bPriv = (await h.client.getFrameworks({ reportingYear: Y }, b)).frameworks.find((f) => f.frameworkIdentifier === 'B-PRIV')!;
      assert.deepEqual([bPriv.frameworkValueOutstanding, bPriv.frameworkAllocatedAmount, bPriv.frameworkActivePercentage, bPriv.valueOutstandingFramework], [0, 10, 0, false]);
    });

    it('reads by identifiers (own, else public) and, internally, by id whatever the visibility', async () => {
      const { frameworks } = await h.client.getFrameworksByIdentifiers(
        { frameworkIdentifiers: ['B-PUB', 'A-PUB', 'B-PRIV', 'NOPE', 'A-PUB'], frameworkIds: [ids['B-PRIV']!, ids['A-PUB']!, 999_999] },
        a(),
      );
      assert.deepEqual(frameworks.map((f) => [f.frameworkIdentifier, f.owned]), [['B-PUB', false], ['A-PUB', true], ['B-PRIV', false]]);
      assert.ok(frameworks.every((f) => f.reportingYear === 0 && f.frameworkValueOutstanding === undefined));
      const withYear = await h.client.getFrameworksByIdentifiers({ frameworkIdentifiers: [], frameworkIds: [ids['B-PRIV']!], reportingYear: Y }, a());
      assert.deepEqual([withYear.frameworks[0]!.reportingYear, withYear.frameworks[0]!.frameworkAllocatedAmount], [Y, 10]);

      const ys = await h.client.getFrameworkYearSpecifics({ frameworkIdentifier: '', frameworkId: ids['B-PRIV']!, reportingYear: Y }, a());
      assert.deepEqual([ys.frameworkIdentifier, ys.valueOutstanding, ys.allocatedAmount, ys.valueOutstandingFramework], ['B-PRIV', 0, 10, false]);
      await rejectsWith(h.client.getFrameworkYearSpecifics({ frameworkIdentifier: 'B-PRIV', reportingYear: Y }, a()), 'NOT_FOUND', 'No such framework "B-PRIV".');
      await rejectsWith(h.client.getFrameworkYearSpecifics({ frameworkIdentifier: 'A-PUB', reportingYear: Y }, a()), 'FAILED_PRECONDITION',
        'Framework "A-PUB" has no year specifics for 2024.');
      const detail = await h.client.getFrameworkDetails({ frameworkIdentifier: '', frameworkId: ids['B-PRIV']!, reportingYear: Y }, a());
      assert.equal(detail.frameworks[0]!.frameworkSummary!.frameworkIdentifier, 'B-PRIV');
      await rejectsWith(h.client.getFrameworkDetails({ frameworkIdentifier: '', frameworkId: 999_999, reportingYear: Y }, a()), 'NOT_FOUND', 'No such framework with id 999999.');
    });

    it('lists projects like frameworks, with their framework and the allocated amount of the year', async () => {
      await h.client.addProject({ projectIdentifier: 'P-A', projectName: 'A project', projectCurrencyCode: 'SEK', frameworkIdentifier: 'A-PUB' }, a());
      await h.client.addProject({ projectIdentifier: 'P-B', projectName: 'B project', projectCurrencyCode: 'EUR', frameworkIdentifier: 'A-PUB', projectVisibility: PUBLIC }, b);
      await h.client.addYearSpecificsToProject({ projectIdentifier: 'P-A', allocatedAmount: 1234.5, reportingYear: Y }, a());
      const { projects } = await h.client.getProjects({ reportingYear: Y }, a());
      // A project's financing and taxonomy layer (issue 37) were not given: each of their fields is absent.
      const noFinancing = {
        projectCountryCode: undefined, projectLifetimeYears: undefined, projectFinancingType: undefined,
        totalProjectCost: undefined, signedAmount: undefined, financingShare: undefined, taxonomyLayer: undefined,
      };
      assert.deepEqual(projects, [
        { projectId: projects[0]!.projectId, projectIdentifier: 'P-A', projectName: 'A project', projectAllocatedAmount: 1234.5, projectCurrencyCode: 'SEK',
          frameworkIdentifier: 'A-PUB', frameworkName: 'A-PUB name', projectVisibility: PRIVATE, reportingYear: Y, owned: true, ...noFinancing },
        { projectId: projects[1]!.projectId, projectIdentifier: 'P-B', projectName: 'B project', projectAllocatedAmount: undefined, projectCurrencyCode: 'EUR',
          frameworkIdentifier: 'A-PUB', frameworkName: 'A-PUB name', projectVisibility: PUBLIC, reportingYear: Y, owned: false, ...noFinancing },
      ]);
      assert.deepEqual((await h.client.getProjects({ reportingYear: Y, projectVisibility: PUBLIC }, a())).projects.map((p) => p.projectIdentifier), ['P-B']);
      assert.deepEqual((await h.client.getProjects({ reportingYear: Y }, b)).projects.map((p) => p.projectIdentifier), ['P-B']);
      // An update re-points the project and keeps its visibility.
      const updated = await h.client.addProject({ projectIdentifier: 'P-A', projectName: 'A project', projectCurrencyCode: 'SEK', frameworkIdentifier: 'B-PUB' }, a());
      assert.equal(updated.message, 'Project updated.');
      const [pa] = (await h.client.getProjects({ reportingYear: Y, projectVisibility: PRIVATE }, a())).projects;
      assert.deepEqual([pa!.frameworkIdentifier, pa!.projectVisibility], ['B-PUB', PRIVATE]);
      await rejectsWith(
        h.client.addProject({ projectIdentifier: 'P-A', projectName: 'A project', projectCurrencyCode: 'SEK', frameworkIdentifier: 'B-PRIV' }, a()),
        'NOT_FOUND',
        'No such framework "B-PRIV".',
      );
      // B-PUB is referred to by A's project: B cannot remove it, and is not told which project it is.
      await rejectsWith(h.client.removeFramework({ frameworkIdentifier: 'B-PUB' }, b), 'FAILED_PRECONDITION',
        'Framework "B-PUB" is still used by 1 project of another account; remove those first.');
    });

    it('validates every input', async () => {
      const fw = { frameworkIdentifier: 'A-PUB', reportingYear: Y };
      const row = { ...fw, subCategoryId: t.solar, subCategoryVolume: 1, indicatorId: t.ghg, indicatorValue: 1 };
      const cases: [() => Promise<unknown>, string][] = [
        [() => h.client.addFramework({ frameworkIdentifier: ' ', frameworkName: 'X', frameworkCurrencyCode: 'EUR' }, a()), 'framework_identifier must be 1 to 255 characters on one line.'],
        [() => h.client.addFramework({ frameworkIdentifier: 'x'.repeat(256), frameworkName: 'X', frameworkCurrencyCode: 'EUR' }, a()), 'framework_identifier must be 1 to 255 characters on one line.'],
        [() => h.client.addFramework({ frameworkIdentifier: 'X', frameworkName: 'n'.repeat(256), frameworkCurrencyCode: 'EUR' }, a()), 'framework_name must be 1 to 255 characters.'],
        [() => h.client.addFramework({ frameworkIdentifier: 'X', frameworkName: 'X', frameworkCurrencyCode: 'EU' }, a()), 'framework_currency_code must be a 3-letter currency code, got "EU".'],
        [() => h.client.addFramework({ frameworkIdentifier: 'X', frameworkName: 'X', frameworkCurrencyCode: 'EUR', frameworkVisibility: 9 as Visibility }, a()), 'framework_visibility must be public or private.'],
        [() => h.client.addYearSpecificsToFramework({ ...fw, valueOutstanding: -1, allocatedAmount: 0, valueOutstandingFramework: true }, a()), 'value_outstanding must be a finite number of at least 0.'],
        [() => h.client.addYearSpecificsToFramework({ ...fw, valueOutstanding: 1, allocatedAmount: Number.NaN, valueOutstandingFramework: true }, a()), 'allocated_amount must be a finite number of at least 0.'],
        [() => h.client.addYearSpecificsToFramework({ ...fw, reportingYear: 24, valueOutstanding: 1, allocatedAmount: 1, valueOutstandingFramework: true }, a()), 'reporting_year must be a 4-digit year from 1900 to 2200, got 24.'],
        [() => h.client.addCategoryIndicatorToFramework({ ...row, subCategoryVolume: Number.POSITIVE_INFINITY }, a()), 'sub_category_volume must be a finite number of at least 0.'],
        [() => h.client.addCategoryIndicatorToFramework({ ...row, indicatorValue: -0.5 }, a()), 'indicator_value must be a finite number of at least 0.'],
        [() => h.client.addCategoryIndicatorToFramework({ ...row, subCategoryId: 0 }, a()), 'sub_category_id must be a positive integer.'],
        [() => h.client.removeIndicatorFromFramework({ ...fw, subCategoryId: t.solar, indicatorId: -1 }, a()), 'indicator_id must be a positive integer.'],
        [() => h.client.getFrameworks({ reportingYear: 20245 }, a()), 'reporting_year must be a 4-digit year from 1900 to 2200, got 20245.'],
        [() => h.client.addProject({ projectIdentifier: 'P', projectName: ' ', projectCurrencyCode: 'EUR', frameworkIdentifier: 'A-PUB' }, a()), 'project_name must be 1 to 255 characters.'],
        [() => h.client.addProject({ projectIdentifier: 'P', projectName: 'P', projectCurrencyCode: 'EUR', frameworkIdentifier: '' }, a()), 'framework_identifier must be 1 to 255 characters on one line.'],
        [() => h.client.addYearSpecificsToProject({ projectIdentifier: 'P-A', allocatedAmount: -5, reportingYear: Y }, a()), 'allocated_amount must be a finite number of at least 0.'],
        [() => h.client.removeYearSpecificsFromProject({ projectIdentifier: 'line\nbreak', reportingYear: Y }, a()), 'project_identifier must be 1 to 255 characters on one line.'],
      ];
      for (const [call, message] of cases) await rejectsWith(call(), 'INVALID_ARGUMENT', message);

      await rejectsWith(h.client.addCategoryIndicatorToFramework({ ...row, indicatorId: 999_999 }, a()), 'NOT_FOUND', 'No such indicator 999999 in 2024.');
      await rejectsWith(h.client.addProject({ projectIdentifier: 'P', projectName: 'P', projectCurrencyCode: 'XYZ', frameworkIdentifier: 'A-PUB' }, a()), 'NOT_FOUND', 'No such currency XYZ.');
      await rejectsWith(h.client.addYearSpecificsToProject({ projectIdentifier: 'NOPE', allocatedAmount: 1, reportingYear: Y }, a()), 'NOT_FOUND', 'No such project "NOPE".');
      await rejectsWith(h.client.getFrameworks({ reportingYear: Y }), 'UNAUTHENTICATED');
      await rejectsWith(h.client.addFramework({ frameworkIdentifier: 'X', frameworkName: 'X', frameworkCurrencyCode: 'EUR' }), 'UNAUTHENTICATED');
    });

    it('takes amounts as given when the framework currency changes', async () => {
      await h.client.addCategoryIndicatorToFramework(
        { frameworkIdentifier: 'A-PUB', subCategoryId: t.wind, subCategoryVolume: 70, indicatorId: t.generation, indicatorValue: 3, reportingYear: Y },
        a(),
      );
      await h.client.addFramework({ frameworkIdentifier: 'A-PUB', frameworkName: 'A-PUB name', frameworkCurrencyCode: 'USD' }, a());
      const [row] = (await h.client.getFrameworkDetails({ frameworkIdentifier: 'A-PUB', reportingYear: Y }, a())).frameworks[0]!.framework;
      assert.deepEqual([row!.subCategoryVolume, row!.frameworkCurrencyCode], [70, 'USD']);
    });
  });
}
