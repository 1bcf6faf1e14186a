import { createHash } from 'node:crypto';
import type { DataSource } from 'typeorm';
import type { Caller } from '@green-impact/shared/caller';
import { FailedPreconditionError, InvalidArgumentError } from '@green-impact/shared/errors';
import * as input from '../frameworks/inputs.js';
import { OWNED_MSG } from '../frameworks/messages.js';
import { accountOf, FRAMEWORK, PROJECT, requireOwned } from '../frameworks/owned.js';
import { readRows } from '../frameworks/rows.js';
import { fxFactors } from '../projects/build.js';
import type { LanguageCatalog } from '../reference/language-catalog.js';
import * as v from '../validation.js';
import { icmaTableCsv, type IcmaLevel, type IcmaProject } from './icma-table.js';
import { icmaWorkbook, type IcmaWorkbookInput } from './icma-workbook.js';
import { XLSX_TYPE } from './xlsx.js';

export interface IcmaWorkbookRequest {
  frameworkIdentifier: string;
  reportingYear: number;
  decimals?: number | undefined;
  languageCode?: string | undefined;
}

export interface IcmaTableRequest extends IcmaWorkbookRequest {
  level?: string | undefined;
}

export interface RenderedReport {
  content: Buffer;
  contentType: string;
  sha256: string;
  frameworkId: number;
}

interface ProjectFinancingRow {
  id: number;
  identifier: string;
  name: string;
  currency_code: string;
  country_code: string | null;
  lifetime_years: number | null;
  financing_type: string | null;
  total_project_cost: number | null;
  signed_amount: number | null;
  allocated_amount: number | null;
}

export const ICMA_CSV_TYPE = 'text/csv; charset=utf-8';

function level(value: string | undefined): IcmaLevel {
  const l = (value ?? '').trim().toLowerCase();
  if (l === '' || l === 'project') return 'project';
  if (l === 'portfolio') return 'portfolio';
  throw new InvalidArgumentError(OWNED_MSG.reportLevel, { field: 'level' });
}

/**
 * ICMA's impact table of a framework's year: read from the owner's projects referring to the framework in one
 * transaction (the framework locked as a build locks it), rendered as CSV by icma-table.ts
 * (RenderIcmaImpactTable) or as a workbook by icma-workbook.ts (RenderIcmaImpactWorkbook). Only the
 * framework's owner reports (its projects may be private).
 */
export class IcmaReporter {
  constructor(
    private readonly ds: DataSource,
    private readonly languages: LanguageCatalog,
  ) {}

  async render(caller: Caller, req: IcmaTableRequest): Promise<RenderedReport> {
    const lvl = level(req.level);
    return this.report(caller, req, (input, decimals) => ({ content: Buffer.from(icmaTableCsv(input, lvl, decimals), 'utf8'), contentType: ICMA_CSV_TYPE }));
  }

  async renderWorkbook(caller: Caller, req: IcmaWorkbookRequest): Promise<RenderedReport> {
    return this.report(caller, req, (input, decimals) => ({ content: icmaWorkbook(input, decimals), contentType: XLSX_TYPE }));
  }

  private async report(
    caller: Caller,
    req: IcmaWorkbookRequest,
    write: (input: IcmaWorkbookInput, decimals: number) => { content: Buffer; contentType: string },
  ): Promise<RenderedReport> {
    const account = accountOf(caller);
    const identifier = input.identifier('framework_identifier', req.frameworkIdentifier);
    const year = v.reportingYear(req.reportingYear);
    const decimals = input.decimals(req.decimals);
    const lang = this.languages.optional(req.languageCode)?.code ?? null;
    return this.ds.transaction(async (m) => {
      const framework = await requireOwned(m, FRAMEWORK, account, identifier);
      const refs: ProjectFinancingRow[] = await m.query(
        `SELECT p.id, p.identifier, p.name, p.currency_code, p.country_code, p.lifetime_years, p.financing_type,
                y.total_project_cost, y.signed_amount, y.allocated_amount
         FROM taxonomy.projects p
         LEFT JOIN taxonomy.project_year_specifics y ON y.project_id = p.id AND y.reporting_year = $3
         WHERE p.framework_id = $1 AND p.account_id = $2 ORDER BY p.identifier, p.id`,
        [framework.id, account, year],
      );
      if (refs.length === 0) throw new FailedPreconditionError(OWNED_MSG.reportNeedsProjects(identifier));
      const factors = await fxFactors(m, framework, refs, year, OWNED_MSG.reportNoFxRate);
      const projects: IcmaProject[] = [];
      for (const p of refs) {
        projects.push({
          identifier: p.identifier,
          name: p.name,
          currencyCode: p.currency_code,
          fxFactor: factors.get(p.id)!,
          countryCode: p.country_code,
          lifetimeYears: p.lifetime_years,
          financingType: p.financing_type,
          totalProjectCost: p.total_project_cost,
          signedAmount: p.signed_amount,
          allocatedAmount: p.allocated_amount,
          rows: await readRows(m, this.languages, PROJECT, p.id, year, lang),
        });
      }
      const { content, contentType } = write(
        { frameworkIdentifier: framework.identifier, frameworkName: framework.name, frameworkCurrencyCode: framework.currencyCode, year, projects },
        decimals,
      );
      return { content, contentType, sha256: createHash('sha256').update(content).digest('hex'), frameworkId: framework.id };
    });
  }
}
