import { icmaTableCells, PORTFOLIO_HEADER, PROJECT_HEADER, type CellMaker, type IcmaTableInput } from './icma-table.js';
import { xlsx, type XCell } from './xlsx.js';

/**
 * ICMA's summary impact table as an XLSX workbook, laid out like the handbook's illustrative summary
 * templates (docs/reporting-standards.md): a sheet for the portfolio level and one for project by project,
 * each with a header block naming the bond (the framework), the reporting year and the currency above the
 * column headers. The lines and columns are the CSV's (icma-table.ts), with numbers kept as numbers:
 * amounts and values shown with `decimals` decimals, the share of total project financing as a percentage
 * (the cell holds the fraction, 0.25 for 25 %), years and counts as integers. Pure: same input, same bytes.
 */
export interface IcmaWorkbookInput extends IcmaTableInput {
  frameworkIdentifier: string;
  frameworkName: string;
}

export const PORTFOLIO_SHEET = 'Portfolio summary';
export const PROJECT_SHEET = 'Project by project';

const cells: CellMaker<XCell> = {
  text: (value) => (value === null || value === undefined ? null : { text: value }),
  amount: (value) => (value === null || value === undefined ? null : { number: value, format: 'amount' }),
  percent: (value) => (value === undefined ? null : { number: value / 100, format: 'percent' }),
  integer: (value) => (value === null ? null : { number: value, format: 'integer' }),
};

export function icmaWorkbook(input: IcmaWorkbookInput, decimals: number): Buffer {
  const bond: XCell = { text: `${input.frameworkName} (${input.frameworkIdentifier})` };
  const year: XCell = { number: input.year, format: 'integer' };
  const currency: XCell = { text: input.frameworkCurrencyCode };
  return xlsx(
    [
      {
        name: PORTFOLIO_SHEET,
        title: 'ICMA summary impact reporting: portfolio level',
        fields: [['Green bond / framework', bond], ['Reporting year', year], ['Currency', currency]],
        header: PORTFOLIO_HEADER,
        rows: icmaTableCells(input, 'portfolio', cells),
      },
      {
        name: PROJECT_SHEET,
        title: 'ICMA summary impact reporting: project by project',
        fields: [
          ['Green bond / framework', bond],
          ['Reporting year', year],
          ['Currency', { text: `${input.frameworkCurrencyCode} (the framework's); each project's amounts in its own currency (column Currency)` }],
        ],
        header: PROJECT_HEADER,
        rows: icmaTableCells(input, 'project', cells),
      },
    ],
    decimals,
  );
}
