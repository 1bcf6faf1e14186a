import type { TaxonomyServiceService } from '@green-impact/proto/greenimpact/taxonomy/v1/taxonomy';
import { FailedPreconditionError, NotFoundError } from '@green-impact/shared/errors';
import type { UnaryHandlers } from '@green-impact/shared/grpc/server';
import { q, vis, type FakeFrameworkDeps, type FakeOwnedStore, type Row } from './fake-owned.js';
import { fakeServicePage } from './fake-paging.js';

/** The projects methods of the fake TaxonomyService, and the build of a framework from its projects. */
export function fakeProjectHandlers(store: FakeOwnedStore, deps: FakeFrameworkDeps): Partial<UnaryHandlers<typeof TaxonomyServiceService>> {
  const { frameworks, projects, visible, read, own, projectSummary, rowsOf, putRow, removeRow, removeSubCategory, addOwned } = store;
  return {
    async getProjects(req, ctx) {
      const c = deps.record('getProjects', req, ctx);
      const list = visible(projects, c, vis(req.projectVisibility));
      if (req.pageSize === undefined) return { projects: list.map((p) => projectSummary(p, c, req.reportingYear)), nextPageToken: '' };
      const page = fakeServicePage(list, req);
      return { projects: page.items.map((p) => projectSummary(p, c, req.reportingYear)), nextPageToken: page.nextPageToken, totalCount: page.totalCount };
    },
    async getProjectDetails(req, ctx) {
      const c = deps.record('getProjectDetails', req, ctx);
      const lang = deps.language(req.languageCode);
      const p = read(projects, 'project', c, req.projectIdentifier);
      const project = rowsOf(p, req.reportingYear, lang).map((r) => ({ ...r, projectCurrencyCode: p.currency }));
      return { projects: [{ projectSummary: projectSummary(p, c, req.reportingYear), project }] };
    },
    async addProject(req, ctx) {
      const c = deps.record('addProject', req, ctx);
      deps.currency(req.projectCurrencyCode);
      const framework = read(frameworks, 'framework', c, req.frameworkIdentifier);
      return addOwned(
        projects,
        'project',
        c,
        req.projectIdentifier,
        (p) => {
          p.name = req.projectName;
          p.currency = req.projectCurrencyCode;
          p.frameworkId = framework.id;
          p.visibility = vis(req.projectVisibility) ?? p.visibility;
        },
        () => ({
          id: store.newId(),
          account: c.accountId,
          identifier: req.projectIdentifier,
          name: req.projectName,
          currency: req.projectCurrencyCode,
          visibility: vis(req.projectVisibility) ?? 'private',
          rows: [],
          frameworkId: framework.id,
          years: new Map(),
        }),
      );
    },
    async addYearSpecificsToProject(req, ctx) {
      const c = deps.record('addYearSpecificsToProject', req, ctx);
      const p = own(projects, 'project', c, req.projectIdentifier);
      const had = p.years.has(req.reportingYear);
      p.years.set(req.reportingYear, req.allocatedAmount);
      const y = req.reportingYear;
      return { message: had ? `Year specifics for ${y} of project updated.` : `Year specifics for ${y} added to project.`, id: p.id };
    },
    async addCategoryIndicatorToProject(req, ctx) {
      const c = deps.record('addCategoryIndicatorToProject', req, ctx);
      const p = own(projects, 'project', c, req.projectIdentifier);
      const { subCategoryId, indicatorId, reportingYear: year } = req;
      return putRow(p, 'project', { subCategoryId, indicatorId, year, volume: req.subCategoryVolume, value: req.indicatorValue });
    },
    async buildFrameworkFromProjects(req, ctx) {
      const c = deps.record('buildFrameworkFromProjects', req, ctx);
      const f = own(frameworks, 'framework', c, req.frameworkIdentifier);
      const year = req.reportingYear;
      if (!f.years.has(year)) {
        throw new FailedPreconditionError(
          `Framework ${q(f.identifier)} has no year specifics for ${year}; add them with addYearSpecificsToFramework before building.`,
        );
      }
      const sources = projects.filter((p) => p.frameworkId === f.id && p.account === c.accountId && p.rows.some((r) => r.year === year));
      const rows = new Map<string, Row>();
      const volumes = new Map<number, number>();
      for (const p of sources) {
        const counted = new Set<number>();
        for (const r of p.rows.filter((x) => x.year === year)) {
          const key = `${r.subCategoryId}|${r.indicatorId}`;
          const sum = rows.get(key) ?? { ...r, volume: 0, value: 0 };
          sum.value += r.value;
          rows.set(key, sum);
          if (!counted.has(r.subCategoryId)) volumes.set(r.subCategoryId, (volumes.get(r.subCategoryId) ?? 0) + r.volume);
          counted.add(r.subCategoryId);
        }
      }
      for (const r of rows.values()) r.volume = volumes.get(r.subCategoryId)!;
      f.rows = [...f.rows.filter((r) => r.year !== year), ...rows.values()];
      const n = (count: number, word: string) => `${count} ${word}${count === 1 ? '' : 's'}`;
      return {
        message: `Framework built from ${n(sources.length, 'project')}: ${n(rows.size, 'row')}.`,
        id: f.id,
        projectCount: sources.length,
        // The fake holds no project financing (issue 37): it always sums, as the spec says.
        proRataProjectCount: 0,
        rowCount: rows.size,
      };
    },
    async removeIndicatorFromProject(req, ctx) {
      const c = deps.record('removeIndicatorFromProject', req, ctx);
      return removeRow(own(projects, 'project', c, req.projectIdentifier), 'project', req.subCategoryId, req.indicatorId, req.reportingYear);
    },
    async removeCategoryFromProject(req, ctx) {
      const c = deps.record('removeCategoryFromProject', req, ctx);
      return removeSubCategory(own(projects, 'project', c, req.projectIdentifier), 'project', req.subCategoryId, req.reportingYear);
    },
    async removeYearSpecificsFromProject(req, ctx) {
      const c = deps.record('removeYearSpecificsFromProject', req, ctx);
      const p = own(projects, 'project', c, req.projectIdentifier);
      if (!p.years.delete(req.reportingYear)) {
        throw new NotFoundError(`Project ${q(p.identifier)} has no year specifics for ${req.reportingYear}.`);
      }
      return { message: `Year specifics for ${req.reportingYear} removed from project.`, id: p.id };
    },
    async removeProject(req, ctx) {
      const c = deps.record('removeProject', req, ctx);
      const p = own(projects, 'project', c, req.projectIdentifier);
      projects.splice(projects.indexOf(p), 1);
      return { message: 'Project removed.', id: p.id };
    },
  };
}
