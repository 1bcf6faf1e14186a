import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { readFile, writeFile } from 'node:fs/promises';
import { Visibility } from '@green-impact/proto/greenimpact/common/v1/common';
import type { FrameworkDetail, FrameworkRow } from '@green-impact/proto/greenimpact/taxonomy/v1/taxonomy';
import type { FrameworkRenderOptions } from './framework-options.js';
import { renderFrameworkDocument, type DocumentFormatName } from './render.js';

/**
 * Golden files: a fixed framework rendered to JSON and HTML must equal, byte for byte, the files under
 * src/documents/golden/ (read from src, relative to this compiled file in dist/). A deliberate change of
 * the documents is recorded with `UPDATE_GOLDEN=1 node --test services/taxonomy/dist/documents/golden.test.js`,
 * and the new files are reviewed like code: a document written to a blockchain is forever.
 */
const golden = (name: string) => new URL(`../../src/documents/golden/${name}`, import.meta.url);

const SDG = { '7': 'Hållbar energi för alla', '13': 'Bekämpa klimatförändringarna' };
const EU = { '1': 'Begränsning av klimatförändringar' };

function row(over: Partial<FrameworkRow>): FrameworkRow {
  return {
    categoryId: 1,
    categoryName: 'Förnybar energi',
    subCategoryId: 3,
    subCategoryName: 'Solkraft',
    subCategoryVolume: 300_000_000,
    frameworkCurrencyCode: 'EUR',
    superIndicatorId: 2,
    superIndicatorName: 'GHG emissions',
    indicatorId: 4,
    indicatorName: 'Årlig minskning av växthusgasutsläpp',
    indicatorValue: 12_345.678,
    unitId: 5,
    unitName: 'tCO2e/år',
    year: 2024,
    sdg: SDG,
    euObjective: EU,
    language: 'Swedish',
    languageCode: 'sv',
    ...over,
  };
}

export const FIXTURE: FrameworkDetail = {
  frameworkSummary: {
    frameworkId: 7,
    frameworkIdentifier: 'GBF-2024',
    frameworkName: 'Green Bond Framework <Nordic & "Co">',
    frameworkValueOutstanding: 500_000_000,
    frameworkAllocatedAmount: 450_000_000,
    frameworkActivePercentage: 90,
    frameworkCurrencyCode: 'EUR',
    valueOutstandingFramework: true,
    frameworkVisibility: Visibility.VISIBILITY_PUBLIC,
    reportingYear: 2024,
    owned: true,
  },
  framework: [
    row({}),
    row({ indicatorId: 6, superIndicatorId: 8, superIndicatorName: 'Energiproduktion', indicatorName: 'Årlig produktion av förnybar energi', indicatorValue: 41_000.005, unitId: 9, unitName: 'MWh/år' }),
    row({
      categoryId: 10,
      categoryName: 'Energy efficiency',
      subCategoryId: 11,
      subCategoryName: 'Smart grids',
      subCategoryVolume: 150_000_000.125,
      indicatorId: 12,
      indicatorName: 'Annual energy savings',
      indicatorValue: 1 / 3,
      unitId: 9,
      unitName: 'MWh/år',
      sdg: { '7': 'Hållbar energi för alla' },
      euObjective: {},
      language: 'English',
      languageCode: 'en',
    }),
  ],
};

const OPTIONS: FrameworkRenderOptions = { reportingYear: 2024, languageCode: 'sv', decimals: 2, sdgGoalsIncluded: true, euObjectivesIncluded: true };

async function assertGolden(file: string, format: DocumentFormatName): Promise<void> {
  const { content } = renderFrameworkDocument(FIXTURE, format, OPTIONS);
  if (process.env['UPDATE_GOLDEN'] === '1') await writeFile(golden(file), content);
  const expected = await readFile(golden(file));
  assert.equal(content.toString('utf8'), expected.toString('utf8'), `${file} differs from the golden file (UPDATE_GOLDEN=1 rewrites it)`);
  assert.ok(content.equals(expected), `${file}: bytes differ`);
}

