import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { barLength, renderBarChart } from './bar-chart.js';
import { renderImpactCharts, type ImpactChartRow } from './impact-charts.js';

const format = (x: number) => x.toFixed(2);

/** The bars of a rendered page: [chart id, label, value, length]. */
function bars(page: string): [string, string, number, number][] {
  const out: [string, string, number, number][] = [];
  for (const figure of page.split('<figure').slice(1)) {
    const id = /id="([^"]+)"/.exec(figure)![1]!;
    for (const m of figure.matchAll(/<g class="bar" data-label="([^"]*)">.*?<rect [^>]*width="([\d.]+)"[^>]*data-value="([^"]+)"/g)) out.push([id, m[1]!, Number(m[3]), Number(m[2])]);
  }
  return out;
}

const row = (over: Partial<ImpactChartRow>): ImpactChartRow => ({
  category: 'Energy', subCategoryKey: 'solar', volume: 300, indicatorKey: '1', indicator: 'Generated', unit: 'MWh', value: 10, ...over,
});

describe('impact charts', () => {
  it('sum each sub category once per category, values per indicator and unit, volumes per goal', () => {
    const rows = [
      row({ sdg: { '7': 'Clean energy' }, euObjective: { '1': 'Mitigation' } }),
      row({ indicatorKey: '2', indicator: 'Avoided', unit: 'tCO2e', value: 4, sdg: { '7': 'Clean energy', '13': 'Climate' } }),
      row({ category: 'Transport', subCategoryKey: 'rail', volume: 100, indicatorKey: '2', indicator: 'Avoided', unit: 'tCO2e', value: 6, sdg: { '11': 'Cities' }, euObjective: { '1': 'Mitigation' } }),
    ];
    const page = renderImpactCharts(rows, { currency: 'EUR', volumeName: 'Volume', valueName: 'Value', sdg: true, euObjectives: true, format });
    assert.deepEqual(bars(page), [
      ['chart-allocation-category', 'Energy', 300, 330],
      ['chart-allocation-category', 'Transport', 100, 110],
      ['chart-indicators-1', 'Generated', 10, 330],
      ['chart-indicators-2', 'Avoided', 10, 330],
      ['chart-allocation-sdg', 'SDG 7 Clean energy', 300, 330],
      ['chart-allocation-sdg', 'SDG 11 Cities', 100, 110],
      ['chart-allocation-sdg', 'SDG 13 Climate', 300, 330],
      ['chart-allocation-eu', '1 Mitigation', 400, 330],
    ]);
    // Without the goal columns, no goal charts; only one part when asked, under a prefix.
    assert.doesNotMatch(renderImpactCharts(rows, { currency: 'EUR', volumeName: 'Volume', valueName: 'Value', sdg: false, euObjectives: false, format }), /allocation-(sdg|eu)/);
    const values = renderImpactCharts(rows, { currency: 'EUR', volumeName: 'Volume', valueName: 'Value', sdg: true, euObjectives: true, format, only: 'indicators', idPrefix: 'x-' });
    assert.deepEqual([...new Set(bars(values).map(([id]) => id))], ['x-chart-indicators-1', 'x-chart-indicators-2']);
    assert.equal(renderImpactCharts([], { currency: 'EUR', volumeName: 'Volume', valueName: 'Value', sdg: true, euObjectives: true, format }), '');
  });

  it('a chart is an image named by its title and described, with a table of the same figures; text escaped', () => {
    const svg = renderBarChart({ id: 'c', title: 'A <b> & "c"', description: 'd', labelHeading: 'L', valueHeading: 'V', bars: [{ label: '<x>', value: 2 }, { label: 'y', value: 0 }], format });
    assert.match(svg, /<svg [^>]*role="img" aria-labelledby="c-title c-desc"/);
    assert.match(svg, /<title id="c-title">A &lt;b&gt; &amp; &quot;c&quot;<\/title>/);
    assert.match(svg, /<table class="chart-data"><caption>A &lt;b&gt; &amp; &quot;c&quot;<\/caption>/);
    assert.match(svg, /<tr><th scope="row">&lt;x&gt;<\/th><td class="num" data-value="2">2.00<\/td><\/tr><tr><th scope="row">y<\/th><td class="num" data-value="0">0.00<\/td><\/tr>/);
    assert.ok(!svg.includes('<x>'));
  });

  it('bar lengths are proportional, never negative, and nothing when all are zero', () => {
    assert.equal(barLength(5, 10), 165);
    assert.equal(barLength(10, 10), 330);
    assert.equal(barLength(-1, 10), 0);
    assert.equal(barLength(0, 0), 0);
    assert.equal(barLength(1, 3), 110);
  });
});
