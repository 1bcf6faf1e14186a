import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { checkArticle5, isAligned, taxonomyAlignment, taxonomyLayer, type TaxonomyLayer } from './taxonomy-layer.js';

const base = {
  activityCode: '4.1', activityName: 'Electricity generation using solar photovoltaic technology',
  objective: 'climate_change_mitigation', technicalScreeningMet: true, doNoSignificantHarmMet: true,
  minimumSafeguardsMet: true, assetType: 'capex',
};

describe('EU taxonomy layer', () => {
  it('accepts a layer and normalises its enumerations', () => {
    const l = taxonomyLayer({ ...base, objective: ' Climate_Change_Mitigation ', assetType: 'CAPEX' });
    assert.deepEqual(l, { ...base, article5: false });
    assert.equal(isAligned(l), true);
    assert.equal(isAligned({ ...l, doNoSignificantHarmMet: false }), false);
    assert.equal(isAligned({ ...l, article5: true }), false);
  });

  it('refuses bad fields, naming each', () => {
    assert.throws(() => taxonomyLayer({ ...base, activityCode: 'four' }), /taxonomy_activity_code must be an EU taxonomy activity number such as "4\.1", got "four"\./);
    assert.throws(() => taxonomyLayer({ ...base, activityName: ' ' }), /taxonomy_activity_name must be 1 to 255 characters on one line\./);
    assert.throws(() => taxonomyLayer({ ...base, objective: 'climate' }), /environmental_objective must be one of climate_change_mitigation, climate_change_adaptation, water_and_marine_resources, circular_economy, pollution_prevention_and_control, biodiversity_and_ecosystems, got "climate"\./);
    assert.throws(() => taxonomyLayer({ ...base, assetType: 'loan' }), /asset_type must be one of fixed_asset, capex, opex, financial_asset, got "loan"\./);
  });

  /**
   * Worked example, by hand. Bond proceeds 1 000 (EUR); allocations:
   * - 400 solar (4.1), all three conditions met: aligned.
   * - 300 wind (4.3), DNSH not met: allocated, not aligned.
   * - 100 in the Article 5 pocket.
   * - 50 with no layer recorded: unassessed.
   * Allocated 400 + 300 + 100 + 50 = 850; unallocated 1 000 − 850 = 150.
   * Aligned 400 / 850 = 47.0588… %; Article 5 100 / 850 = 11.7647… % of allocated, 100 / 1 000 = 10 % of proceeds (≤ 15 %).
   */
  it('computes the aligned percentage and the Article 5 share of a worked example', () => {
    const solar = taxonomyLayer(base);
    const wind: TaxonomyLayer = taxonomyLayer({ ...base, activityCode: '4.3', activityName: 'Electricity generation from wind power', doNoSignificantHarmMet: false });
    const pocket = taxonomyLayer({ ...base, activityCode: '7.7', activityName: 'Acquisition and ownership of buildings', assetType: 'fixed_asset', article5: true });
    const a = taxonomyAlignment([{ amount: 400, layer: solar }, { amount: 300, layer: wind }, { amount: 100, layer: pocket }, { amount: 50, layer: null }]);
    assert.equal(a.allocated, 850);
    assert.equal(1000 - a.allocated, 150);
    assert.equal(a.aligned, 400);
    assert.equal(a.article5, 100);
    assert.equal(a.unassessed, 50);
    assert.equal(a.alignedPercent!.toFixed(4), '47.0588');
    assert.equal(a.article5Percent!.toFixed(4), '11.7647');
    assert.doesNotThrow(() => checkArticle5(a, 1000));
    // The same pocket against proceeds of 600: 100 / 600 = 16.67 % > 15 %.
    assert.throws(() => checkArticle5(a, 600), /article_5 allocations must be at most 15 % of the bond's proceeds \(Regulation \(EU\) 2023\/2631, Article 5\), got 16\.67 %\./);
    assert.deepEqual(taxonomyAlignment([]), { allocated: 0, aligned: 0, article5: 0, unassessed: 0, alignedPercent: null, article5Percent: null });
  });
});
