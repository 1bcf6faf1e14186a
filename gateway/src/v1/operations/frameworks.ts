import { defineOperation } from '../operation.js';
import {
  addCategoryIndicatorToFrameworkParams,
  addFrameworkParams,
  addYearSpecificsToFrameworkParams,
  frameworkYearParams,
  getFrameworkDetailsParams,
  getFrameworksParams,
  removeCategoryFromFrameworkParams,
  removeFrameworkParams,
  removeIndicatorFromFrameworkParams,
  toVisibility,
  yes,
} from './framework-params.js';
import { frameworkDetail, frameworkSummaryRow } from './framework-shapes.js';
import { call, messageOnly, taxonomy } from './taxonomy.js';
import { listed } from '../truncation.js';

/**
 * /v1/call operations of spec §4.6: green frameworks, their year specifics and (sub category, indicator)
 * rows, served by TaxonomyService. Reads answer the spec's summaries and details; changes answer
 * `{message}` with the service's text. Ownership and visibility are the service's (`Not authorized.`).
 */

const ESG = 'SVC.ESG.Credits';

export const frameworkOperations = [
  defineOperation({
    solution: ESG,
    operation: 'getFrameworks',
    params: getFrameworksParams,
    async handler(p, ctx) {
      const req = { reportingYear: p.reporting_year, frameworkVisibility: toVisibility(p.framework_visibility) };
      const res = await taxonomy(ctx).getFrameworks(req, call(ctx));
      return listed(ctx, res, res.frameworks.map(frameworkSummaryRow));
    },
  }),
  defineOperation({
    // The spec answers "array of framework detail": an array holding the one framework read.
    solution: ESG,
    operation: 'getFrameworkDetails',
    params: getFrameworkDetailsParams,
    async handler(p, ctx) {
      const req = { frameworkIdentifier: p.framework_identifier, reportingYear: p.reporting_year, languageCode: p.language_code };
      return (await taxonomy(ctx).getFrameworkDetails(req, call(ctx))).frameworks.map(frameworkDetail);
    },
  }),
  defineOperation({
    solution: ESG,
    operation: 'addFramework',
    params: addFrameworkParams,
    async handler(p, ctx) {
      const req = {
        frameworkIdentifier: p.framework_identifier,
        frameworkName: p.framework_name,
        frameworkCurrencyCode: p.framework_currency_code,
        frameworkVisibility: toVisibility(p.framework_visibility),
      };
      return messageOnly(await taxonomy(ctx).addFramework(req, call(ctx)));
    },
  }),
  defineOperation({
    solution: ESG,
    operation: 'addYearSpecificsToFramework',
    params: addYearSpecificsToFrameworkParams,
    async handler(p, ctx) {
      const req = {
        frameworkIdentifier: p.framework_identifier,
        valueOutstanding: p.value_outstanding,
        allocatedAmount: p.allocated_amount,
        valueOutstandingFramework: yes(p.value_outstanding_framework),
        reportingYear: p.reporting_year,
      };
      return messageOnly(await taxonomy(ctx).addYearSpecificsToFramework(req, call(ctx)));
    },
  }),
  defineOperation({
    solution: ESG,
    operation: 'addCategoryIndicatorToFramework',
    params: addCategoryIndicatorToFrameworkParams,
    async handler(p, ctx) {
      const req = {
        frameworkIdentifier: p.framework_identifier,
        subCategoryId: p.sub_category_id,
        subCategoryVolume: p.sub_category_volume,
        indicatorId: p.indicator_id,
        indicatorValue: p.indicator_value,
        reportingYear: p.reporting_year,
      };
      return messageOnly(await taxonomy(ctx).addCategoryIndicatorToFramework(req, call(ctx)));
    },
  }),
  defineOperation({
    solution: ESG,
    operation: 'removeIndicatorFromFramework',
    params: removeIndicatorFromFrameworkParams,
    async handler(p, ctx) {
      const req = {
        frameworkIdentifier: p.framework_identifier,
        indicatorId: p.indicator_id,
        subCategoryId: p.sub_category_id,
        reportingYear: p.reporting_year,
      };
      return messageOnly(await taxonomy(ctx).removeIndicatorFromFramework(req, call(ctx)));
    },
  }),
  defineOperation({
    solution: ESG,
    operation: 'removeCategoryFromFramework',
    params: removeCategoryFromFrameworkParams,
    async handler(p, ctx) {
      const req = { frameworkIdentifier: p.framework_identifier, subCategoryId: p.sub_category_id, reportingYear: p.reporting_year };
      return messageOnly(await taxonomy(ctx).removeCategoryFromFramework(req, call(ctx)));
    },
  }),
  defineOperation({
    solution: ESG,
    operation: 'removeFrameworkYearSpecifics',
    params: frameworkYearParams,
    async handler(p, ctx) {
      const req = { frameworkIdentifier: p.framework_identifier, reportingYear: p.reporting_year };
      return messageOnly(await taxonomy(ctx).removeFrameworkYearSpecifics(req, call(ctx)));
    },
  }),
  defineOperation({
    solution: ESG,
    operation: 'removeFramework',
    params: removeFrameworkParams,
    async handler(p, ctx) {
      return messageOnly(await taxonomy(ctx).removeFramework({ frameworkIdentifier: p.framework_identifier }, call(ctx)));
    },
  }),
];
