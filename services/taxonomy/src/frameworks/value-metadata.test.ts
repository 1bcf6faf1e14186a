import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { refusedNaming as refused } from '@green-impact/testing/shared/assertions';
import { skipReason, testDatabases } from '@green-impact/testing/shared/databases';
import { loadIcma, Y, type IcmaIds } from '@green-impact/testing/taxonomy/icma-fixture';
import { startTaxonomyHarness, type TaxonomyHarness } from '@green-impact/testing/taxonomy/harness';
import { unitValue, valueMetadata } from './value-metadata.js';

describe('indicator value metadata rules', () => {
  it('normalizes the choices and leaves out what is not given', () => {
    assert.deepEqual(valueMetadata({ indicatorValueType: 'Measured', indicatorValueBasis: 'NET', methodologySource: ' IEA ', methodologyVersion: '' }), {
      valueType: 'measured', valueBasis: 'net', baselineValue: undefined, emissionFactor: undefined, methodologySource: 'IEA', methodologyVersion: undefined,
    });
    assert.throws(() => valueMetadata({ indicatorValueType: 'guessed' }), /^InvalidArgumentError: indicator_value_type must be expected or measured\.$/);
    assert.throws(() => valueMetadata({ emissionFactor: -0.1 }), /emission_factor must be a finite number from 0 to 1000000000000000\./);
  });
  it('takes a negative value only where the unit is signed', () => {
    assert.equal(unitValue('v', -5, true), -5);
    assert.throws(() => unitValue('v', -5, false), /v must be a finite number of at least 0\./);
  });
});

for (const db of testDatabases) {
  describe(`indicator value metadata over gRPC on ${db.name}`, { skip: await skipReason(db) }, () => {
    let h: TaxonomyHarness;
    let t: IcmaIds;
    const a = () => ({ caller: h.user });
    const base = () => ({ projectIdentifier: 'P', subCategoryId: t.solar, subCategoryVolume: 10, indicatorId: t.ghg, indicatorValue: 900, reportingYear: Y });
    const projectRow = async () => (await h.client.getProjectDetails({ projectIdentifier: 'P', reportingYear: Y }, a())).projects[0]!.project[0]!;

    before(async () => {
      h = await startTaxonomyHarness(db);
      t = await loadIcma(h);
      await h.client.addFramework({ frameworkIdentifier: 'GBF', frameworkName: 'Green bonds', frameworkCurrencyCode: 'EUR' }, a());
      await h.client.addProject({ projectIdentifier: 'P', projectName: 'Solar', projectCurrencyCode: 'EUR', frameworkIdentifier: 'GBF' }, a());
    });
    after(async () => {
      await h?.stop();
    });

    it('stores the metadata of a project row and keeps each part an update leaves out', async () => {
      await h.client.addCategoryIndicatorToProject(
        {
          ...base(), indicatorValueType: 'expected', indicatorValueBasis: 'net', baselineValue: 1200, emissionFactor: 0.42,
          methodologySource: 'IFI harmonised grid factors', methodologyVersion: '3.2',
        },
        a(),
      );
      await h.client.addCategoryIndicatorToProject({ ...base(), indicatorValue: 950, indicatorValueType: 'measured' }, a());
      const r = await projectRow();
      assert.deepEqual(
        [r.indicatorValue, r.indicatorValueType, r.indicatorValueBasis, r.baselineValue, r.emissionFactor, r.methodologySource, r.methodologyVersion],
        [950, 'measured', 'net', 1200, 0.42, 'IFI harmonised grid factors', '3.2'],
      );
    });

    it('stores it on framework rows alike, and a row without it answers none', async () => {
      await h.client.addCategoryIndicatorToFramework(
        { frameworkIdentifier: 'GBF', subCategoryId: t.wind, subCategoryVolume: 5, indicatorId: t.generation, indicatorValue: 70, reportingYear: Y, indicatorValueBasis: 'gross' },
        a(),
      );
      await h.client.addCategoryIndicatorToFramework(
        { frameworkIdentifier: 'GBF', subCategoryId: t.wind, subCategoryVolume: 5, indicatorId: t.ghg, indicatorValue: 30, reportingYear: Y },
        a(),
      );
      const rows = (await h.client.getFrameworkDetails({ frameworkIdentifier: 'GBF', reportingYear: Y }, a())).frameworks[0]!.framework;
      assert.deepEqual(rows.map((r) => [r.indicatorId, r.indicatorValueBasis, r.indicatorValueType]).sort(), [[t.generation, 'gross', undefined], [t.ghg, undefined, undefined]].sort());
    });

    it('refuses bad metadata naming its field, and writes nothing', async () => {
      await refused(h.client.addCategoryIndicatorToProject({ ...base(), indicatorValueBasis: 'partly' }, a()), 'indicator_value_basis', 'indicator_value_basis must be gross or net.');
      await refused(h.client.addCategoryIndicatorToProject({ ...base(), baselineValue: -1 }, a()), 'baseline_value',
        'baseline_value must be a finite number of at least 0.');
      await refused(h.client.addCategoryIndicatorToProject({ ...base(), methodologySource: 'x'.repeat(256) }, a()), 'methodology_source',
        'methodology_source must be at most 255 characters on one line.');
      assert.equal((await projectRow()).indicatorValue, 950);
    });
  });
}
