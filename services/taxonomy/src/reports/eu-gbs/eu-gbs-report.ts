import { createHash } from 'node:crypto';
import type { DataSource } from 'typeorm';
import type { Caller } from '@green-impact/shared/caller';
import { EU_GBS_DOCUMENTS, type EuGbsDocument } from '@green-impact/shared/eu-green-bonds';
import { FailedPreconditionError, InvalidArgumentError } from '@green-impact/shared/errors';
import { formatPercent } from '@green-impact/shared/figures';
import { date } from '../../frameworks/bond-report.js';
import * as input from '../../frameworks/inputs.js';
import { OWNED_MSG } from '../../frameworks/messages.js';
import { accountOf, FRAMEWORK, PROJECT, requireOwned } from '../../frameworks/owned.js';
import { readRows, type DetailRow } from '../../frameworks/rows.js';
import { fxFactors } from '../../projects/build.js';
import { financingShare } from '../../projects/financing.js';
import { LAYER_COLUMNS, layerOf, type LayerColumns } from '../../projects/taxonomy-layers.js';
import type { LanguageCatalog } from '../../reference/language-catalog.js';
import * as v from '../../validation.js';
import type { RenderedReport } from '../icma-report.js';
import { renderEuGbsAllocationReport } from './allocation-report.js';
import { renderEuGbsFactsheet, renderEuGbsImpactReport } from './factsheet.js';
import type { EuGbsBond, EuGbsImpact } from './page.js';
import { checkArticle5, taxonomyAlignment } from './taxonomy-layer.js';

export const EU_GBS_HTML_TYPE = 'text/html; charset=utf-8';

export interface EuGbsRequest {
  frameworkIdentifier: string;
  reportingYear: number;
  document: string;
  publicationDate?: string | undefined;
  decimals?: number | undefined;
  languageCode?: string | undefined;
}

interface BondRow {
  issuer_lei: string | null;
  external_reviewer: string | null;
  approving_authority: string | null;
  value_outstanding: number | null;
  reporting_period_start: string | null;
  reporting_period_end: string | null;
  unallocated_proceeds_placement: string | null;
}

interface AllocationRow extends LayerColumns {
  id: number;
  identifier: string;
  name: string;
  currency_code: string;
  country_code: string | null;
  financing_type: string | null;
  allocated_amount: number;
  total_project_cost: number | null;
  signed_amount: number | null;
}

function documentOf(value: string): EuGbsDocument {
  const d = value.trim().toLowerCase();
  if ((EU_GBS_DOCUMENTS as readonly string[]).includes(d)) return d as EuGbsDocument;
  throw new InvalidArgumentError(OWNED_MSG.euGbsDocument, { field: 'document' });
}

/** How a value was obtained, as the impact section's methodology column says it; null when nothing is known. */
function methodology(r: DetailRow, share: number | undefined): string | null {
  const source = [r.methodologySource, r.methodologyVersion && `version ${r.methodologyVersion}`].filter(Boolean).join(', ');
  const parts = [
    [r.indicatorValueType, r.indicatorValueBasis].filter(Boolean).join(', '),
    r.baselineValue !== undefined ? `baseline ${r.baselineValue}` : '',
    r.emissionFactor !== undefined ? `emission factor ${r.emissionFactor}` : '',
    source,
    share !== undefined ? `issuer's share ${formatPercent(share * 100, 2)}` : '',
  ].filter((p) => p !== '');
  return parts.length ? parts.join('; ') : null;
}

/**
 * The EU Green Bond Standard's documents of a framework's year (RenderEuGbsDocument): the framework is the
 * bond (its name, LEI, reviewer, authority; its year's value outstanding as the proceeds, reporting period
 * and placement of unallocated proceeds), each of the owner's projects with an allocated amount in the year
 * is an allocation (in the framework currency, with its taxonomy layer), and their indicator values are the
 * impacts (the issuer's pro-rata share where the project's financing is known, as buildFrameworkFromProjects
 * counts them; the factsheet's are the expected ones, Annex I §5). Read in one transaction with the
 * framework locked as a build locks it; rendered by page.ts and its annexes. Only the owner reports.
 */
