import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { refusedNaming, rejectsWith } from '@green-impact/testing/shared/assertions';
import { skipReason, testDatabases } from '@green-impact/testing/shared/databases';
import { ISSUER_B, loadIcma, Y, type IcmaIds } from '@green-impact/testing/taxonomy/icma-fixture';
import { startTaxonomyHarness, type TaxonomyHarness } from '@green-impact/testing/taxonomy/harness';

/**
 * The taxonomy layer stored per allocation and the three EU GBS documents rendered from stored data, over
 * real gRPC. A worked example, every figure by hand. Framework EUGB in EUR, 2024, NOK/EUR 11.5; its year:
 * value outstanding (the bond's proceeds) 1 000.
 * - P-1 Solar (EUR, SE, financing): allocated 400, total cost 1 600, signed 400 (share 25 %); activity 4.1,
 *   mitigation, CapEx, all three conditions met: aligned. GHG avoided 1 000 measured: issuer's share 250.
 * - P-2 Wind (NOK, DK, refinancing): allocated 3 450 NOK = 3 450 / 11.5 = 300 EUR; activity 4.3, DNSH not met:
 *   not aligned. GHG avoided 400 expected, no financing known: 400 counted.
 * - P-3 Building (EUR): allocated 100; activity 7.7, adaptation, fixed asset, Article 5 pocket.
 * - P-4 (EUR): allocated 50, no layer: not assessed.
 * - P-5 (EUR): no year specifics in 2024: no allocation.
 * Allocated 400 + 300 + 100 + 50 = 850; unallocated 1 000 − 850 = 150. Aligned 400 / 850 = 47.06 %;
 * Article 5 100 / 850 = 11.76 % of allocated (100 / 1 000 = 10 % of proceeds, within 15 %). By objective:
 * mitigation 400 + 300 = 700, adaptation 100. Impact report: GHG 250 + 400 = 650; factsheet (expected
 * values only): 400.
 */
