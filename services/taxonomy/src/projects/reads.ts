import type { DataSource } from 'typeorm';
import type { Visibility } from '@green-impact/proto/greenimpact/common/v1/common';
import type { ProjectDetail, ProjectSummary } from '@green-impact/proto/greenimpact/taxonomy/v1/taxonomy';
import type { Caller } from '@green-impact/shared/caller';
import { cappedListing, type ListingOrders } from '@green-impact/shared/paging';
import type { OwnedRecord, VisibilityValue } from '../frameworks/entities.js';
import * as input from '../frameworks/inputs.js';
import { accountOf, ownedColumns, PROJECT, requireVisible, visibleTo } from '../frameworks/owned.js';
import { ownedPage, type OwnedPage, type OwnedPageRequest } from '../frameworks/owned-pages.js';
import { readRows } from '../frameworks/rows.js';
import type { LanguageCatalog } from '../reference/language-catalog.js';
import * as v from '../validation.js';
import { isAligned } from '../reports/eu-gbs/taxonomy-layer.js';
import { financingShare } from './financing.js';
import { LAYER_COLUMNS, layerOf, type LayerColumns } from './taxonomy-layers.js';

interface SummaryRecord extends OwnedRecord, LayerColumns {
  frameworkIdentifier: string;
  frameworkName: string;
  allocatedAmount: number | null;
  countryCode: string | null;
  lifetimeYears: number | null;
  financingType: string | null;
  totalProjectCost: number | null;
  signedAmount: number | null;
}

/** The summaries' SELECT … FROM, with `extra` appended to the select list (a page's order value). */
const summarySql = (extra = '') => `
  SELECT ${ownedColumns('p')}, f.identifier AS "frameworkIdentifier", f.name AS "frameworkName",
         y.allocated_amount AS "allocatedAmount", p.country_code AS "countryCode", p.lifetime_years AS "lifetimeYears",
         p.financing_type AS "financingType", y.total_project_cost AS "totalProjectCost", y.signed_amount AS "signedAmount",
         ${LAYER_COLUMNS}${extra}
  FROM taxonomy.projects p
  JOIN taxonomy.frameworks f ON f.id = p.framework_id
  LEFT JOIN taxonomy.project_year_specifics y ON y.project_id = p.id AND y.reporting_year = $2`;

/**
 * The orders a project page can be read in (GraphQL ProjectOrderField), each then by id. A project
 * without a country, or without year specifics (its allocated amount), sorts as PostgreSQL puts NULLs:
 * last going up, first going down ('ZZZ' follows every two-letter code the column admits).
 */
const PROJECT_ORDERS: ListingOrders = {
  id: { sql: 'p.id', type: 'bigint' },
  columns: {
    identifier: { sql: 'p.identifier', type: 'text' },
    name: { sql: 'p.name', type: 'text' },
    framework_identifier: { sql: 'f.identifier', type: 'text' },
    country_code: { sql: "COALESCE(p.country_code, 'ZZZ')", type: 'text' },
    allocated_amount: { sql: "COALESCE(y.allocated_amount, 'Infinity'::float8)", type: 'float8' },
  },
};

/** Project reads (spec §4.7): the caller's own projects and other accounts' public ones. */
export class ProjectReader {
  constructor(
    private readonly ds: DataSource,
    private readonly languages: LanguageCatalog,
    /** MAX_LIST_ITEMS: the most projects an unpaged list answers. */
    private readonly maxListItems: number,
  ) {}

  /** The visible projects in identifier order, cut as FrameworkReader.list cuts (own first, at most MAX_LIST_ITEMS). */
  async list(caller: Caller, reportingYear: number, visibility?: Visibility): Promise<{ projects: ProjectSummary[]; totalCount: number | undefined }> {
    const account = accountOf(caller);
    const year = v.reportingYear(reportingYear);
    const filter = input.visibility('project_visibility', visibility);
    const rows: SummaryRecord[] = await this.ds.query(
      `SELECT * FROM (${summarySql()} WHERE ${visibleTo('p', filter)} ORDER BY (p.account_id = $1) DESC, p.id LIMIT $3) capped
       ORDER BY capped.identifier, (capped."accountId" = $1) DESC, capped.id`,
      [account, year, this.maxListItems],
    );
    const { items, totalCount } = await cappedListing(rows, this.maxListItems, () => this.count(account, filter));
    return { projects: items.map((r) => projectSummary(r, account, year)), totalCount };
  }

