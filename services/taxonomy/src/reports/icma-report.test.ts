import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { refusedNaming, rejectsWith } from '@green-impact/testing/shared/assertions';
import { skipReason, testDatabases } from '@green-impact/testing/shared/databases';
import { ISSUER_B, loadIcma, Y, type IcmaIds } from '@green-impact/testing/taxonomy/icma-fixture';
import { startTaxonomyHarness, type TaxonomyHarness } from '@green-impact/testing/taxonomy/harness';
import { readXlsx, rowValues } from '@green-impact/testing/shared/xlsx-reader';
import { csv, num, text } from './csv.js';
import { icmaTableCsv, PORTFOLIO_HEADER, PROJECT_HEADER, type IcmaProject } from './icma-table.js';

describe('CSV', () => {
  it('quotes only what needs it, defuses formulas in text, and ends every line with CRLF', () => {
    assert.equal(
      csv(['a', 'b,c'], [[text('x "y"'), num('-1.50')], [text('=SUM(A1)'), null], [text('line\nbreak'), text('-x')]]),
      'a,"b,c"\r\n"x ""y""",-1.50\r\n\'=SUM(A1),\r\n"line\nbreak",\'-x\r\n',
    );
  });
});

describe('ICMA portfolio financing in the framework currency', () => {
  /**
   * By hand, framework EUR, NOK/EUR 11.5: P-N (NOK) signed 115, total cost 460, lifetime 10, volume 230 NOK;
   * P-E (EUR) no financing known, lifetime 30, volume 20. Signed 115 / 11.5 = 10; share 115 / 460 = 25 %
   * (P-N alone knows both); allocated 230 / 11.5 + 20 = 40; lifetime (10 × 20 + 30 × 20) / 40 = 20.
   */
  it('converts the signed amounts, takes the share over projects knowing both, and weights the lifetime by volume', () => {
    const row = (subCategoryVolume: number) => ({
      categoryId: 1, categoryName: 'Energy', subCategoryId: 2, subCategoryName: 'Solar', subCategoryVolume, superIndicatorId: 3, superIndicatorName: 'GHG',
      indicatorId: 4, indicatorName: 'GHG avoided', indicatorValue: 8, unitId: 5, unitName: 't', year: 2024, sdg: {}, euObjective: {}, language: 'English', languageCode: 'en',
    });
    const project = (identifier: string, currencyCode: string, fxFactor: number, more: Partial<IcmaProject>, volume: number): IcmaProject => ({
      identifier, name: identifier, currencyCode, fxFactor, countryCode: null, lifetimeYears: null, financingType: null, totalProjectCost: null,
      signedAmount: null, allocatedAmount: null, rows: [row(volume)], ...more,
    });
    const projects = [
      project('P-E', 'EUR', 1, { lifetimeYears: 30 }, 20),
      project('P-N', 'NOK', 1 / 11.5, { lifetimeYears: 10, signedAmount: 115, totalProjectCost: 460 }, 230),
    ];
    assert.equal(
      icmaTableCsv({ frameworkCurrencyCode: 'EUR', year: 2024, projects }, 'portfolio', 2),
      [PORTFOLIO_HEADER.join(','), '2024,Energy,Solar,EUR,10.00,25.00,40.00,20.00,2,1,GHG avoided,t,16.00,10.00', ''].join('\r\n'),
    );
  });
});

/**
 * A worked example, every figure computed by hand. Framework GBF in EUR, year 2024, NOK/EUR 11.5:
 * - P-A "Solar A" (EUR, SE, 25 years, financing): total cost 200, signed 50, so share 50/200 = 25 %;
 *   allocated 30; solar, volume 30, GHG avoided 1 000 (measured, net, baseline 1 200, factor 0.42).
 *   Issuer's share: 0.25 × 1 000 = 250.
 * - P-B `Wind, "Nordsjø"` (NOK, no financing known): allocated 1 150 NOK; wind, volume 1 150 NOK, GHG 300.
 *   Issuer's share: the full 300. In EUR its volume is 1 150 / 11.5 = 100.
 * - P-C "Solar C" (EUR, no financing known): allocated 20; solar, volume 20, GHG 200 (full 200).
 * - P-D "=1+1" (EUR): allocated 5, no rows (a line of its own; its name defused as text).
 * Portfolio: solar signed 50 (only P-A's known), share 50 / 200 = 25 % (projects knowing both), allocated
 * 30 + 20 = 50, lifetime 25 (only P-A's known: 25 × 30 / 30), 2 projects (1 pro rata), GHG 1 000 + 200 = 1 200
 * in full, 250 + 200 = 450 the issuer's; wind: signed, share and lifetime unknown (empty), allocated 100,
 * 1 project (0 pro rata), GHG 300 and 300.
 */
