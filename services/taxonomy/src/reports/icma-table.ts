import { decimalString } from '@green-impact/shared/figures';
import type { DetailRow } from '../frameworks/rows.js';
import { csv, num, text, type Cell } from './csv.js';

/**
 * ICMA's summary impact table (Harmonised Framework for Impact Reporting, chapter V; docs/reporting-standards.md)
 * from a framework's projects of one year: project by project (one line per project and indicator), or
 * portfolio level (one line per eligible sub category and indicator, in the framework currency), as CSV here
 * and as a workbook of both (icma-workbook.ts) from the same lines. The issuer's share of a value is the
 * value times the project's financing share (signed ÷ total cost) where known, else the full value, as buildFrameworkFromProjects counts it. Pure: same input, same bytes.
 */
export interface IcmaProject {
  identifier: string;
  name: string;
  currencyCode: string;
  /** Framework-currency units per project-currency unit in the year (1 for the same currency). */
  fxFactor: number;
  countryCode: string | null;
  lifetimeYears: number | null;
  financingType: string | null;
  totalProjectCost: number | null;
  signedAmount: number | null;
  allocatedAmount: number | null;
  rows: DetailRow[];
}

export interface IcmaTableInput {
  frameworkCurrencyCode: string;
  year: number;
  /** In identifier order. */
  projects: IcmaProject[];
}

export type IcmaLevel = 'project' | 'portfolio';

export const PROJECT_HEADER = [
  'Reporting year', 'Project identifier', 'Project name', 'Country', 'Eligible category', 'Sub category', 'Financing or refinancing',
  'Project lifetime (years)', 'Currency', 'Total project cost', 'Signed amount', 'Share of total project financing (%)', 'Allocated amount',
  'Indicator', 'Unit', 'Value (100 % of project)', "Value (issuer's share)", 'Value type', 'Value basis', 'Baseline', 'Emission factor',
  'Methodology source', 'Methodology version',
] as const;

export const PORTFOLIO_HEADER = [
  'Reporting year', 'Eligible category', 'Sub category', 'Currency', 'Signed amount', 'Share of total project financing (%)', 'Allocated amount',
  'Average project lifetime (years; allocation-weighted)', 'Projects', 'Projects counted pro rata',
  'Indicator', 'Unit', 'Value (100 % of projects)', "Value (issuer's share)",
] as const;

/** signed ÷ total cost, when both are known. */
export function shareOf(p: Pick<IcmaProject, 'signedAmount' | 'totalProjectCost'>): number | undefined {
  return p.signedAmount !== null && p.totalProjectCost !== null && p.totalProjectCost > 0 ? p.signedAmount / p.totalProjectCost : undefined;
}

/**
 * How a renderer writes the table's cells: the CSV formats numbers to text, the workbook keeps them typed.
 * amount: amounts and indicator values; percent: a percentage (25 for 25 %); integer: years and counts.
 */
export interface CellMaker<C> {
  text(value: string | null | undefined): C;
  amount(value: number | null | undefined): C;
  percent(value: number | undefined): C;
  integer(value: number | null): C;
}

/** The table's lines (under PROJECT_HEADER or PORTFOLIO_HEADER), in the cells of one renderer. */
export function icmaTableCells<C>(input: IcmaTableInput, level: IcmaLevel, c: CellMaker<C>): C[][] {
  return level === 'project' ? projectLines(input, c) : portfolioLines(input, c);
}

export function icmaTableCsv(input: IcmaTableInput, level: IcmaLevel, decimals: number): string {
  const n = (value: number | null | undefined) => num(value === null || value === undefined ? null : decimalString(value, decimals));
  const cells: CellMaker<Cell> = { text, amount: n, percent: n, integer: (value) => num(value === null ? null : String(value)) };
  return csv(level === 'project' ? PROJECT_HEADER : PORTFOLIO_HEADER, icmaTableCells(input, level, cells));
}

