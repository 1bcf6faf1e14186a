import type { GraphqlContext } from '../../graphql/context.js';
import { frameworkReads, ofYear, summaryOf, type FrameworkOfYear } from '../../graphql/framework-reads.js';
import { pageFields, servicePageOf } from '../../graphql/pagination.js';
import { orNull } from '../../graphql/resolvers/or-null.js';
import { listed } from '../../v1/truncation.js';
import { withLabels } from '../graphql.js';
import { declare } from '../operation.js';
import { ESG } from '../renders.js';
import { taxonomyChange } from '../taxonomy/taxonomy.js';
import {
  amount,
  bondReportFields,
  bondReportYearFields,
  changed,
  currencyCode,
  frameworkIdentifier,
  name,
  ownerDetails,
  ownerListing,
  ownerPaging,
  ownerRead,
  ownerRemoval,
  reportingYear,
  rowChange,
  rowRemoval,
  rowRequest,
  subCategoryRemoval,
  valueOutstandingFrameworkFlag,
  valueOutstandingFrameworkYesNo,
  visibility,
  WHO_SEES,
  yearChange,
  type Owner,
} from './fields.js';
import { frameworkSummaryRow } from '../../generated/taxonomy.js';
import { frameworkDetail, toVisibility } from './rows.js';

/**
 * Green frameworks (spec §4.6): reads of the frameworks a caller sees, their year specifics and (sub
 * category, indicator) rows, served by TaxonomyService. Ownership and visibility are the service's
 * (`Not authorized.` for another account's public framework); so are every bound and its text.
 *
 * GraphQL reads go through the request's framework reads (graphql/framework-reads.ts): the frameworks
 * connection is a page the service reads, framework(identifier, year) shares its detail read with the
 * nested rows. Changes answer the framework as a following read shows it.
 */

/** The labels of framework(identifier, year) and frameworks(year, visibility), for the service's refusals. */
const READ_LABELS = { framework_identifier: 'identifier', reporting_year: 'year', framework_visibility: 'visibility' };

/** The framework an identifier reads for the caller (own, else public) with a year's figures; null when none is visible. */
export async function frameworkOf(ctx: GraphqlContext, identifier: string, year: number): Promise<FrameworkOfYear | null> {
  await ctx.auth();
  const detail = await orNull(withLabels(frameworkReads(ctx).frameworkDetail(identifier, year, undefined), READ_LABELS));
  return detail ? ofYear(summaryOf(detail.frameworkSummary), year) : null;
}

export const FRAMEWORK: Owner<FrameworkOfYear> = { entity: 'framework', identifier: frameworkIdentifier, read: frameworkOf, idOf: (item) => item.frameworkId };

// ---- reads ----

export const getFrameworks = declare({
  ...ownerListing('getFrameworks', 'framework'),
  // GraphQL's connection is paged by the service (keyset on the framework id or the orderBy field, with its count); /v1/call reads the whole list.
  request: (i, ctx) => ({ reportingYear: i.year, frameworkVisibility: toVisibility(i.visibility), ...pageFields(ctx.page) }),
  v1: (res, _i, ctx) => listed(ctx, res, res.frameworks.map(frameworkSummaryRow)),
  graphql: {
    root: 'Query',
    field: 'frameworks',
    returns: 'FrameworkConnection!',
    nested: false,
    paged: ownerPaging(FRAMEWORK, {
      CURRENCY_CODE: 'The framework currency (ISO 4217 code).',
      VALUE_OUTSTANDING: "The year's value outstanding, in the framework currency; frameworks without year specifics last going up.",
      ALLOCATED_AMOUNT: "The year's allocated amount, in the framework currency; frameworks without year specifics last going up.",
    }),
    render: async (call, i) => {
      const res = await call();
      return servicePageOf(res.frameworks.map((s) => ofYear(s, i.year)), res);
    },
  },
});

export const getFrameworkDetails = declare({
  ...ownerDetails('getFrameworkDetails', FRAMEWORK),
  request: (i) => ({ frameworkIdentifier: i.identifier, reportingYear: i.year, languageCode: i.languageCode }),
  v1: (res) => res.frameworks.map(frameworkDetail),
});

export const framework = declare({
  ...ownerRead('getFrameworkDetails', FRAMEWORK),
  request: (i) => ({ frameworkIdentifier: i.identifier, reportingYear: i.year }),
});

// ---- changes (the owner) ----

