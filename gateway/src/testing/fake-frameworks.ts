import { Visibility } from '@green-impact/proto/greenimpact/common/v1/common';
import type { FrameworkSummary, ProjectSummary, TaxonomyServiceService } from '@green-impact/proto/greenimpact/taxonomy/v1/taxonomy';
import type { Caller } from '@green-impact/shared/caller';
import { FailedPreconditionError, NotAuthorizedError, NotFoundError } from '@green-impact/shared/errors';
import type { CallContext, UnaryHandlers } from '@green-impact/shared/grpc/server';
import { renderFakeDocument } from './fake-documents.js';
import { fakeServicePage } from './fake-paging.js';

/**
 * The frameworks and projects methods of the fake TaxonomyService (fake-taxonomy.ts): in memory, with
 * the service's ownership rules (own item first, else a public one; changing another account's public
 * item is `Not authorized.`, its private one is not revealed) and message texts
 * (services/taxonomy/src/frameworks/messages.ts), and a plain-sum build. Only as faithful as the
 * gateway's tests need: the real rules are tested in the taxonomy service and test/.
 */

/** What a row shows of its (sub category, indicator), in a language; from the fake's taxonomy. */
export interface FakeRowNames {
  categoryId: number;
  categoryName: string;
  subCategoryName: string;
  superIndicatorId: number;
  superIndicatorName: string;
  indicatorName: string;
  unitId: number;
  unitName: string;
  sdg: Record<string, string>;
  euObjective: Record<string, string>;
  language: string;
  languageCode: string;
}

export interface FakeFrameworkDeps {
  /** Records the call and answers the caller (UNAUTHENTICATED without one). */
  record(method: string, request: unknown, ctx: CallContext): Caller;
  /** A language code of reads: undefined for none, else 'en' or 'sv' (INVALID_ARGUMENT otherwise). */
  language(code: string | undefined): 'en' | 'sv' | undefined;
  /** NOT_FOUND unless the currency is registered. */
  currency(code: string): void;
  /** Names of a row's items; NOT_FOUND for an id that is not in the year's taxonomy. */
  names(subCategoryId: number, indicatorId: number, year: number, lang: 'en' | 'sv' | undefined): FakeRowNames;
}

type Kind = 'framework' | 'project';
interface Row {
  subCategoryId: number;
  indicatorId: number;
  year: number;
  volume: number;
  value: number;
}
interface Owned {
  id: number;
  account: string;
  identifier: string;
  name: string;
  currency: string;
  visibility: 'public' | 'private';
  rows: Row[];
}
interface Framework extends Owned {
  years: Map<number, { v: number; l: number; flag: boolean }>;
}
interface Project extends Owned {
  frameworkId: number;
  years: Map<number, number>;
}

const q = (identifier: string) => `"${identifier}"`;
const cap = (kind: Kind) => (kind === 'framework' ? 'Framework' : 'Project');
const vis = (v: Visibility | undefined) =>
  v === Visibility.VISIBILITY_PUBLIC ? 'public' : v === Visibility.VISIBILITY_PRIVATE ? 'private' : undefined;
const toProto = (v: 'public' | 'private') => (v === 'public' ? Visibility.VISIBILITY_PUBLIC : Visibility.VISIBILITY_PRIVATE);