  /**
   * One page of the visible projects in the asked order (PROJECT_ORDERS; default id), forward or backward
   * (owned-pages.ts), with how many are visible: the same visibility rules and filter as list.
   */
  async page(
    caller: Caller,
    reportingYear: number,
    visibility: Visibility | undefined,
    page: OwnedPageRequest,
  ): Promise<Omit<OwnedPage<SummaryRecord>, 'rows'> & { projects: ProjectSummary[] }> {
    const account = accountOf(caller);
    const year = v.reportingYear(reportingYear);
    const filter = input.visibility('project_visibility', visibility);
    const listing = { select: summarySql, where: visibleTo('p', filter), params: [account, year], count: () => this.count(account, filter) };
    const { rows, ...paging } = await ownedPage<SummaryRecord>(this.ds, listing, PROJECT_ORDERS, page);
    return { projects: rows.map((r) => projectSummary(r, account, year)), ...paging };
  }

  /** How many projects the caller sees under the visibility filter. */
  private async count(account: string, filter: VisibilityValue | undefined): Promise<number> {
    const [count]: { count: string | number }[] = await this.ds.query(`SELECT count(*) AS count FROM taxonomy.projects p WHERE ${visibleTo('p', filter)}`, [account]);
    return Number(count?.count ?? 0);
  }

  /** The summary and rows of one project (own, else public) for the year, names in the requested language. */
  async details(caller: Caller, projectIdentifier: string, reportingYear: number, languageCode?: string): Promise<ProjectDetail> {
    const account = accountOf(caller);
    const identifier = input.identifier('project_identifier', projectIdentifier);
    const year = v.reportingYear(reportingYear);
    const lang = this.languages.optional(languageCode)?.code ?? null;
    const project = await requireVisible(this.ds, PROJECT, account, identifier);
    const [summary]: SummaryRecord[] = await this.ds.query(`${summarySql()} WHERE p.id = $1`, [project.id, year]);
    const rows = await readRows(this.ds, this.languages, PROJECT, project.id, year, lang);
    return {
      projectSummary: projectSummary(summary!, account, year),
      project: rows.map((r) => ({ ...r, projectCurrencyCode: project.currencyCode })),
    };
  }
}

function projectSummary(p: SummaryRecord, account: string, year: number): ProjectSummary {
  const share = financingShare(p.signedAmount, p.totalProjectCost);
  const layer = layerOf(p);
  return {
    projectId: p.id,
    projectIdentifier: p.identifier,
    projectName: p.name,
    ...(p.allocatedAmount !== null ? { projectAllocatedAmount: p.allocatedAmount } : {}),
    projectCurrencyCode: p.currencyCode,
    frameworkIdentifier: p.frameworkIdentifier,
    frameworkName: p.frameworkName,
    projectVisibility: input.toVisibility(p.visibility),
    reportingYear: year,
    owned: p.accountId === account,
    ...(p.countryCode !== null ? { projectCountryCode: p.countryCode } : {}),
    ...(p.lifetimeYears !== null ? { projectLifetimeYears: p.lifetimeYears } : {}),
    ...(p.financingType !== null ? { projectFinancingType: p.financingType } : {}),
    ...(p.totalProjectCost !== null ? { totalProjectCost: p.totalProjectCost } : {}),
    ...(p.signedAmount !== null ? { signedAmount: p.signedAmount } : {}),
    ...(share !== undefined ? { financingShare: share } : {}),
    ...(layer
      ? {
          taxonomyLayer: {
            taxonomyActivityCode: layer.activityCode,
            taxonomyActivityName: layer.activityName,
            environmentalObjective: layer.objective,
            technicalScreeningMet: layer.technicalScreeningMet,
            doNoSignificantHarmMet: layer.doNoSignificantHarmMet,
            minimumSafeguardsMet: layer.minimumSafeguardsMet,
            assetType: layer.assetType,
            article5: layer.article5,
            aligned: isAligned(layer),
          },
        }
      : {}),
  };
}