for (const db of testDatabases) {
  describe(`RenderIcmaImpactTable over gRPC on ${db.name}`, { skip: await skipReason(db) }, () => {
    let h: TaxonomyHarness;
    let t: IcmaIds;
    const a = () => ({ caller: h.user });
    const render = (level?: string, caller = h.user) => h.client.renderIcmaImpactTable({ frameworkIdentifier: 'GBF', reportingYear: Y, ...(level ? { level } : {}) }, { caller });
    const names = { category: '', solar: '', wind: '', ghg: '', unit: '' };

    before(async () => {
      h = await startTaxonomyHarness(db);
      t = await loadIcma(h);
      const { rows } = await h.client.getTaxonomy({ reportingYear: Y }, { caller: h.operator });
      const solar = rows.find((r) => r.subCategoryId === t.solar && r.indicatorId === t.ghg)!;
      Object.assign(names, {
        category: solar.categoryName,
        solar: solar.subCategoryName,
        wind: rows.find((r) => r.subCategoryId === t.wind)!.subCategoryName,
        ghg: solar.indicatorName,
        unit: solar.unitName,
      });
      assert.ok(rows.find((r) => r.subCategoryId === t.wind)!.categoryName === names.category, 'solar and wind share their category');
      assert.ok(!Object.values(names).some((n) => /[",\r\n]/.test(n)), 'the names need no quoting');
      await h.client.addFxRate({ currencyCodeNumerator: 'NOK', currencyCodeDenominator: 'EUR', currencyCodeQuota: 11.5, reportingYear: Y }, { caller: h.operator });
      await h.client.addFramework({ frameworkIdentifier: 'GBF', frameworkName: 'Green bonds', frameworkCurrencyCode: 'EUR' }, a());
      const project = async (id: string, name: string, currency: string, allocatedAmount: number, more = {}, year = {}) => {
        await h.client.addProject({ projectIdentifier: id, projectName: name, projectCurrencyCode: currency, frameworkIdentifier: 'GBF', ...more }, a());
        await h.client.addYearSpecificsToProject({ projectIdentifier: id, allocatedAmount, reportingYear: Y, ...year }, a());
      };
      const row = (id: string, subCategoryId: number, subCategoryVolume: number, indicatorValue: number, more = {}) =>
        h.client.addCategoryIndicatorToProject({ projectIdentifier: id, subCategoryId, subCategoryVolume, indicatorId: t.ghg, indicatorValue, reportingYear: Y, ...more }, a());
      await project('P-D', '=1+1', 'EUR', 5);
      await project('P-C', 'Solar C', 'EUR', 20);
      await project('P-B', 'Wind, "Nordsjø"', 'NOK', 1150);
      await project('P-A', 'Solar A', 'EUR', 30, { projectCountryCode: 'SE', projectLifetimeYears: 25, projectFinancingType: 'financing' }, { totalProjectCost: 200, signedAmount: 50 });
      await row('P-A', t.solar, 30, 1000, {
        indicatorValueType: 'measured', indicatorValueBasis: 'net', baselineValue: 1200, emissionFactor: 0.42, methodologySource: 'IFI grid factors', methodologyVersion: '3.2',
      });
      await row('P-B', t.wind, 1150, 300);
      await row('P-C', t.solar, 20, 200);
    });
    after(async () => {
      await h?.stop();
    });

    it('renders the project-by-project table of the worked example', async () => {
      const r = await render();
      const { category: c, ghg, unit } = names;
      assert.equal(r.contentType, 'text/csv; charset=utf-8');
      assert.equal(
        Buffer.from(r.content).toString('utf8'),
        [
          PROJECT_HEADER.map((h) => (h.includes(',') ? `"${h}"` : h)).join(','),
          `2024,P-A,Solar A,SE,${c},${names.solar},financing,25,EUR,200.00,50.00,25.00,30.00,${ghg},${unit},1000.00,250.00,measured,net,1200.00,0.42,IFI grid factors,3.2`,
          `2024,P-B,"Wind, ""Nordsjø""",,${c},${names.wind},,,NOK,,,,1150.00,${ghg},${unit},300.00,300.00,,,,,,`,
          `2024,P-C,Solar C,,${c},${names.solar},,,EUR,,,,20.00,${ghg},${unit},200.00,200.00,,,,,,`,
          `2024,P-D,'=1+1,,,,,,EUR,,,,5.00,,,,,,,,,,`,
          '',
        ].join('\r\n'),
      );
      assert.equal(r.sha256, createHash('sha256').update(r.content).digest('hex'));
      assert.deepEqual(await render(), r, 'the same bytes again');
    });

    it('renders the portfolio-level table in the framework currency, and the build agrees with its issuer share', async () => {
      const r = await render('Portfolio');
      const { category: c, ghg, unit } = names;
      const lines = [
        [t.solar, `2024,${c},${names.solar},EUR,50.00,25.00,50.00,25.00,2,1,${ghg},${unit},1200.00,450.00`],
        [t.wind, `2024,${c},${names.wind},EUR,,,100.00,,1,0,${ghg},${unit},300.00,300.00`],
      ].sort((x, y) => (x[0] as number) - (y[0] as number)).map((l) => l[1]);
      assert.equal(Buffer.from(r.content).toString('utf8'), [PORTFOLIO_HEADER.join(','), ...lines, ''].join('\r\n'));

      await h.client.addYearSpecificsToFramework({ frameworkIdentifier: 'GBF', valueOutstanding: 200, allocatedAmount: 150, valueOutstandingFramework: false, reportingYear: Y }, a());
      await h.client.buildFrameworkFromProjects({ frameworkIdentifier: 'GBF', reportingYear: Y }, a());
      const built = (await h.client.getFrameworkDetails({ frameworkIdentifier: 'GBF', reportingYear: Y }, a())).frameworks[0]!.framework;
      assert.deepEqual(built.map((b) => [b.subCategoryId, b.indicatorValue]).sort(), [[t.solar, 450], [t.wind, 300]].sort());
    });

    /**
     * The same worked example as a workbook, read back by a spreadsheet reader: each sheet has the header
     * block (rows 1 to 4), a blank row, the column headers on row 6 (frozen) and the lines from row 7, with
     * numbers as numbers. The share is the fraction 50 / 200 = 0.25 shown as a percentage; the name "=1+1"
     * is plain text (a workbook's text cell is never a formula).
     */
    it('renders the workbook of the worked example: a portfolio sheet and a project sheet, typed and formatted', async () => {
      const workbook = () => h.client.renderIcmaImpactWorkbook({ frameworkIdentifier: 'GBF', reportingYear: Y }, a());
      const r = await workbook();
      assert.equal(r.contentType, 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
      assert.equal(r.sha256, createHash('sha256').update(r.content).digest('hex'));
      assert.deepEqual(Buffer.from((await workbook()).content), Buffer.from(r.content), 'the same bytes again');
      const { category: c, ghg, unit } = names;
      const [portfolio, projects] = readXlsx(r.content).sheets;
      assert.deepEqual([portfolio!.name, projects!.name], ['Portfolio summary', 'Project by project']);
      for (const sheet of [portfolio!, projects!]) {
        assert.deepEqual(rowValues(sheet, 2, 2), ['Green bond / framework', 'Green bonds (GBF)']);
        assert.deepEqual(rowValues(sheet, 3, 2), ['Reporting year', 2024]);
        assert.equal(sheet.cells.get('B4')!.value.toString().slice(0, 3), 'EUR');
        assert.equal(sheet.frozenRows, 6);
        assert.ok(sheet.cells.get('A6')!.bold);
      }
      assert.deepEqual(rowValues(portfolio!, 6, 14), [...PORTFOLIO_HEADER]);
      const lines = [
        [t.solar, [2024, c, names.solar, 'EUR', 50, 0.25, 50, 25, 2, 1, ghg, unit, 1200, 450]],
        [t.wind, [2024, c, names.wind, 'EUR', null, null, 100, null, 1, 0, ghg, unit, 300, 300]],
      ].sort((x, y) => (x[0] as number) - (y[0] as number)).map((l) => l[1]);
      assert.deepEqual([rowValues(portfolio!, 7, 14), rowValues(portfolio!, 8, 14), rowValues(portfolio!, 9, 14)], [...lines, Array(14).fill(null)]);
      assert.deepEqual(['A7', 'E7', 'F7', 'H7', 'I7', 'M7'].map((ref) => [portfolio!.cells.get(ref)!.type, portfolio!.cells.get(ref)!.format]), [
        ['number', '0'], ['number', '#,##0.00'], ['number', '0.00%'], ['number', '#,##0.00'], ['number', '0'], ['number', '#,##0.00'],
      ]);

      assert.deepEqual(rowValues(projects!, 6, 23), [...PROJECT_HEADER]);
      const none = (k: number) => Array(k).fill(null);
      assert.deepEqual([7, 8, 9, 10].map((row) => rowValues(projects!, row, 23)), [
        [2024, 'P-A', 'Solar A', 'SE', c, names.solar, 'financing', 25, 'EUR', 200, 50, 0.25, 30, ghg, unit, 1000, 250, 'measured', 'net', 1200, 0.42, 'IFI grid factors', '3.2'],
        [2024, 'P-B', 'Wind, "Nordsjø"', null, c, names.wind, null, null, 'NOK', null, null, null, 1150, ghg, unit, 300, 300, ...none(6)],
        [2024, 'P-C', 'Solar C', null, c, names.solar, null, null, 'EUR', null, null, null, 20, ghg, unit, 200, 200, ...none(6)],
        [2024, 'P-D', '=1+1', ...none(5), 'EUR', null, null, null, 5, ...none(10)],
      ]);
      assert.deepEqual([projects!.cells.get('C10')!.type, projects!.cells.get('L7')!.format, projects!.cells.get('U7')!.format], ['text', '0.00%', '#,##0.00']);
      assert.ok(projects!.widths[2]! >= 'Wind, "Nordsjø"'.length, 'the name column fits the longest name');

      const whole = readXlsx((await h.client.renderIcmaImpactWorkbook({ frameworkIdentifier: 'GBF', reportingYear: Y, decimals: 0 }, a())).content);
      assert.deepEqual([whole.sheets[0]!.cells.get('E7')!.format, whole.sheets[0]!.cells.get('F7')!.format], ['#,##0', '0%']);
      await rejectsWith(h.client.renderIcmaImpactWorkbook({ frameworkIdentifier: 'GBF', reportingYear: Y }, { caller: ISSUER_B }), 'NOT_FOUND', 'No such framework "GBF".');
    });

    it('is the owner\'s alone, and refuses a bad level naming it', async () => {
      await rejectsWith(render(undefined, ISSUER_B), 'NOT_FOUND', 'No such framework "GBF".');
      await refusedNaming(render('sector'), 'level', 'level must be project or portfolio.');
      await h.client.addFramework({ frameworkIdentifier: 'EMPTY', frameworkName: 'Nothing yet', frameworkCurrencyCode: 'EUR' }, a());
      await rejectsWith(
        h.client.renderIcmaImpactTable({ frameworkIdentifier: 'EMPTY', reportingYear: Y }, a()),
        'FAILED_PRECONDITION',
        'No project of yours refers to framework "EMPTY"; an impact table reports the projects of the framework\'s owner.',
      );
    });
  });
}