for (const db of testDatabases) {
  describe(`EU GBS documents over gRPC on ${db.name}`, { skip: await skipReason(db) }, () => {
    let h: TaxonomyHarness;
    let t: IcmaIds;
    const a = () => ({ caller: h.user });
    const render = (document: string, more = {}, caller = h.user) =>
      h.client.renderEuGbsDocument({ frameworkIdentifier: 'EUGB', reportingYear: Y, document, publicationDate: '2025-03-31', ...more }, { caller });
    const layer = (projectIdentifier: string, more = {}) =>
      h.client.setProjectTaxonomyLayer({
        projectIdentifier, reportingYear: Y, taxonomyActivityCode: '4.1', taxonomyActivityName: 'Electricity generation using solar photovoltaic technology',
        environmentalObjective: 'climate_change_mitigation', technicalScreeningMet: true, doNoSignificantHarmMet: true, minimumSafeguardsMet: true,
        assetType: 'capex', article5: false, ...more,
      }, a());
    const html = async (document: string, more = {}) => Buffer.from((await render(document, more)).content).toString('utf8');
    const total = (page: string, heading: string) => new RegExp(`<tr><th>${heading}</th><td class="n">([^<]*)</td></tr>`).exec(page)?.[1];

    before(async () => {
      h = await startTaxonomyHarness(db);
      t = await loadIcma(h);
      await h.client.addFxRate({ currencyCodeNumerator: 'NOK', currencyCodeDenominator: 'EUR', currencyCodeQuota: 11.5, reportingYear: Y }, { caller: h.operator });
      await h.client.addFramework({
        frameworkIdentifier: 'EUGB', frameworkName: 'European green bond 2030', frameworkCurrencyCode: 'EUR',
        issuerLei: 'HWUPKR0MPOU8FGXBT394', externalReviewer: 'Reviewer GmbH', approvingAuthority: 'BaFin',
      }, a());
      await h.client.addYearSpecificsToFramework({
        frameworkIdentifier: 'EUGB', valueOutstanding: 1000, allocatedAmount: 850, valueOutstandingFramework: false, reportingYear: Y,
        reportingPeriodStart: '2024-01-01', reportingPeriodEnd: '2024-12-31', unallocatedProceedsPlacement: 'Money-market funds',
      }, a());
      const project = async (id: string, name: string, currency: string, allocatedAmount: number | null, more = {}, year = {}) => {
        await h.client.addProject({ projectIdentifier: id, projectName: name, projectCurrencyCode: currency, frameworkIdentifier: 'EUGB', ...more }, a());
        if (allocatedAmount !== null) await h.client.addYearSpecificsToProject({ projectIdentifier: id, allocatedAmount, reportingYear: Y, ...year }, a());
      };
      await project('P-1', 'Solar', 'EUR', 400, { projectCountryCode: 'SE', projectFinancingType: 'financing' }, { totalProjectCost: 1600, signedAmount: 400 });
      await project('P-2', 'Wind', 'NOK', 3450, { projectCountryCode: 'DK', projectFinancingType: 'refinancing' });
      await project('P-3', 'Building', 'EUR', 100);
      await project('P-4', 'Unassessed', 'EUR', 50);
      await project('P-5', 'Next year', 'EUR', null);
      await h.client.addCategoryIndicatorToProject({ projectIdentifier: 'P-1', subCategoryId: t.solar, subCategoryVolume: 400, indicatorId: t.ghg, indicatorValue: 1000, reportingYear: Y, indicatorValueType: 'measured' }, a());
      await h.client.addCategoryIndicatorToProject({ projectIdentifier: 'P-2', subCategoryId: t.wind, subCategoryVolume: 3450, indicatorId: t.ghg, indicatorValue: 400, reportingYear: Y, indicatorValueType: 'expected' }, a());
      assert.equal((await layer('P-1')).message, 'Taxonomy layer for 2024 set on project.');
      await layer('P-2', { taxonomyActivityCode: '4.3', taxonomyActivityName: 'Electricity generation from wind power', doNoSignificantHarmMet: false });
      await layer('P-3', { taxonomyActivityCode: '7.7', taxonomyActivityName: 'Acquisition and ownership of buildings', environmentalObjective: 'Climate_Change_Adaptation', assetType: 'fixed_asset', article5: true });
    });
    after(async () => {
      await h?.stop();
    });

    it('stores the layer whole on the year specifics, keeps it when the allocation changes, and shows it on the project', async () => {
      await h.client.addYearSpecificsToProject({ projectIdentifier: 'P-3', allocatedAmount: 100, reportingYear: Y }, a());
      const read = async (id: string) => (await h.client.getProjectDetails({ projectIdentifier: id, reportingYear: Y }, a())).projects[0]!.projectSummary!.taxonomyLayer;
      assert.deepEqual(await read('P-3'), {
        taxonomyActivityCode: '7.7', taxonomyActivityName: 'Acquisition and ownership of buildings', environmentalObjective: 'climate_change_adaptation',
        technicalScreeningMet: true, doNoSignificantHarmMet: true, minimumSafeguardsMet: true, assetType: 'fixed_asset', article5: true, aligned: false,
      });
      assert.equal((await read('P-1'))!.aligned, true);
      assert.equal((await read('P-2'))!.aligned, false);
      assert.equal(await read('P-4'), undefined);
      // The database refuses half a layer, whoever writes.
      await assert.rejects(
        h.service.dataSource.query(`UPDATE taxonomy.project_year_specifics SET asset_type = NULL WHERE reporting_year = $1 AND asset_type IS NOT NULL`, [Y]),
        /project_year_specifics_taxonomy_layer_whole/,
      );
    });

    it('renders the allocation report (Annex II) with the hand-computed figures, the same bytes each time', async () => {
      const r = await render('allocation_report');
      const page = Buffer.from(r.content).toString('utf8');
      assert.equal(r.contentType, 'text/html; charset=utf-8');
      assert.equal(r.sha256, createHash('sha256').update(r.content).digest('hex'));
      assert.deepEqual(await render('allocation_report'), r, 'the same bytes again');
      assert.match(page, /<title>European Green Bond allocation report: European green bond 2030<\/title>/);
      assert.equal(total(page, 'Total proceeds'), '1\u202f000.00');
      assert.equal(total(page, 'Allocated'), '850.00');
      assert.equal(total(page, 'Unallocated'), '150.00');
      assert.equal(total(page, 'Taxonomy-aligned share of allocated proceeds'), '47.06\u202f%');
      assert.equal(total(page, 'Article 5 share of allocated proceeds'), '11.76\u202f%');
      assert.equal(total(page, 'Not assessed'), '50.00');
      assert.match(page, /<tr><th>Date of publication<\/th><td>2025-03-31<\/td><\/tr>/);
      assert.match(page, /<tr><th>Period reported<\/th><td>2024-01-01 to 2024-12-31<\/td><\/tr>/);
      assert.match(page, /<tr><th>Issuer LEI<\/th><td>HWUPKR0MPOU8FGXBT394<\/td><\/tr>/);
      assert.match(page, /<tr><th>External reviewer<\/th><td>Reviewer GmbH<\/td><\/tr>/);
      assert.match(page, /<tr><th>Where unallocated proceeds are placed<\/th><td>Money-market funds<\/td><\/tr>/);
      assert.match(page, /Article 5 of Regulation \(EU\) 2023\/2631 for 11\.76\u202f% of the allocated proceeds \(100\.00\u00a0EUR\)/);
      assert.deepEqual([...page.matchAll(/<tr><td>(P-\d)<\/td>/g)].map((m) => m[1]), ['P-1', 'P-2', 'P-3', 'P-4']);
      assert.match(page, /<td>P-2<\/td><td>Wind<\/td><td>DK<\/td><td>refinancing<\/td>.*<td>Not aligned<\/td><td class="n">300\.00<\/td>/);
      assert.match(page, /<td>P-1<\/td>.*<td>CapEx<\/td>.*<td>Aligned<\/td><td class="n">400\.00<\/td>/);
      assert.match(page, /Climate change mitigation<\/t[hd]><td[^>]*>700\.00/);
      assert.match(page, /Climate change adaptation<\/t[hd]><td[^>]*>100\.00/);
      assert.doesNotMatch(page, /Environmental impact/);
    });

    it("renders the impact report (Annex III) with the issuer's share, and the factsheet (Annex I) with the expected values", async () => {
      const impact = await html('impact_report', { decimals: 0 });
      assert.match(impact, /<h2>5\. Environmental impact of bond proceeds<\/h2>/);
      assert.match(impact, /<td>P-1<\/td><td>[^<]+<\/td><td>[^<]+<\/td><td class="n">250<\/td><td>measured; issuer&#39;s share 25\.00\u202f%<\/td>/);
      assert.match(impact, /<td>P-2<\/td><td>[^<]+<\/td><td>[^<]+<\/td><td class="n">400<\/td><td>expected<\/td>/);
      assert.match(impact, /<tr class="total"><td>[^<]+<\/td><td>[^<]+<\/td><td class="n">650<\/td><\/tr>/);
      const factsheet = await html('Factsheet', { publicationDate: undefined });
      assert.match(factsheet, /<tr><th>Date of publication<\/th><td>Not given<\/td><\/tr>/);
      assert.match(factsheet, /<h2>4\. Intended allocation of proceeds<\/h2>/);
      assert.match(factsheet, /<h2>7\. Other relevant information<\/h2>/);
      assert.doesNotMatch(factsheet, /<td>P-1<\/td><td>[^<]+<\/td><td>[^<]+<\/td><td class="n">/, 'a measured value is no estimate');
      assert.match(factsheet, /<tr class="total"><td>[^<]+<\/td><td>[^<]+<\/td><td class="n">400\.00<\/td><\/tr>/);
    });

    it('refuses bad input naming the field, and what the stored figures do not allow', async () => {
      await refusedNaming(layer('P-4', { taxonomyActivityCode: '4' }), 'taxonomy_activity_code', 'taxonomy_activity_code must be an EU taxonomy activity number such as "4.1", got "4".');
      await refusedNaming(layer('P-4', { environmentalObjective: 'climate' }), 'environmental_objective',
        'environmental_objective must be one of climate_change_mitigation, climate_change_adaptation, water_and_marine_resources, circular_economy, pollution_prevention_and_control, biodiversity_and_ecosystems, got "climate".');
      await refusedNaming(layer('P-4', { assetType: 'loan' }), 'asset_type', 'asset_type must be one of fixed_asset, capex, opex, financial_asset, got "loan".');
      await rejectsWith(layer('P-5'), 'FAILED_PRECONDITION', 'Project "P-5" has no year specifics for 2024; add its allocated amount with addYearSpecificsToProject before its taxonomy layer.');
      await rejectsWith(h.client.setProjectTaxonomyLayer({ projectIdentifier: 'P-1', reportingYear: Y, taxonomyActivityCode: '4.1', taxonomyActivityName: 'x', environmentalObjective: 'circular_economy', technicalScreeningMet: true, doNoSignificantHarmMet: true, minimumSafeguardsMet: true, assetType: 'opex', article5: false }, { caller: ISSUER_B }), 'NOT_FOUND', 'No such project "P-1".');
      await refusedNaming(render('annual_report'), 'document', 'document must be factsheet, allocation_report or impact_report.');
      await refusedNaming(render('factsheet', { publicationDate: '2025-02-30' }), 'publication_date', 'publication_date must be a date YYYY-MM-DD, got "2025-02-30".');
      await rejectsWith(render('factsheet', {}, ISSUER_B), 'NOT_FOUND', 'No such framework "EUGB".');
      await rejectsWith(render('factsheet', { reportingYear: 2023 }), 'FAILED_PRECONDITION',
        'Framework "EUGB" has no year specifics for 2023; its value outstanding is the bond\'s proceeds, add them with addYearSpecificsToFramework to report.');
      // Proceeds of 600: the pocket's 100 is 16.67 % of them, above Article 5's 15 %.
      await h.client.addYearSpecificsToFramework({ frameworkIdentifier: 'EUGB', valueOutstanding: 600, allocatedAmount: 850, valueOutstandingFramework: false, reportingYear: Y }, a());
      await rejectsWith(render('allocation_report'), 'FAILED_PRECONDITION',
        "article_5 allocations must be at most 15 % of the bond's proceeds (Regulation (EU) 2023/2631, Article 5), got 16.67 %.");
    });

    it('removes a layer whole, the allocation staying: the pocket is then not assessed', async () => {
      const remove = (caller = h.user) => h.client.removeProjectTaxonomyLayer({ projectIdentifier: 'P-3', reportingYear: Y }, { caller });
      await rejectsWith(remove(ISSUER_B), 'NOT_FOUND', 'No such project "P-3".');
      assert.equal((await remove()).message, 'Taxonomy layer for 2024 removed from project.');
      await rejectsWith(remove(), 'NOT_FOUND', 'Project "P-3" has no taxonomy layer for 2024.');
      const [p3] = (await h.client.getProjectDetails({ projectIdentifier: 'P-3', reportingYear: Y }, a())).projects;
      assert.deepEqual([p3!.projectSummary!.taxonomyLayer, p3!.projectSummary!.projectAllocatedAmount], [undefined, 100]);
      // Proceeds still 600, but no pocket now: P-3's 100 and P-4's 50 are not assessed.
      const page = await html('allocation_report');
      assert.equal(total(page, 'Not assessed'), '150.00');
      assert.equal(total(page, 'Article 5 share of allocated proceeds'), '0.00\u202f%');
      assert.equal(total(page, 'Taxonomy-aligned share of allocated proceeds'), '47.06\u202f%');
    });
  });
}