export function fakeFrameworkHandlers(deps: FakeFrameworkDeps): Partial<UnaryHandlers<typeof TaxonomyServiceService>> {
  const frameworks: Framework[] = [];
  const projects: Project[] = [];
  let nextId = 1;

  const visible = <T extends Owned>(list: T[], c: Caller, filter?: 'public' | 'private') =>
    list
      .filter((x) => (x.account === c.accountId || x.visibility === 'public') && (filter === undefined || x.visibility === filter))
      .sort((a, b) => a.identifier.localeCompare(b.identifier) || Number(b.account === c.accountId) - Number(a.account === c.accountId));
  /** A read: the caller's own item of the identifier, else a public one. */
  const read = <T extends Owned>(list: T[], kind: Kind, c: Caller, identifier: string): T => {
    const found = list.find((x) => x.account === c.accountId && x.identifier === identifier) ??
      list.find((x) => x.visibility === 'public' && x.identifier === identifier);
    if (!found) throw new NotFoundError(`No such ${kind} ${q(identifier)}.`);
    return found;
  };
  /** A change: only the caller's own item; another account's public one is `Not authorized.`. */
  const own = <T extends Owned>(list: T[], kind: Kind, c: Caller, identifier: string): T => {
    const found = read(list, kind, c, identifier);
    if (found.account !== c.accountId) throw new NotAuthorizedError();
    return found;
  };

  const frameworkSummary = (f: Framework, c: Caller, year: number): FrameworkSummary => {
    const y = f.years.get(year);
    return {
      frameworkId: f.id,
      frameworkIdentifier: f.identifier,
      frameworkName: f.name,
      frameworkValueOutstanding: y?.v,
      frameworkAllocatedAmount: y?.l,
      frameworkActivePercentage: y === undefined ? undefined : y.v === 0 ? 0 : (y.l / y.v) * 100,
      frameworkCurrencyCode: f.currency,
      valueOutstandingFramework: y?.flag,
      frameworkVisibility: toProto(f.visibility),
      reportingYear: year,
      owned: f.account === c.accountId,
    };
  };
  const projectSummary = (p: Project, c: Caller, year: number): ProjectSummary => {
    const framework = frameworks.find((f) => f.id === p.frameworkId)!;
    return {
      projectId: p.id,
      projectIdentifier: p.identifier,
      projectName: p.name,
      projectAllocatedAmount: p.years.get(year),
      projectCurrencyCode: p.currency,
      frameworkIdentifier: framework.identifier,
      frameworkName: framework.name,
      projectVisibility: toProto(p.visibility),
      reportingYear: year,
      owned: p.account === c.accountId,
    };
  };
  const rowsOf = (item: Owned, year: number, lang: 'en' | 'sv' | undefined) =>
    item.rows
      .filter((r) => r.year === year)
      .map((r) => {
        const { categoryId, categoryName, subCategoryName, superIndicatorId, superIndicatorName, indicatorName, unitId, unitName, ...rest } =
          deps.names(r.subCategoryId, r.indicatorId, year, lang);
        return {
          categoryId,
          categoryName,
          subCategoryId: r.subCategoryId,
          subCategoryName,
          subCategoryVolume: r.volume,
          superIndicatorId,
          superIndicatorName,
          indicatorId: r.indicatorId,
          indicatorName,
          indicatorValue: r.value,
          unitId,
          unitName,
          year,
          ...rest,
        };
      })
      .sort((a, b) => a.categoryId - b.categoryId || a.subCategoryId - b.subCategoryId || a.indicatorId - b.indicatorId);

  /** Adds or updates a row; one volume per sub category and year, as the service keeps it. */
  const putRow = (item: Owned, kind: Kind, r: Row) => {
    deps.names(r.subCategoryId, r.indicatorId, r.year, undefined);
    for (const other of item.rows) if (other.year === r.year && other.subCategoryId === r.subCategoryId) other.volume = r.volume;
    const found = item.rows.find((x) => x.year === r.year && x.subCategoryId === r.subCategoryId && x.indicatorId === r.indicatorId);
    const label = `Indicator ${r.indicatorId} of sub category ${r.subCategoryId}`;
    if (found) {
      found.value = r.value;
      return { message: `${label} updated in ${kind}.`, id: item.id };
    }
    item.rows.push(r);
    return { message: `${label} added to ${kind}.`, id: item.id };
  };
  const removeRow = (item: Owned, kind: Kind, subCategoryId: number, indicatorId: number, year: number) => {
    const at = item.rows.findIndex((x) => x.year === year && x.subCategoryId === subCategoryId && x.indicatorId === indicatorId);
    if (at < 0) {
      throw new NotFoundError(`${cap(kind)} ${q(item.identifier)} has no row for sub category ${subCategoryId} and indicator ${indicatorId} in ${year}.`);
    }
    item.rows.splice(at, 1);
    return { message: `Indicator ${indicatorId} of sub category ${subCategoryId} removed from ${kind}.`, id: item.id };
  };
  const removeSubCategory = (item: Owned, kind: Kind, subCategoryId: number, year: number) => {
    const kept = item.rows.filter((x) => !(x.year === year && x.subCategoryId === subCategoryId));
    const n = item.rows.length - kept.length;
    if (n === 0) throw new NotFoundError(`${cap(kind)} ${q(item.identifier)} has no rows of sub category ${subCategoryId} in ${year}.`);
    item.rows = kept;
    return { message: `Sub category ${subCategoryId} removed from ${kind} (${n} ${n === 1 ? 'row' : 'rows'}).`, id: item.id };
  };
  const addOwned = <T extends Owned>(list: T[], kind: Kind, c: Caller, identifier: string, update: (x: T) => void, create: () => T) => {
    const mine = list.find((x) => x.account === c.accountId && x.identifier === identifier);
    if (mine) {
      update(mine);
      return { message: `${cap(kind)} updated.`, id: mine.id };
    }
    const item = create();
    list.push(item);
    return { message: `${cap(kind)} added with id ${item.id}.`, id: item.id };
  };

  return {
    // ---- frameworks ----
    async getFrameworks(req, ctx) {
      const c = deps.record('getFrameworks', req, ctx);
      const list = visible(frameworks, c, vis(req.frameworkVisibility));
      if (req.pageSize === undefined) return { frameworks: list.map((f) => frameworkSummary(f, c, req.reportingYear)), nextPageToken: '' };
      const page = fakeServicePage(list, req);
      return { frameworks: page.items.map((f) => frameworkSummary(f, c, req.reportingYear)), nextPageToken: page.nextPageToken, totalCount: page.totalCount };
    },
    async getFrameworkDetails(req, ctx) {
      const c = deps.record('getFrameworkDetails', req, ctx);
      const lang = deps.language(req.languageCode);
      const f = read(frameworks, 'framework', c, req.frameworkIdentifier);
      const framework = rowsOf(f, req.reportingYear, lang).map((r) => ({ ...r, frameworkCurrencyCode: f.currency }));
      return { frameworks: [{ frameworkSummary: frameworkSummary(f, c, req.reportingYear), framework }] };
    },
    async renderFrameworkDocument(req, ctx) {
      const c = deps.record('renderFrameworkDocument', req, ctx);
      const f = read(frameworks, 'framework', c, req.frameworkIdentifier);
      const data = {
        document: 'framework',
        framework_identifier: f.identifier,
        reporting_year: req.reportingYear,
        language_code: req.languageCode ?? null,
        decimals: req.decimals ?? 2,
        rows: rowsOf(f, req.reportingYear, deps.language(req.languageCode)).map((r) => [r.subCategoryId, r.indicatorId, r.subCategoryVolume, r.indicatorValue]),
      };
      return { ...renderFakeDocument(req.format, f.name, data), frameworkId: f.id, frameworkIdentifier: f.identifier, frameworkVisibility: toProto(f.visibility) };
    },
    async getFrameworksByIdentifiers(req, ctx) {
      const c = deps.record('getFrameworksByIdentifiers', req, ctx);
      const found = req.frameworkIdentifiers.flatMap((identifier) => {
        try {
          return [read(frameworks, 'framework', c, identifier)];
        } catch {
          return [];
        }
      });
      return { frameworks: [...new Set(found)].map((f) => frameworkSummary(f, c, req.reportingYear ?? 0)) };
    },
    async addFramework(req, ctx) {
      const c = deps.record('addFramework', req, ctx);
      deps.currency(req.frameworkCurrencyCode);
      return addOwned(
        frameworks,
        'framework',
        c,
        req.frameworkIdentifier,
        (f) => {
          f.name = req.frameworkName;
          f.currency = req.frameworkCurrencyCode;
          f.visibility = vis(req.frameworkVisibility) ?? f.visibility;
        },
        () => ({
          id: nextId++,
          account: c.accountId,
          identifier: req.frameworkIdentifier,
          name: req.frameworkName,
          currency: req.frameworkCurrencyCode,
          visibility: vis(req.frameworkVisibility) ?? 'private',
          rows: [],
          years: new Map(),
        }),
      );
    },
    async addYearSpecificsToFramework(req, ctx) {
      const c = deps.record('addYearSpecificsToFramework', req, ctx);
      const f = own(frameworks, 'framework', c, req.frameworkIdentifier);
      const had = f.years.has(req.reportingYear);
      f.years.set(req.reportingYear, { v: req.valueOutstanding, l: req.allocatedAmount, flag: req.valueOutstandingFramework });
      const y = req.reportingYear;
      return { message: had ? `Year specifics for ${y} of framework updated.` : `Year specifics for ${y} added to framework.`, id: f.id };
    },
    async addCategoryIndicatorToFramework(req, ctx) {
      const c = deps.record('addCategoryIndicatorToFramework', req, ctx);
      const f = own(frameworks, 'framework', c, req.frameworkIdentifier);
      const { subCategoryId, indicatorId, reportingYear: year } = req;
      return putRow(f, 'framework', { subCategoryId, indicatorId, year, volume: req.subCategoryVolume, value: req.indicatorValue });
    },
    async removeIndicatorFromFramework(req, ctx) {
      const c = deps.record('removeIndicatorFromFramework', req, ctx);
      return removeRow(own(frameworks, 'framework', c, req.frameworkIdentifier), 'framework', req.subCategoryId, req.indicatorId, req.reportingYear);
    },
    async removeCategoryFromFramework(req, ctx) {
      const c = deps.record('removeCategoryFromFramework', req, ctx);
      return removeSubCategory(own(frameworks, 'framework', c, req.frameworkIdentifier), 'framework', req.subCategoryId, req.reportingYear);
    },
    async removeFrameworkYearSpecifics(req, ctx) {
      const c = deps.record('removeFrameworkYearSpecifics', req, ctx);
      const f = own(frameworks, 'framework', c, req.frameworkIdentifier);
      if (!f.years.delete(req.reportingYear)) {
        throw new NotFoundError(`Framework ${q(f.identifier)} has no year specifics for ${req.reportingYear}.`);
      }
      return { message: `Year specifics for ${req.reportingYear} removed from framework.`, id: f.id };
    },
    async removeFramework(req, ctx) {
      const c = deps.record('removeFramework', req, ctx);
      const f = own(frameworks, 'framework', c, req.frameworkIdentifier);
      const users = projects.filter((p) => p.frameworkId === f.id);
      if (users.length) {
        throw new FailedPreconditionError(
          `Framework ${q(f.identifier)} is still used by ${users.length === 1 ? 'project' : 'projects'} ${users.map((p) => q(p.identifier)).join(', ')}; remove those first.`,
        );
      }
      frameworks.splice(frameworks.indexOf(f), 1);
      return { message: 'Framework removed.', id: f.id };
    },

    // ---- projects ----
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
          id: nextId++,
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
