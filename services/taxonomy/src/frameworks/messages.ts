import { joinAnd } from '../messages.js';
import { truncate } from '../validation.js';

/**
 * Message texts of frameworks and projects (spec §4.6–§4.7 shows none except `Not authorized.`, which
 * NotAuthorizedError carries verbatim). Short sentences in the style of the taxonomy's; identifiers are
 * quoted (they may hold spaces) and cut short when long.
 */
export type OwnedLabel = 'framework' | 'project';

const capital = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);
const q = (identifier: string) => `"${truncate(identifier, 60)}"`;
const counted = (n: number, singular: string, plural: string) => `${n} ${n === 1 ? singular : plural}`;
/** "a, b, c", listing at most five. */
const listed = (items: string[], max = 5) =>
  items.slice(0, max).join(', ') + (items.length > max ? ` and ${items.length - max} more` : '');
const row = (subCategoryId: number, indicatorId: number) => `Indicator ${indicatorId} of sub category ${subCategoryId}`;

export const OWNED_MSG = {
  // ---- success ----
  added: (kind: OwnedLabel, id: number) => `${capital(kind)} added with id ${id}.`,
  updated: (kind: OwnedLabel) => `${capital(kind)} updated.`,
  removed: (kind: OwnedLabel) => `${capital(kind)} removed.`,
  yearSpecificsAdded: (kind: OwnedLabel, year: number) => `Year specifics for ${year} added to ${kind}.`,
  yearSpecificsUpdated: (kind: OwnedLabel, year: number) => `Year specifics for ${year} of ${kind} updated.`,
  yearSpecificsRemoved: (kind: OwnedLabel, year: number) => `Year specifics for ${year} removed from ${kind}.`,
  rowAdded: (kind: OwnedLabel, subCategoryId: number, indicatorId: number) => `${row(subCategoryId, indicatorId)} added to ${kind}.`,
  rowUpdated: (kind: OwnedLabel, subCategoryId: number, indicatorId: number) => `${row(subCategoryId, indicatorId)} updated in ${kind}.`,
  rowRemoved: (kind: OwnedLabel, subCategoryId: number, indicatorId: number) => `${row(subCategoryId, indicatorId)} removed from ${kind}.`,
  subCategoryRemoved: (kind: OwnedLabel, subCategoryId: number, rows: number) =>
    `Sub category ${subCategoryId} removed from ${kind} (${counted(rows, 'row', 'rows')}).`,
  built: (projects: number, rows: number) =>
    `Framework built from ${counted(projects, 'project', 'projects')}: ${counted(rows, 'row', 'rows')}.`,

  // ---- errors ----
  noSuch: (kind: OwnedLabel, identifier: string) => `No such ${kind} ${q(identifier)}.`,
  noSuchId: (kind: OwnedLabel, id: number) => `No such ${kind} with id ${id}.`,
  noYearSpecifics: (kind: OwnedLabel, identifier: string, year: number) =>
    `${capital(kind)} ${q(identifier)} has no year specifics for ${year}.`,
  noRow: (kind: OwnedLabel, identifier: string, subCategoryId: number, indicatorId: number, year: number) =>
    `${capital(kind)} ${q(identifier)} has no row for sub category ${subCategoryId} and indicator ${indicatorId} in ${year}.`,
  noSubCategoryRows: (kind: OwnedLabel, identifier: string, subCategoryId: number, year: number) =>
    `${capital(kind)} ${q(identifier)} has no rows of sub category ${subCategoryId} in ${year}.`,
  frameworkInUse: (identifier: string, own: string[], others: number) => {
    const users: string[] = [];
    if (own.length) users.push(`${own.length === 1 ? 'project' : 'projects'} ${listed(own.map(q))}`);
    if (others) users.push(others === 1 ? '1 project of another account' : `${others} projects of other accounts`);
    return `Framework ${q(identifier)} is still used by ${joinAnd(users)}; remove those first.`;
  },
  frameworkCurrencyHeld: (identifier: string, currency: string) =>
    `Framework ${q(identifier)} is held by other accounts' assets: its currency (${currency}) stays as it is. Add a framework under a new identifier instead.`,
  frameworkStillInUse: (identifier: string) => `Framework ${q(identifier)} is still in use; remove what uses it first.`,
  buildNeedsYearSpecifics: (identifier: string, year: number) =>
    `Framework ${q(identifier)} has no year specifics for ${year}; add them with addYearSpecificsToFramework before building.`,
  buildNeedsProjects: (identifier: string) =>
    `No project of yours refers to framework ${q(identifier)}; add projects with addProject before building.`,
  buildNeedsRows: (identifier: string, year: number) =>
    `The projects of framework ${q(identifier)} have no rows for ${year}; add them with addCategoryIndicatorToProject before building.`,
  buildNoFxRate: (from: string, to: string, year: number, project: string) =>
    `No FX rate between ${from} and ${to} for ${year}: project ${q(project)} is in ${from}, the framework in ${to}; add the rate with addFXrate before building.`,
  formatRequired: 'format must be JSON or HTML.',
  reportNeedsProjects: (identifier: string) =>
    `No project of yours refers to framework ${q(identifier)}; an impact table reports the projects of the framework's owner.`,
  reportNoFxRate: (from: string, to: string, year: number, project: string) =>
    `No FX rate between ${from} and ${to} for ${year}: project ${q(project)} is in ${from}, the framework in ${to}; add the rate with addFXrate to report it.`,
  reportLevel: 'level must be project or portfolio.',
  taxonomyLayerSet: (year: number) => `Taxonomy layer for ${year} set on project.`,
  taxonomyLayerRemoved: (year: number) => `Taxonomy layer for ${year} removed from project.`,
  noTaxonomyLayer: (identifier: string, year: number) => `Project ${q(identifier)} has no taxonomy layer for ${year}.`,
  layerNeedsYearSpecifics: (identifier: string, year: number) =>
    `Project ${q(identifier)} has no year specifics for ${year}; add its allocated amount with addYearSpecificsToProject before its taxonomy layer.`,
  euGbsNeedsYearSpecifics: (identifier: string, year: number) =>
    `Framework ${q(identifier)} has no year specifics for ${year}; its value outstanding is the bond's proceeds, add them with addYearSpecificsToFramework to report.`,
  euGbsDocument: 'document must be factsheet, allocation_report or impact_report.',
} as const;