export class EuGbsReporter {
  constructor(
    private readonly ds: DataSource,
    private readonly languages: LanguageCatalog,
  ) {}

  async render(caller: Caller, req: EuGbsRequest): Promise<RenderedReport> {
    const account = accountOf(caller);
    const identifier = input.identifier('framework_identifier', req.frameworkIdentifier);
    const year = v.reportingYear(req.reportingYear);
    const document = documentOf(req.document);
    const publicationDate = req.publicationDate?.trim() ? date('publication_date', req.publicationDate) : null;
    const decimals = input.decimals(req.decimals);
    const lang = this.languages.optional(req.languageCode)?.code ?? null;
    return this.ds.transaction(async (m) => {
      const framework = await requireOwned(m, FRAMEWORK, account, identifier);
      const [b]: BondRow[] = await m.query(
        `SELECT f.issuer_lei, f.external_reviewer, f.approving_authority, y.value_outstanding,
                y.reporting_period_start::text AS reporting_period_start, y.reporting_period_end::text AS reporting_period_end,
                y.unallocated_proceeds_placement
         FROM taxonomy.frameworks f
         LEFT JOIN taxonomy.framework_year_specifics y ON y.framework_id = f.id AND y.reporting_year = $2
         WHERE f.id = $1`,
        [framework.id, year],
      );
      if (!b || b.value_outstanding === null) throw new FailedPreconditionError(OWNED_MSG.euGbsNeedsYearSpecifics(identifier, year));
      const refs: AllocationRow[] = await m.query(
        `SELECT p.id, p.identifier, p.name, p.currency_code, p.country_code, p.financing_type,
                y.allocated_amount, y.total_project_cost, y.signed_amount, ${LAYER_COLUMNS}
         FROM taxonomy.projects p
         JOIN taxonomy.project_year_specifics y ON y.project_id = p.id AND y.reporting_year = $3
         WHERE p.framework_id = $1 AND p.account_id = $2 ORDER BY p.identifier, p.id`,
        [framework.id, account, year],
      );
      const factors = await fxFactors(m, framework, refs, year, OWNED_MSG.reportNoFxRate);
      const bond: EuGbsBond = {
        bondName: framework.name,
        // The portfolio service's assets hold no ISIN (docs/reporting-standards.md).
        isins: [],
        issuerLei: b.issuer_lei,
        externalReviewer: b.external_reviewer,
        approvingAuthority: b.approving_authority,
        currencyCode: framework.currencyCode,
        publicationDate,
        reportingPeriodStart: b.reporting_period_start,
        reportingPeriodEnd: b.reporting_period_end,
        proceeds: b.value_outstanding,
        unallocatedPlacement: b.unallocated_proceeds_placement,
        allocations: refs.map((p) => ({
          projectIdentifier: p.identifier,
          projectName: p.name,
          countryCode: p.country_code,
          financingType: p.financing_type,
          amount: p.allocated_amount * factors.get(p.id)!,
          layer: layerOf(p),
        })),
      };
      checkArticle5(taxonomyAlignment(bond.allocations), bond.proceeds);
      const impacts: EuGbsImpact[] = [];
      for (const p of refs) {
        const share = financingShare(p.signed_amount, p.total_project_cost);
        for (const r of await readRows(m, this.languages, PROJECT, p.id, year, lang)) {
          if (document === 'factsheet' && r.indicatorValueType === 'measured') continue;
          impacts.push({
            projectIdentifier: p.identifier,
            indicator: r.indicatorName,
            unit: r.unitName,
            value: r.indicatorValue * (share ?? 1),
            methodology: methodology(r, share),
          });
        }
      }
      const text = { impacts, environmentalStrategy: null, otherInformation: null };
      const html =
        document === 'factsheet'
          ? renderEuGbsFactsheet({ ...bond, ...text, reporting: null }, decimals)
          : document === 'impact_report'
            ? renderEuGbsImpactReport({ ...bond, ...text }, decimals)
            : renderEuGbsAllocationReport(bond, decimals);
      const content = Buffer.from(html, 'utf8');
      return { content, contentType: EU_GBS_HTML_TYPE, sha256: createHash('sha256').update(content).digest('hex'), frameworkId: framework.id };
    });
  }
}
