import type { DataSource } from 'typeorm';
import type { Visibility } from '@green-impact/proto/greenimpact/common/v1/common';
import type { ProjectDetail, ProjectSummary } from '@green-impact/proto/greenimpact/taxonomy/v1/taxonomy';
import type { Caller } from '@green-impact/shared/caller';
import { cappedListing, decodePageToken, pageOf, pageSize, totalOf, type PageRequest } from '@green-impact/shared/paging';
import type { OwnedRecord } from '../frameworks/entities.js';
import * as input from '../frameworks/inputs.js';
import { accountOf, ownedColumns, PROJECT, requireVisible, visibleTo } from '../frameworks/owned.js';
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

const SUMMARY_SQL = `
  SELECT ${ownedColumns('p')}, f.identifier AS "frameworkIdentifier", f.name AS "frameworkName",
         y.allocated_amount AS "allocatedAmount", p.country_code AS "countryCode", p.lifetime_years AS "lifetimeYears",
         p.financing_type AS "financingType", y.total_project_cost AS "totalProjectCost", y.signed_amount AS "signedAmount",
         ${LAYER_COLUMNS}
  FROM taxonomy.projects p
  JOIN taxonomy.frameworks f ON f.id = p.framework_id
  LEFT JOIN taxonomy.project_year_specifics y ON y.project_id = p.id AND y.reporting_year = $2`;

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
      `SELECT * FROM (${SUMMARY_SQL} WHERE ${visibleTo('p', filter)} ORDER BY (p.account_id = $1) DESC, p.id LIMIT $3) capped
       ORDER BY capped.identifier, (capped."accountId" = $1) DESC, capped.id`,
      [account, year, this.maxListItems],
    );
    const { items, totalCount } = await cappedListing(rows, this.maxListItems, async () => {
      const [count]: { count: string | number }[] = await this.ds.query(`SELECT count(*) AS count FROM taxonomy.projects p WHERE ${visibleTo('p', filter)}`, [account]);
      return Number(count?.count ?? 0);
    });
    return { projects: items.map((r) => projectSummary(r, account, year)), totalCount };
  }

  /**
   * One page of the visible projects, in id order after the token's project (keyset: LIMIT size + 1
   * rows), with how many are visible: the same visibility rules and filter as list.
   */
  async page(caller: Caller, reportingYear: number, visibility: Visibility | undefined, page: PageRequest): Promise<{ projects: ProjectSummary[]; nextPageToken: string; totalCount: number }> {
    const account = accountOf(caller);
    const year = v.reportingYear(reportingYear);
    const filter = input.visibility('project_visibility', visibility);
    const size = pageSize(page.size);
    const after = decodePageToken(page.token);
    const rows: SummaryRecord[] = await this.ds.query(
      `${SUMMARY_SQL} WHERE ${visibleTo('p', filter)} AND p.id > $3::bigint ORDER BY p.id LIMIT $4`,
      [account, year, after?.id ?? 0, size + 1],
    );
    const totalCount = await totalOf(after, rows, size, async () => {
      const [count]: { count: string | number }[] = await this.ds.query(`SELECT count(*) AS count FROM taxonomy.projects p WHERE ${visibleTo('p', filter)}`, [account]);
      return Number(count?.count ?? 0);
    });
    const { items, nextPageToken } = pageOf(rows, size, after, (r) => r.id);
    return { projects: items.map((r) => projectSummary(r, account, year)), nextPageToken, totalCount };
  }

  /** The summary and rows of one project (own, else public) for the year, names in the requested language. */
  async details(caller: Caller, projectIdentifier: string, reportingYear: number, languageCode?: string): Promise<ProjectDetail> {
    const account = accountOf(caller);
    const identifier = input.identifier('project_identifier', projectIdentifier);
    const year = v.reportingYear(reportingYear);
    const lang = this.languages.optional(languageCode)?.code ?? null;
    const project = await requireVisible(this.ds, PROJECT, account, identifier);
    const [summary]: SummaryRecord[] = await this.ds.query(`${SUMMARY_SQL} WHERE p.id = $1`, [project.id, year]);
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