function projectLines<C>(input: IcmaTableInput, c: CellMaker<C>): C[][] {
  const lines: C[][] = [];
  const year = c.integer(input.year);
  const none = c.text(null);
  for (const p of input.projects) {
    const share = shareOf(p);
    const head = (r: DetailRow | undefined): C[] => [
      year, c.text(p.identifier), c.text(p.name), c.text(p.countryCode), c.text(r?.categoryName), c.text(r?.subCategoryName), c.text(p.financingType),
      c.integer(p.lifetimeYears), c.text(p.currencyCode), c.amount(p.totalProjectCost), c.amount(p.signedAmount),
      c.percent(share === undefined ? undefined : share * 100), c.amount(p.allocatedAmount),
    ];
    // A project without rows of the year still shows its financing and allocation.
    if (p.rows.length === 0) lines.push([...head(undefined), ...Array<C>(10).fill(none)]);
    for (const r of p.rows) {
      lines.push([
        ...head(r), c.text(r.indicatorName), c.text(r.unitName), c.amount(r.indicatorValue), c.amount(r.indicatorValue * (share ?? 1)),
        c.text(r.indicatorValueType), c.text(r.indicatorValueBasis), c.amount(r.baselineValue), c.amount(r.emissionFactor), c.text(r.methodologySource),
        c.text(r.methodologyVersion),
      ]);
    }
  }
  return lines;
}

interface PortfolioLine {
  row: DetailRow;
  projects: Set<string>;
  proRata: Set<string>;
  full: number;
  issuerShare: number;
}

function portfolioLines<C>(input: IcmaTableInput, c: CellMaker<C>): C[][] {
  const year = c.integer(input.year);
  const lines = new Map<string, PortfolioLine>();
  /** Per sub category: its allocation, each project's volume counted once, in the framework currency. */
  const allocated = new Map<number, Map<string, number>>();
  const byIdentifier = new Map(input.projects.map((p) => [p.identifier, p]));
  for (const p of input.projects) {
    const share = shareOf(p);
    for (const r of p.rows) {
      const key = `${r.categoryId}/${r.subCategoryId}/${r.indicatorId}`;
      const line = lines.get(key) ?? { row: r, projects: new Set(), proRata: new Set(), full: 0, issuerShare: 0 };
      line.projects.add(p.identifier);
      if (share !== undefined) line.proRata.add(p.identifier);
      line.full += r.indicatorValue;
      line.issuerShare += r.indicatorValue * (share ?? 1);
      lines.set(key, line);
      const volumes = allocated.get(r.subCategoryId) ?? new Map<string, number>();
      volumes.set(p.identifier, r.subCategoryVolume * p.fxFactor);
      allocated.set(r.subCategoryId, volumes);
    }
  }
  const sorted = [...lines.values()].sort(
    (a, b) => a.row.categoryId - b.row.categoryId || a.row.subCategoryId - b.row.subCategoryId || a.row.superIndicatorId - b.row.superIndicatorId || a.row.indicatorId - b.row.indicatorId,
  );
  return sorted.map((l) => {
    const volumes = allocated.get(l.row.subCategoryId)!;
    const f = financing([...volumes].map(([id, volume]) => ({ project: byIdentifier.get(id)!, volume })));
    return [
      year, c.text(l.row.categoryName), c.text(l.row.subCategoryName), c.text(input.frameworkCurrencyCode), c.amount(f.signed), c.percent(f.sharePercent),
      c.amount([...volumes.values()].reduce((a, b) => a + b, 0)), c.amount(f.lifetime),
      c.integer(l.projects.size), c.integer(l.proRata.size), c.text(l.row.indicatorName), c.text(l.row.unitName), c.amount(l.full), c.amount(l.issuerShare),
    ];
  });
}

/**
 * A sub category's financing, in the framework currency, over its projects: the signed amounts where known;
 * their share of the same projects' total cost (only projects with both known); the lifetime weighted by each
 * project's volume in the sub category (only projects with a lifetime). Undefined where no project knows it.
 */
function financing(items: { project: IcmaProject; volume: number }[]): { signed?: number; sharePercent?: number; lifetime?: number } {
  const signed = items.filter((i) => i.project.signedAmount !== null);
  const both = items.filter((i) => shareOf(i.project) !== undefined);
  const lived = items.filter((i) => i.project.lifetimeYears !== null);
  const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);
  const weight = sum(lived.map((i) => i.volume));
  return {
    ...(signed.length ? { signed: sum(signed.map((i) => i.project.signedAmount! * i.project.fxFactor)) } : {}),
    ...(both.length
      ? { sharePercent: (100 * sum(both.map((i) => i.project.signedAmount! * i.project.fxFactor))) / sum(both.map((i) => i.project.totalProjectCost! * i.project.fxFactor)) }
      : {}),
    ...(lived.length && weight > 0 ? { lifetime: sum(lived.map((i) => i.project.lifetimeYears! * i.volume)) / weight } : {}),
  };
}
