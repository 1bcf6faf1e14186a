import { Visibility } from '@green-impact/proto/greenimpact/common/v1/common';
import type { AssetFrameworkRow } from '@green-impact/proto/greenimpact/portfolio/v1/portfolio';
import type {
  FrameworkDetail,
  FrameworkRow,
  FrameworkSummary,
  ProjectDetail,
  ProjectRow,
  ProjectSummary,
} from '@green-impact/proto/greenimpact/taxonomy/v1/taxonomy';
import { FailedPreconditionError, InternalError } from '@green-impact/shared/errors';
import { taxonomyClient } from '../clients.js';
import { BatchLoader } from './batch-loader.js';
import { callAs, type GraphqlContext } from './context.js';
import { RequestMemo } from './request-memo.js';
import type { Scope } from './taxonomy-reads.js';

/**
 * Frameworks and projects as GraphQL resolves them. The frameworks and projects connections are pages
 * the service reads (GetFrameworks / GetProjects with page_size / page_token, one call per field). Every
 * other read of a request is memoised by its arguments, so a query however deeply nested costs at most
 * one call per distinct read: the whole GetProjects per year (Framework.projects), GetFrameworkDetails /
 * GetProjectDetails per (identifier, year, language), and GetFrameworksByIdentifiers per year and batch
 * of sibling fields (Project.framework). Nothing is cached across requests, so a write acknowledged to a
 * caller is seen by its next read, paged or not.
 */

export type GqlVisibility = 'PUBLIC' | 'PRIVATE';

export interface GqlFrameworkYearSpecifics {
  valueOutstanding: number;
  allocatedAmount: number;
  activePercentage: number;
  valueOutstandingFramework: boolean;
}

export interface GqlFramework {
  id: number;
  identifier: string;
  name: string;
  currencyCode: string;
  visibility: GqlVisibility;
  owned: boolean;
  year: number;
  /** Null when the framework has no year specifics for `year`. */
  yearSpecifics: GqlFrameworkYearSpecifics | null;
  /** The EU GBS report fields (issue 37, reporting-schema.ts); null when not given. */
  issuerLei: string | null;
  externalReviewer: string | null;
  approvingAuthority: string | null;
  reportingPeriodStart: string | null;
  reportingPeriodEnd: string | null;
  unallocatedProceedsPlacement: string | null;
}

export interface GqlProject {
  id: number;
  identifier: string;
  name: string;
  currencyCode: string;
  visibility: GqlVisibility;
  owned: boolean;
  year: number;
  allocatedAmount: number | null;
  frameworkIdentifier: string;
  frameworkName: string;
  /** Issue 37 (reporting-schema.ts); null when not given. */
  countryCode: string | null;
  lifetimeYears: number | null;
  financingType: 'FINANCING' | 'REFINANCING' | null;
  totalProjectCost: number | null;
  signedAmount: number | null;
  financingShare: number | null;
  taxonomyLayer: GqlTaxonomyLayer | null;
}

/** A project's EU taxonomy layer of a year (reporting-schema.ts), enum values upper case. */
export interface GqlTaxonomyLayer {
  activityCode: string;
  activityName: string;
  objective: string;
  technicalScreeningMet: boolean;
  doNoSignificantHarmMet: boolean;
  minimumSafeguardsMet: boolean;
  assetType: string;
  article5: boolean;
  aligned: boolean;
}

/**
 * A framework, project or asset-attributed framework row; its taxonomy items resolve in `scope` (the row's
 * year, the requested language).
 */
export interface GqlRow {
  row: FrameworkRow | ProjectRow | AssetFrameworkRow;
  volume: number;
  value: number;
  currencyCode: string;
  year: number;
  language: string;
  languageCode: string;
  scope: Scope;
  /** Issue 37 (reporting-schema.ts); null when not given, and on an asset's attributed rows. */
  valueType: 'EXPECTED' | 'MEASURED' | null;
  valueBasis: 'GROSS' | 'NET' | null;
  baseline: number | null;
  emissionFactor: number | null;
  methodologySource: string | null;
  methodologyVersion: string | null;
}

export const toGqlVisibility = (v: Visibility): GqlVisibility => (v === Visibility.VISIBILITY_PUBLIC ? 'PUBLIC' : 'PRIVATE');

