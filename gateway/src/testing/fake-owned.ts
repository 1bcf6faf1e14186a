import { Visibility } from '@green-impact/proto/greenimpact/common/v1/common';
import type { FrameworkSummary, ProjectSummary } from '@green-impact/proto/greenimpact/taxonomy/v1/taxonomy';
import type { Caller } from '@green-impact/shared/caller';
import { NotAuthorizedError, NotFoundError } from '@green-impact/shared/errors';
import type { CallContext } from '@green-impact/shared/grpc/server';

/**
 * The store behind the fake TaxonomyService's frameworks and projects (fake-frameworks.ts,
 * fake-projects.ts): both kinds of owned item in memory, the service's ownership rules (own item first,
 * else a public one; changing another account's public item is `Not authorized.`, its private one is not
 * revealed), their summaries and the row operations they share.
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

export type Kind = 'framework' | 'project';
export interface Row {
  subCategoryId: number;
  indicatorId: number;
  year: number;
  volume: number;
  value: number;
}
export interface Owned {
  id: number;
  account: string;
  identifier: string;
  name: string;
  currency: string;
  visibility: 'public' | 'private';
  rows: Row[];
}
export interface Framework extends Owned {
  years: Map<number, { v: number; l: number; flag: boolean }>;
}
export interface Project extends Owned {
  frameworkId: number;
  years: Map<number, number>;
}

export const q = (identifier: string) => `"${identifier}"`;
const cap = (kind: Kind) => (kind === 'framework' ? 'Framework' : 'Project');
export const vis = (v: Visibility | undefined) =>
  v === Visibility.VISIBILITY_PUBLIC ? 'public' : v === Visibility.VISIBILITY_PRIVATE ? 'private' : undefined;
export const toProto = (v: 'public' | 'private') => (v === 'public' ? Visibility.VISIBILITY_PUBLIC : Visibility.VISIBILITY_PRIVATE);

export type FakeOwnedStore = ReturnType<typeof fakeOwnedStore>;

export function fakeOwnedStore(deps: FakeFrameworkDeps) {
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
    frameworks,
    projects,
    newId: () => nextId++,
    visible,
    read,
    own,
    frameworkSummary,
    projectSummary,
    rowsOf,
    putRow,
    removeRow,
    removeSubCategory,
    addOwned,
  };
}
