import { renderBarChart, type Bar } from './bar-chart.js';

/**
 * The charts of a framework or position document, from its rows (one per sub category and indicator),
 * as investors read impact reports along ICMA's Harmonised Framework: allocation by category, the
 * impacts per indicator (one chart per unit: values of different units share no scale), and allocation
 * by SDG and by EU environmental objective when the document shows them. Pure.
 */

export interface ImpactChartRow {
  category: string;
  /** Distinguishes sub categories: a sub category's volume repeats on each of its indicator rows. */
  subCategoryKey: string;
  /** The sub category's volume (framework) or attributed volume (position), in `currency`. */
  volume: number;
  indicatorKey: string;
  indicator: string;
  unit: string;
  /** The indicator's value (framework) or the attributed impact (position). */
  value: number;
  sdg?: Record<string, string> | undefined;
  euObjective?: Record<string, string> | undefined;
}

export interface ImpactChartOptions {
  currency: string;
  /** "Volume" or "Attributed volume"; "Indicator value" or "Impact". */
  volumeName: string;
  valueName: string;
  sdg: boolean;
  euObjectives: boolean;
  /** A figure as the document writes it, HTML. */
  format: (value: number) => string;
  /**
   * Which charts: all (default), or only the allocation charts (in `currency`) or only the indicator charts,
   * for a report over several framework currencies. `idPrefix` keeps the charts' ids apart on such a page.
   */
  only?: 'allocation' | 'indicators';
  idPrefix?: string;
}

/** Sums `value` per key, keeping the first label seen; bars in the order `order` gives. */
function sums(entries: { key: string; label: string; value: number }[]): Map<string, Bar> {
  const out = new Map<string, Bar>();
  for (const e of entries) {
    const bar = out.get(e.key);
    if (bar) bar.value += e.value;
    else out.set(e.key, { label: e.label, value: e.value });
  }
  return out;
}

const byValue = (a: Bar, b: Bar) => b.value - a.value || (a.label < b.label ? -1 : a.label > b.label ? 1 : 0);

/** Each sub category once, with its volume and the goals any of its rows names. */
function subCategories(rows: ImpactChartRow[]): { category: string; volume: number; sdg: Map<string, string>; eu: Map<string, string> }[] {
  const out = new Map<string, { category: string; volume: number; sdg: Map<string, string>; eu: Map<string, string> }>();
  for (const r of rows) {
    const sub = out.get(r.subCategoryKey) ?? { category: r.category, volume: r.volume, sdg: new Map(), eu: new Map() };
    for (const [no, name] of Object.entries(r.sdg ?? {})) sub.sdg.set(no, name);
    for (const [no, name] of Object.entries(r.euObjective ?? {})) sub.eu.set(no, name);
    out.set(r.subCategoryKey, sub);
  }
  return [...out.values()];
}

/** Allocation per goal: each sub category's volume counts for every goal it contributes to. */
function goalBars(subs: ReturnType<typeof subCategories>, goals: (s: ReturnType<typeof subCategories>[number]) => Map<string, string>, prefix: string): Bar[] {
  const entries = subs.flatMap((s) => [...goals(s)].map(([no, name]) => ({ key: no, label: `${prefix}${no} ${name}`, value: s.volume })));
  const bars = sums(entries);
  return [...bars.keys()].sort((a, b) => Number(a) - Number(b) || a.localeCompare(b)).map((k) => bars.get(k)!);
}

export function renderImpactCharts(rows: ImpactChartRow[], o: ImpactChartOptions): string {
  if (rows.length === 0) return '';
  const subs = subCategories(rows);
  const volumeHeading = `${o.volumeName} (${o.currency})`;
  const charts: string[] = [];
  const id = (name: string) => `${o.idPrefix ?? ''}chart-${name}`;
  if (o.only !== 'indicators') charts.push(
    renderBarChart({
      id: id('allocation-category'),
      title: `${o.volumeName} by category (${o.currency})`,
      description: `${o.volumeName} of each category in ${o.currency}: the sum of its sub categories' volumes.`,
      labelHeading: 'Category',
      valueHeading: volumeHeading,
      bars: [...sums(subs.map((s) => ({ key: s.category, label: s.category, value: s.volume }))).values()].sort(byValue),
      format: o.format,
    }),
  );
  const units = [...new Set(rows.map((r) => r.unit))];
  if (o.only !== 'allocation') units.forEach((unit, i) => {
    const bars = sums(rows.filter((r) => r.unit === unit).map((r) => ({ key: r.indicatorKey, label: r.indicator, value: r.value })));
    charts.push(
      renderBarChart({
        id: id(`indicators-${i + 1}`),
        title: `${o.valueName} per indicator (${unit})`,
        description: `${o.valueName} of each indicator measured in ${unit}, summed over the sub categories.`,
        labelHeading: 'Indicator',
        valueHeading: `${o.valueName} (${unit})`,
        bars: [...bars.values()].sort(byValue),
        format: o.format,
      }),
    );
  });
  const goalChart = (name: string, what: string, bars: Bar[]) =>
    bars.length === 0 || o.only === 'indicators'
      ? ''
      : renderBarChart({
          id: id(name),
          title: `${o.volumeName} by ${what} (${o.currency})`,
          description: `${o.volumeName} in ${o.currency} of the sub categories contributing to each ${what}; a sub category contributing to several counts for each.`,
          labelHeading: what[0]!.toUpperCase() + what.slice(1),
          valueHeading: volumeHeading,
          bars,
          format: o.format,
        });
  if (o.sdg) charts.push(goalChart('allocation-sdg', 'SDG', goalBars(subs, (s) => s.sdg, 'SDG ')));
  if (o.euObjectives) charts.push(goalChart('allocation-eu', 'EU environmental objective', goalBars(subs, (s) => s.eu, '')));
  return charts.filter(Boolean).join('\n');
}