export function toFramework(s: FrameworkSummary, year: number): GqlFramework {
  const v = s.frameworkValueOutstanding;
  const l = s.frameworkAllocatedAmount;
  const pct = s.frameworkActivePercentage;
  const flag = s.valueOutstandingFramework;
  return {
    id: s.frameworkId,
    identifier: s.frameworkIdentifier,
    name: s.frameworkName,
    currencyCode: s.frameworkCurrencyCode,
    visibility: toGqlVisibility(s.frameworkVisibility),
    owned: s.owned,
    year,
    yearSpecifics:
      v === undefined || l === undefined || pct === undefined || flag === undefined
        ? null
        : { valueOutstanding: v, allocatedAmount: l, activePercentage: pct, valueOutstandingFramework: flag },
    issuerLei: s.issuerLei ?? null,
    externalReviewer: s.externalReviewer ?? null,
    approvingAuthority: s.approvingAuthority ?? null,
    reportingPeriodStart: s.reportingPeriodStart ?? null,
    reportingPeriodEnd: s.reportingPeriodEnd ?? null,
    unallocatedProceedsPlacement: s.unallocatedProceedsPlacement ?? null,
  };
}

export function toProject(s: ProjectSummary, year: number): GqlProject {
  return {
    id: s.projectId,
    identifier: s.projectIdentifier,
    name: s.projectName,
    currencyCode: s.projectCurrencyCode,
    visibility: toGqlVisibility(s.projectVisibility),
    owned: s.owned,
    year,
    allocatedAmount: s.projectAllocatedAmount ?? null,
    frameworkIdentifier: s.frameworkIdentifier,
    frameworkName: s.frameworkName,
    countryCode: s.projectCountryCode ?? null,
    lifetimeYears: s.projectLifetimeYears ?? null,
    financingType: s.projectFinancingType === 'refinancing' ? 'REFINANCING' : s.projectFinancingType === 'financing' ? 'FINANCING' : null,
    totalProjectCost: s.totalProjectCost ?? null,
    signedAmount: s.signedAmount ?? null,
    financingShare: s.financingShare ?? null,
    taxonomyLayer: s.taxonomyLayer
      ? {
          activityCode: s.taxonomyLayer.taxonomyActivityCode,
          activityName: s.taxonomyLayer.taxonomyActivityName,
          objective: s.taxonomyLayer.environmentalObjective.toUpperCase(),
          technicalScreeningMet: s.taxonomyLayer.technicalScreeningMet,
          doNoSignificantHarmMet: s.taxonomyLayer.doNoSignificantHarmMet,
          minimumSafeguardsMet: s.taxonomyLayer.minimumSafeguardsMet,
          assetType: s.taxonomyLayer.assetType.toUpperCase(),
          article5: s.taxonomyLayer.article5,
          aligned: s.taxonomyLayer.aligned,
        }
      : null,
  };
}

export function toRow(row: FrameworkRow | ProjectRow | AssetFrameworkRow, currencyCode: string, languageCode: string | undefined): GqlRow {
  return {
    row,
    volume: row.subCategoryVolume,
    value: row.indicatorValue,
    currencyCode,
    year: row.year,
    language: row.language,
    languageCode: row.languageCode,
    scope: { year: row.year, languageCode },
    ...valueMetadataOf(row),
  };
}

/** The detail's summary; the service always sends it. */
export function summaryOf<S>(summary: S | undefined): S {
  if (summary === undefined) throw new InternalError('Internal error.', { cause: new Error('taxonomy returned a detail without its summary') });
  return summary;
}

/**
 * A read by identifier resolves the caller's own item first (as on /v1/call). When a listed item of
 * another account shares its identifier with one of the caller's, its details cannot be read by
 * identifier: say so rather than answer the caller's own rows under the other item.
 */
function sameItem(kind: 'framework' | 'project', expectedId: number, gotId: number, identifier: string): void {
  if (expectedId !== gotId) {
    throw new FailedPreconditionError(
      `The rows of another account's ${kind} "${identifier}" cannot be read while you have a ${kind} with the same identifier.`,
    );
  }
}

/** One request's framework and project reads; get it with {@link frameworkReads}. */
export class FrameworkReads {
  private readonly memo = new RequestMemo();
  private readonly frameworksByIdentifier = new Map<number, BatchLoader<string, GqlFramework>>();

  constructor(private readonly ctx: GraphqlContext) {}

  frameworkDetail(identifier: string, year: number, languageCode: string | undefined): Promise<FrameworkDetail | undefined> {
    return this.memo.once(['frameworkDetail', identifier, year, languageCode], async () => {
      const req = { frameworkIdentifier: identifier, reportingYear: year, languageCode };
      return (await this.client().getFrameworkDetails(req, await callAs(this.ctx))).frameworks[0];
    });
  }

