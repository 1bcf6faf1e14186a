import type { GraphqlContext } from '../../graphql/context.js';
import { frameworkReads, ofYear, summaryOf, type FrameworkOfYear } from '../../graphql/framework-reads.js';
import { pageFields, SERVICE_ID, servicePageOf } from '../../graphql/pagination.js';
import { orNull } from '../../graphql/resolvers/or-null.js';
import { listed } from '../../v1/truncation.js';
import { withLabels } from '../graphql.js';
import { declare } from '../operation.js';
import { ESG, messageOnly } from '../renders.js';
import {
  amount,
  bondReportFields,
  bondReportYearFields,
  changed,
  currencyCode,
  frameworkIdentifier,
  languageCode,
  name,
  removed,
  removeRowFields,
  removeRowInput,
  removeSubCategoryInput,
  removeSubCategoryFields,
  reportingYear,
  rowFields,
  rowInput,
  valueMetadataRequest,
  valueOutstandingFrameworkFlag,
  valueOutstandingFrameworkYesNo,
  visibility,
  WHO_SEES,
} from './fields.js';
import { frameworkDetail, frameworkSummaryRow, toVisibility } from './rows.js';

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

// ---- reads ----

const listInput = { year: reportingYear, visibility: visibility('framework_visibility').with({ doc: 'Only public or only private frameworks; default both.' }) };

export const getFrameworks = declare({
  solution: ESG,
  operation: 'getFrameworks',
  summary: "Frameworks visible to the caller (its own and other accounts' public ones) with their figures of a year, in the order they were added.",
  input: listInput,
  service: 'taxonomy',
  method: 'getFrameworks',
  // GraphQL's connection is paged by the service (keyset on the framework id or the orderBy field, with its count); /v1/call reads the whole list.
  request: (i, ctx) => ({ reportingYear: i.year, frameworkVisibility: toVisibility(i.visibility), ...pageFields(ctx.page) }),
  v1: (res, _i, ctx) => listed(ctx, res, res.frameworks.map(frameworkSummaryRow)),
  graphql: {
    root: 'Query',
    field: 'frameworks',
    returns: 'FrameworkConnection!',
    nested: false,
    paged: {
      idOf: (item: FrameworkOfYear) => item.frameworkId,
      idPattern: SERVICE_ID,
      backward: true,
      orderBy: {
        type: 'Framework',
        plural: 'frameworks',
        fields: {
          IDENTIFIER: "The owner's identifier, as text.",
          NAME: 'The name, as text.',
          CURRENCY_CODE: 'The framework currency (ISO 4217 code).',
          VALUE_OUTSTANDING: "The year's value outstanding, in the framework currency; frameworks without year specifics last going up.",
          ALLOCATED_AMOUNT: "The year's allocated amount, in the framework currency; frameworks without year specifics last going up.",
        },
      },
    },
    render: async (call, i) => {
      const res = await call();
      return servicePageOf(res.frameworks.map((s) => ofYear(s, i.year)), res);
    },
  },
});

export const getFrameworkDetails = declare({
  // The spec answers "array of framework detail": an array holding the one framework read.
  solution: ESG,
  operation: 'getFrameworkDetails',
  summary: "One framework (the caller's own with this identifier, else a public one) with its rows of a year.",
  input: { identifier: frameworkIdentifier, year: reportingYear, languageCode },
  service: 'taxonomy',
  method: 'getFrameworkDetails',
  request: (i) => ({ frameworkIdentifier: i.identifier, reportingYear: i.year, languageCode: i.languageCode }),
  v1: (res) => res.frameworks.map(frameworkDetail),
});

export const framework = declare({
  solution: ESG,
  summary: "One framework (the caller's own with this identifier, else a public one) with its figures of a year; null when none is visible.",
  input: { identifier: frameworkIdentifier, year: reportingYear },
  service: 'taxonomy',
  method: 'getFrameworkDetails',
  request: (i) => ({ frameworkIdentifier: i.identifier, reportingYear: i.year }),
  // Read through the request's memoised detail, which the nested rows share.
  graphql: { root: 'Query', field: 'framework', returns: 'Framework', nested: false, render: (_call, i, ctx) => frameworkOf(ctx, i.identifier, i.year) },
});

// ---- changes (the owner) ----