describe('framework documents (golden)', () => {
  it('renders the fixed framework to the golden JSON', async () => {
    await assertGolden('framework.json', 'json');
  });

  it('renders the fixed framework to the golden HTML', async () => {
    await assertGolden('framework.html', 'html');
  });

  it('is deterministic and hashes exactly its content', () => {
    for (const format of ['json', 'html'] as const) {
      const a = renderFrameworkDocument(FIXTURE, format, OPTIONS);
      const b = renderFrameworkDocument(structuredClone(FIXTURE), format, { ...OPTIONS });
      assert.ok(a.content.equals(b.content));
      assert.equal(a.sha256, createHash('sha256').update(a.content).digest('hex'));
      assert.match(a.sha256, /^[0-9a-f]{64}$/);
    }
    assert.equal(renderFrameworkDocument(FIXTURE, 'json', OPTIONS).contentType, 'application/json');
    assert.equal(renderFrameworkDocument(FIXTURE, 'html', OPTIONS).contentType, 'text/html; charset=utf-8');
  });
});

describe('framework documents (options)', () => {
  const plain: FrameworkRenderOptions = { reportingYear: 2024, languageCode: null, decimals: 0, sdgGoalsIncluded: false, euObjectivesIncluded: false };

  it('leaves SDGs and EU objectives out unless asked for, and rounds to the decimals asked', () => {
    const json = JSON.parse(renderFrameworkDocument(FIXTURE, 'json', plain).content.toString('utf8'));
    assert.equal(json.framework[0].sdg, undefined);
    assert.equal(json.framework[0].eu_objective, undefined);
    assert.equal(json.framework[0].indicator_value, 12346);
    assert.equal(json.language_code, null);
    assert.equal(json.sdg_goals_included, 'no');
    const onlySdg = JSON.parse(renderFrameworkDocument(FIXTURE, 'json', { ...plain, sdgGoalsIncluded: true }).content.toString('utf8'));
    assert.deepEqual(onlySdg.framework[0].sdg, SDG);
    assert.equal(onlySdg.framework[0].eu_objective, undefined);

    const html = renderFrameworkDocument(FIXTURE, 'html', plain).content.toString('utf8');
    assert.ok(!html.includes('SDGs') && !html.includes('EU objectives'));
    assert.ok(html.startsWith('<!DOCTYPE html>\n<html lang="en">'));
    assert.ok(html.includes('12\u202f346'));
    const withEu = renderFrameworkDocument(FIXTURE, 'html', { ...plain, euObjectivesIncluded: true, languageCode: 'dk' }).content.toString('utf8');
    assert.ok(withEu.includes('<th scope="col">EU objectives</th>') && !withEu.includes('SDGs'));
    assert.ok(withEu.includes('<html lang="da">'));
  });

  it('renders a framework without year specifics or rows', () => {
    const bare: FrameworkDetail = {
      frameworkSummary: { ...FIXTURE.frameworkSummary!, frameworkValueOutstanding: undefined, frameworkAllocatedAmount: undefined,
        frameworkActivePercentage: undefined, valueOutstandingFramework: undefined, frameworkVisibility: Visibility.VISIBILITY_PRIVATE },
      framework: [],
    };
    const json = JSON.parse(renderFrameworkDocument(bare, 'json', plain).content.toString('utf8'));
    assert.deepEqual(
      [json.framework_value_outstanding, json.framework_allocated_amount, json.framework_active_percentage, json.value_outstanding_framework, json.framework_visibility, json.framework],
      [null, null, null, null, 'private', []],
    );
    const html = renderFrameworkDocument(bare, 'html', plain).content.toString('utf8');
    assert.ok(html.includes('<td>not given for 2024</td>'));
    assert.ok(html.includes('<p class="empty">No rows for 2024.</p>'));
  });

  it('escapes every text and loads nothing from elsewhere', () => {
    const html = renderFrameworkDocument(FIXTURE, 'html', OPTIONS).content.toString('utf8');
    assert.ok(html.includes('Green Bond Framework &lt;Nordic &amp; &quot;Co&quot;&gt;'));
    assert.ok(!html.includes('<Nordic'));
    assert.ok(!/<script|<link|src=|url\(|@import/i.test(html));
  });
});