  /** The framework's rows of its year in a language; the framework must be the one its identifier reads. */
  async frameworkRows(framework: GqlFramework, languageCode: string | undefined): Promise<GqlRow[]> {
    const detail = await this.frameworkDetail(framework.identifier, framework.year, languageCode);
    if (!detail) return [];
    sameItem('framework', framework.id, summaryOf(detail.frameworkSummary).frameworkId, framework.identifier);
    return detail.framework.map((r) => toRow(r, r.frameworkCurrencyCode, languageCode));
  }

  /** The framework an identifier reads for the caller (own, else public), with the year's figures. */
  frameworkByIdentifier(identifier: string, year: number): Promise<GqlFramework | undefined> {
    let loader = this.frameworksByIdentifier.get(year);
    if (!loader) {
      loader = new BatchLoader(async (identifiers) => {
        const req = { frameworkIdentifiers: identifiers, frameworkIds: [], reportingYear: year };
        const { frameworks } = await this.client().getFrameworksByIdentifiers(req, await callAs(this.ctx));
        return new Map(frameworks.map((s) => [s.frameworkIdentifier, toFramework(s, year)]));
      });
      this.frameworksByIdentifier.set(year, loader);
    }
    return loader.load(identifier);
  }

  projects(year: number, visibility: Visibility | undefined): Promise<GqlProject[]> {
    return this.memo.once(['projects', year, visibility], async () => {
      const req = { reportingYear: year, projectVisibility: visibility };
      const { projects } = await this.client().getProjects(req, await callAs(this.ctx));
      return projects.map((s) => toProject(s, year));
    });
  }

  projectDetail(identifier: string, year: number, languageCode: string | undefined): Promise<ProjectDetail | undefined> {
    return this.memo.once(['projectDetail', identifier, year, languageCode], async () => {
      const req = { projectIdentifier: identifier, reportingYear: year, languageCode };
      return (await this.client().getProjectDetails(req, await callAs(this.ctx))).projects[0];
    });
  }

  async projectRows(project: GqlProject, languageCode: string | undefined): Promise<GqlRow[]> {
    const detail = await this.projectDetail(project.identifier, project.year, languageCode);
    if (!detail) return [];
    sameItem('project', project.id, summaryOf(detail.projectSummary).projectId, project.identifier);
    return detail.project.map((r) => toRow(r, r.projectCurrencyCode, languageCode));
  }

  /**
   * Visible projects of the year that refer to the framework. ProjectSummary names its framework by
   * identifier and name, not id, so those two are matched.
   */
  async projectsOf(framework: GqlFramework): Promise<GqlProject[]> {
    const all = await this.projects(framework.year, undefined);
    return all.filter((p) => p.frameworkIdentifier === framework.identifier && p.frameworkName === framework.name);
  }

  private client() {
    return taxonomyClient(this.ctx.clients);
  }
}


const perRequest = new WeakMap<GraphqlContext, FrameworkReads>();

/** The request's FrameworkReads (one per GraphQL context). */
export function frameworkReads(ctx: GraphqlContext): FrameworkReads {
  let reads = perRequest.get(ctx);
  if (!reads) perRequest.set(ctx, (reads = new FrameworkReads(ctx)));
  return reads;
}

/** Drops the request's memoised reads: a change made since makes them stale (payloads.ts). */
export function forgetFrameworkReads(ctx: GraphqlContext): void {
  perRequest.delete(ctx);
}

/** A row's value metadata (issue 37) as GraphQL shows it; an asset's attributed rows carry none. */
function valueMetadataOf(row: FrameworkRow | ProjectRow | AssetFrameworkRow) {
  const r = 'indicatorValueType' in row || 'methodologySource' in row ? (row as FrameworkRow) : ({} as Partial<FrameworkRow>);
  const upper = <T extends string>(v: string | undefined) => (v ? (v.toUpperCase() as T) : null);
  return {
    valueType: upper<'EXPECTED' | 'MEASURED'>(r.indicatorValueType),
    valueBasis: upper<'GROSS' | 'NET'>(r.indicatorValueBasis),
    baseline: r.baselineValue ?? null,
    emissionFactor: r.emissionFactor ?? null,
    methodologySource: r.methodologySource ?? null,
    methodologyVersion: r.methodologyVersion ?? null,
  };
}