export const addFramework = declare({
  solution: ESG,
  operation: 'addFramework',
  summary: "Adds a framework to the caller's account, or updates the caller's one with this identifier.",
  input: {
    identifier: frameworkIdentifier,
    name: name('framework_name'),
    currencyCode: currencyCode('framework_currency_code'),
    visibility: visibility('framework_visibility').with({ doc: WHO_SEES }),
    ...bondReportFields,
  },
  service: 'taxonomy',
  method: 'addFramework',
  request: (i) => ({
    frameworkIdentifier: i.identifier,
    frameworkName: i.name,
    frameworkCurrencyCode: i.currencyCode,
    frameworkVisibility: toVisibility(i.visibility),
    issuerLei: i.issuerLei,
    externalReviewer: i.externalReviewer,
    approvingAuthority: i.approvingAuthority,
  }),
  v1: messageOnly,
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
  solution: ESG,
  operation: 'addYearSpecificsToFramework',
  summary: "Adds or replaces a framework's funding figures of a year.",
  input: { identifier: frameworkIdentifier, ...figures, year: reportingYear, valueOutstandingFramework: valueOutstandingFrameworkYesNo, ...bondReportYearFields },
  service: 'taxonomy',
  method: 'addYearSpecificsToFramework',
  request: (i) => yearSpecificsRequest(i, i.valueOutstandingFramework === 'yes'),
  v1: messageOnly,
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
  solution: ESG,
  operation: 'addCategoryIndicatorToFramework',
  summary: 'Adds or updates a (sub category, indicator) row of a framework for a year.',
  input: { identifier: frameworkIdentifier, ...rowFields },
  service: 'taxonomy',
  method: 'addCategoryIndicatorToFramework',
  request: (i) => ({
    frameworkIdentifier: i.identifier,
    subCategoryId: i.subCategoryId,
    subCategoryVolume: i.volume,
    indicatorId: i.indicatorId,
    indicatorValue: i.value,
    reportingYear: i.year,
    ...valueMetadataRequest(i),
  }),
  v1: messageOnly,
  graphql: changed('addCategoryIndicatorToFramework', 'framework', frameworkOf, true, { input: rowInput }),
});

export const removeIndicatorFromFramework = declare({
  solution: ESG,
  operation: 'removeIndicatorFromFramework',
  summary: 'Removes one (sub category, indicator) row of a framework for a year.',
  input: { identifier: frameworkIdentifier, ...removeRowFields },
  service: 'taxonomy',
  method: 'removeIndicatorFromFramework',
  request: (i) => ({ frameworkIdentifier: i.identifier, indicatorId: i.indicatorId, subCategoryId: i.subCategoryId, reportingYear: i.year }),
  v1: messageOnly,
  graphql: changed('removeIndicatorFromFramework', 'framework', frameworkOf, true, { input: removeRowInput }),
});

export const removeCategoryFromFramework = declare({
  solution: ESG,
  operation: 'removeCategoryFromFramework',
  summary: 'Removes every row of a sub category from a framework for a year.',
  input: { identifier: frameworkIdentifier, ...removeSubCategoryFields },
  service: 'taxonomy',
  method: 'removeCategoryFromFramework',
  request: (i) => ({ frameworkIdentifier: i.identifier, subCategoryId: i.subCategoryId, reportingYear: i.year }),
  v1: messageOnly,
  graphql: changed('removeCategoryFromFramework', 'framework', frameworkOf, true, { input: removeSubCategoryInput }),
});

export const removeFrameworkYearSpecifics = declare({
  solution: ESG,
  operation: 'removeFrameworkYearSpecifics',
  summary: "Removes a framework's funding figures of a year; its rows stay.",
  input: { identifier: frameworkIdentifier, year: reportingYear },
  service: 'taxonomy',
  method: 'removeFrameworkYearSpecifics',
  request: (i) => ({ frameworkIdentifier: i.identifier, reportingYear: i.year }),
  v1: messageOnly,
  graphql: changed('removeFrameworkYearSpecifics', 'framework', frameworkOf, false),
});

export const removeFramework = declare({
  solution: ESG,
  operation: 'removeFramework',
  summary: 'Removes a framework with its figures and rows of every year; refused while projects are built into it.',
  input: { identifier: frameworkIdentifier },
  service: 'taxonomy',
  method: 'removeFramework',
  request: (i) => ({ frameworkIdentifier: i.identifier }),
  v1: messageOnly,
  graphql: removed('removeFramework', frameworkOf, (f) => f.frameworkId),
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