export const addFramework = declare({
  ...taxonomyChange('addFramework', "Adds a framework to the caller's account, or updates the caller's one with this identifier."),
  input: {
    identifier: frameworkIdentifier,
    name: name('framework_name'),
    currencyCode: currencyCode('framework_currency_code'),
    visibility: visibility('framework_visibility').with({ doc: WHO_SEES }),
    ...bondReportFields,
  },
  request: (i) => ({
    frameworkIdentifier: i.identifier,
    frameworkName: i.name,
    frameworkCurrencyCode: i.currencyCode,
    frameworkVisibility: toVisibility(i.visibility),
    issuerLei: i.issuerLei,
    externalReviewer: i.externalReviewer,
    approvingAuthority: i.approvingAuthority,
  }),
  graphql: changed('addFramework', 'framework', frameworkOf),
});

const figures = {
  valueOutstanding: amount('value_outstanding', 'V: funding raised for the framework in the year.'),
  allocatedAmount: amount('allocated_amount', 'L: funding allocated to projects in the year.'),
};
type YearSpecificsInput = { identifier: string; valueOutstanding: number; allocatedAmount: number; year: number } & {
  reportingPeriodStart?: string; reportingPeriodEnd?: string; unallocatedProceedsPlacement?: string;
};
const yearSpecificsRequest = (i: YearSpecificsInput, flag: boolean) => ({
  frameworkIdentifier: i.identifier,
  valueOutstanding: i.valueOutstanding,
  allocatedAmount: i.allocatedAmount,
  valueOutstandingFramework: flag,
  reportingYear: i.year,
  reportingPeriodStart: i.reportingPeriodStart,
  reportingPeriodEnd: i.reportingPeriodEnd,
  unallocatedProceedsPlacement: i.unallocatedProceedsPlacement,
});

/** /v1/call's addYearSpecificsToFramework: the flag is the spec's yes / no. */
export const addYearSpecificsToFramework = declare({
  ...taxonomyChange('addYearSpecificsToFramework', "Adds or replaces a framework's funding figures of a year."),
  input: { identifier: frameworkIdentifier, ...figures, year: reportingYear, valueOutstandingFramework: valueOutstandingFrameworkYesNo, ...bondReportYearFields },
  request: (i) => yearSpecificsRequest(i, i.valueOutstandingFramework === 'yes'),
});

/** GraphQL's addYearSpecificsToFramework: the same call, the flag a Boolean. */
export const addYearSpecificsToFrameworkGraphql = declare({
  solution: ESG,
  summary: "Adds or replaces a framework's funding figures of a year.",
  // GraphQL's input lists the year second; the order a face checks its fields in only matters on /v1/call.
  input: { identifier: frameworkIdentifier, year: reportingYear, ...figures, valueOutstandingFramework: valueOutstandingFrameworkFlag, ...bondReportYearFields },
  service: 'taxonomy',
  method: 'addYearSpecificsToFramework',
  request: (i) => yearSpecificsRequest(i, i.valueOutstandingFramework),
  graphql: changed('addYearSpecificsToFramework', 'framework', frameworkOf, true, { input: { name: 'FrameworkYearSpecificsInput', doc: 'Input of addYearSpecificsToFramework. Amounts are finite, from 0 to 10^15, in the framework currency.' } }),
});

export const addCategoryIndicatorToFramework = declare({
  ...rowChange('addCategoryIndicatorToFramework', FRAMEWORK),
  request: (i) => ({ frameworkIdentifier: i.identifier, ...rowRequest(i) }),
});

export const removeIndicatorFromFramework = declare({
  ...rowRemoval('removeIndicatorFromFramework', FRAMEWORK),
  request: (i) => ({ frameworkIdentifier: i.identifier, indicatorId: i.indicatorId, subCategoryId: i.subCategoryId, reportingYear: i.year }),
});

export const removeCategoryFromFramework = declare({
  ...subCategoryRemoval('removeCategoryFromFramework', FRAMEWORK),
  request: (i) => ({ frameworkIdentifier: i.identifier, subCategoryId: i.subCategoryId, reportingYear: i.year }),
});

export const removeFrameworkYearSpecifics = declare({
  ...yearChange('removeFrameworkYearSpecifics', "Removes a framework's funding figures of a year; its rows stay.", FRAMEWORK),
  request: (i) => ({ frameworkIdentifier: i.identifier, reportingYear: i.year }),
});

export const removeFramework = declare({
  ...ownerRemoval('removeFramework', 'Removes a framework with its figures and rows of every year; refused while projects are built into it.', FRAMEWORK),
  request: (i) => ({ frameworkIdentifier: i.identifier }),
});

export const frameworkOperations = [
  getFrameworks,
  getFrameworkDetails,
  framework,
  addFramework,
  addYearSpecificsToFramework,
  addYearSpecificsToFrameworkGraphql,
  addCategoryIndicatorToFramework,
  removeIndicatorFromFramework,
  removeCategoryFromFramework,
  removeFrameworkYearSpecifics,
  removeFramework,
];
