import { Visibility } from '@green-impact/proto/greenimpact/common/v1/common';
import type { AssetFrameworkRow } from '@green-impact/proto/greenimpact/portfolio/v1/portfolio';
import type {
  FrameworkDetail,
  FrameworkRow,
  FrameworkSummary,
  ProjectDetail,
  ProjectRow,
  ProjectSummary,
  TaxonomyRow,
} from '@green-impact/proto/greenimpact/taxonomy/v1/taxonomy';
import { FailedPreconditionError, InternalError } from '@green-impact/shared/errors';
import { taxonomyClient } from '../clients.js';
import { BatchLoader } from './batch-loader.js';
import { callAs, type GraphqlContext } from './context.js';
import { RequestMemo } from './request-memo.js';
import type { Scoped } from './taxonomy-reads.js';

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

export const toGqlVisibility = (v: Visibility): GqlVisibility => (v === Visibility.VISIBILITY_PUBLIC ? 'PUBLIC' : 'PRIVATE');

/** A framework or project as read for a year: its summary, and the year of its figures, rows and projects. */
export type OfYear<T> = T & { year: number };
export type FrameworkOfYear = OfYear<FrameworkSummary>;
export type ProjectOfYear = OfYear<ProjectSummary>;

export const ofYear = <T>(summary: T, year: number): OfYear<T> => ({ ...summary, year });

/**
 * A framework, project or asset-attributed framework row (GraphQL's FrameworkRow), its volume in
 * `currencyCode`; its taxonomy items resolve in `scope` (the row's year, the requested language). The
 * value metadata of issue 37 is absent on an asset's attributed rows.
 */
export type Row = Scoped<
  TaxonomyRow &
    Pick<FrameworkRow, 'subCategoryVolume' | 'indicatorValue' | 'year'> &
    Partial<Pick<FrameworkRow, 'indicatorValueType' | 'indicatorValueBasis' | 'baselineValue' | 'emissionFactor' | 'methodologySource' | 'methodologyVersion'>> & {
      currencyCode: string;
    }
>;

export const toRow = (row: FrameworkRow | ProjectRow | AssetFrameworkRow, currencyCode: string, languageCode: string | undefined): Row => ({
  ...row,
  currencyCode,
  scope: { year: row.year, languageCode },
});

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
  private readonly frameworksByIdentifier = new Map<number, BatchLoader<string, FrameworkOfYear>>();

  constructor(private readonly ctx: GraphqlContext) {}

  frameworkDetail(identifier: string, year: number, languageCode: string | undefined): Promise<FrameworkDetail | undefined> {
    return this.memo.once(['frameworkDetail', identifier, year, languageCode], async () => {
      const req = { frameworkIdentifier: identifier, reportingYear: year, languageCode };
      return (await this.client().getFrameworkDetails(req, await callAs(this.ctx))).frameworks[0];
    });
  }

  /** The framework's rows of its year in a language; the framework must be the one its identifier reads. */
  async frameworkRows(framework: FrameworkOfYear, languageCode: string | undefined): Promise<Row[]> {
    const detail = await this.frameworkDetail(framework.frameworkIdentifier, framework.year, languageCode);
    if (!detail) return [];
    sameItem('framework', framework.frameworkId, summaryOf(detail.frameworkSummary).frameworkId, framework.frameworkIdentifier);
    return detail.framework.map((r) => toRow(r, r.frameworkCurrencyCode, languageCode));
  }

  /** The framework an identifier reads for the caller (own, else public), with the year's figures. */
  frameworkByIdentifier(identifier: string, year: number): Promise<FrameworkOfYear | undefined> {
    let loader = this.frameworksByIdentifier.get(year);
    if (!loader) {
      loader = new BatchLoader(async (identifiers) => {
        const req = { frameworkIdentifiers: identifiers, frameworkIds: [], reportingYear: year };
        const { frameworks } = await this.client().getFrameworksByIdentifiers(req, await callAs(this.ctx));
        return new Map(frameworks.map((s) => [s.frameworkIdentifier, ofYear(s, year)]));
      });
      this.frameworksByIdentifier.set(year, loader);
    }
    return loader.load(identifier);
  }

  projects(year: number, visibility: Visibility | undefined): Promise<ProjectOfYear[]> {
    return this.memo.once(['projects', year, visibility], async () => {
      const req = { reportingYear: year, projectVisibility: visibility };
      const { projects } = await this.client().getProjects(req, await callAs(this.ctx));
      return projects.map((s) => ofYear(s, year));
    });
  }

  projectDetail(identifier: string, year: number, languageCode: string | undefined): Promise<ProjectDetail | undefined> {
    return this.memo.once(['projectDetail', identifier, year, languageCode], async () => {
      const req = { projectIdentifier: identifier, reportingYear: year, languageCode };
      return (await this.client().getProjectDetails(req, await callAs(this.ctx))).projects[0];
    });
  }

  async projectRows(project: ProjectOfYear, languageCode: string | undefined): Promise<Row[]> {
    const detail = await this.projectDetail(project.projectIdentifier, project.year, languageCode);
    if (!detail) return [];
    sameItem('project', project.projectId, summaryOf(detail.projectSummary).projectId, project.projectIdentifier);
    return detail.project.map((r) => toRow(r, r.projectCurrencyCode, languageCode));
  }

  /**
   * Visible projects of the year that refer to the framework. ProjectSummary names its framework by
   * identifier and name, not id, so those two are matched.
   */
  async projectsOf(framework: FrameworkOfYear): Promise<ProjectOfYear[]> {
    const all = await this.projects(framework.year, undefined);
    return all.filter((p) => p.frameworkIdentifier === framework.frameworkIdentifier && p.frameworkName === framework.frameworkName);
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
