import { taxonomyClient } from '../../clients.js';
import { defineOperation, type OperationContext } from '../operation.js';
import {
  addCategoryParams,
  addIndicatorParams,
  addSubCategoryParams,
  addSuperIndicatorParams,
  addUnitParams,
  goalObjectiveParams,
  languageReadParams,
  removeCategoryParams,
  removeIndicatorParams,
  removeSubCategoryParams,
  removeSuperIndicatorParams,
  removeUnitParams,
  requireGoalOrObjective,
  yearReadParams,
} from './taxonomy-params.js';
import {
  categoryRow,
  euObjectiveRow,
  indicatorRow,
  sdgRow,
  subCategoryRow,
  superIndicatorRow,
  taxonomyRow,
  unitRow,
} from './taxonomy-shapes.js';

/**
 * /v1/call operations of spec §4.3 (taxonomy reads, adds and renames) and the removals the spec leaves
 * unnamed (docs/api-operations.md). Every one is a call to TaxonomyService; reads answer arrays of the
 * spec's rows (empty when there is nothing), changes answer `{message}` with the service's text.
 */

const ESG = 'SVC.ESG.Credits';

export const call = (ctx: OperationContext) => ({ caller: ctx.caller, requestId: ctx.requestId });
export const taxonomy = (ctx: OperationContext) => taxonomyClient(ctx.clients);
export const messageOnly = ({ message }: { message: string }) => ({ message });
/** The request of every per-year taxonomy read. */
const yearRead = (p: { reporting_year: number; language_code?: string | undefined }) => ({
  reportingYear: p.reporting_year,
  languageCode: p.language_code,
});

export const taxonomyOperations = [
  // ---- reads ----
  defineOperation({
    solution: ESG,
    operation: 'getSDGs',
    params: languageReadParams,
    async handler(p, ctx) {
      const { sdgs } = await taxonomy(ctx).getSdgs({ languageCode: p.language_code }, call(ctx));
      return sdgs.map(sdgRow);
    },
  }),
  defineOperation({
    solution: ESG,
    operation: 'getEUObjectives',
    params: languageReadParams,
    async handler(p, ctx) {
      const { euObjectives } = await taxonomy(ctx).getEuObjectives({ languageCode: p.language_code }, call(ctx));
      return euObjectives.map(euObjectiveRow);
    },
  }),
  defineOperation({
    solution: ESG,
    operation: 'getCategories',
    params: yearReadParams,
    async handler(p, ctx) {
      return (await taxonomy(ctx).getCategories(yearRead(p), call(ctx))).categories.map(categoryRow);
    },
  }),
  defineOperation({
    solution: ESG,
    operation: 'getSubCategories',
    params: yearReadParams,
    async handler(p, ctx) {
      return (await taxonomy(ctx).getSubCategories(yearRead(p), call(ctx))).subCategories.map(subCategoryRow);
    },
  }),
  defineOperation({
    solution: ESG,
    operation: 'getSuperIndicators',
    params: yearReadParams,
    async handler(p, ctx) {
      return (await taxonomy(ctx).getSuperIndicators(yearRead(p), call(ctx))).superIndicators.map(superIndicatorRow);
    },
  }),
  defineOperation({
    solution: ESG,
    operation: 'getIndicators',
    params: yearReadParams,
    async handler(p, ctx) {
      return (await taxonomy(ctx).getIndicators(yearRead(p), call(ctx))).indicators.map(indicatorRow);
    },
  }),
  defineOperation({
    solution: ESG,
    operation: 'getUnits',
    params: yearReadParams,
    async handler(p, ctx) {
      return (await taxonomy(ctx).getUnits(yearRead(p), call(ctx))).units.map(unitRow);
    },
  }),
  defineOperation({
    // The spec's "taxonomy retrieval for a reporting year" (name not shown): full taxonomy rows.
    solution: ESG,
    operation: 'getTaxonomy',
    params: yearReadParams,
    async handler(p, ctx) {
      return (await taxonomy(ctx).getTaxonomy(yearRead(p), call(ctx))).rows.map(taxonomyRow);
    },
  }),

  // ---- adds and renames ----
  defineOperation({
    solution: ESG,
    operation: 'addCategory',
    params: addCategoryParams,
    async handler(p, ctx) {
      const req = {
        categoryName: p.category_name,
        reportingYear: p.reporting_year,
        categoryNameChanged: p.category_name_changed,
        languageCode: p.language_code,
      };
      return messageOnly(await taxonomy(ctx).addCategory(req, call(ctx)));
    },
  }),
  defineOperation({
    solution: ESG,
    operation: 'addSubCategory',
    params: addSubCategoryParams,
    async handler(p, ctx) {
      const req = {
        subCategoryName: p.sub_category_name,
        categoryId: p.category_id,
        reportingYear: p.reporting_year,
        subCategoryNameChanged: p.sub_category_name_changed,
        categoryIdChanged: p.category_id_changed,
        languageCode: p.language_code,
      };
      return messageOnly(await taxonomy(ctx).addSubCategory(req, call(ctx)));
    },
  }),
  defineOperation({
    solution: ESG,
    operation: 'addGoalObjectiveToSubCategory',
    params: goalObjectiveParams,
    async handler(p, ctx) {
      requireGoalOrObjective(p);
      const req = {
        subCategoryId: p.sub_category_id,
        reportingYear: p.reporting_year,
        sdgId: p.sdg_id,
        euObjectiveId: p.eu_objective_id,
      };
      return messageOnly(await taxonomy(ctx).addGoalObjectiveToSubCategory(req, call(ctx)));
    },
  }),
  defineOperation({
    solution: ESG,
    operation: 'addUnit',
    params: addUnitParams,
    async handler(p, ctx) {
      const req = {
        unitName: p.unit_name,
        reportingYear: p.reporting_year,
        unitNameChanged: p.unit_name_changed,
        languageCode: p.language_code,
      };
      return messageOnly(await taxonomy(ctx).addUnit(req, call(ctx)));
    },
  }),
  defineOperation({
    solution: ESG,
    operation: 'addSuperIndicator',
    params: addSuperIndicatorParams,
    async handler(p, ctx) {
      const req = {
        superIndicatorName: p.super_indicator_name,
        categoryId: p.category_id,
        reportingYear: p.reporting_year,
        superIndicatorNameChanged: p.super_indicator_name_changed,
        categoryIdChanged: p.category_id_changed,
        languageCode: p.language_code,
      };
      return messageOnly(await taxonomy(ctx).addSuperIndicator(req, call(ctx)));
    },
  }),
  defineOperation({
    solution: ESG,
    operation: 'addIndicator',
    params: addIndicatorParams,
    async handler(p, ctx) {
      const req = {
        indicatorName: p.indicator_name,
        superIndicatorId: p.super_indicator_id,
        unitId: p.unit_id,
        reportingYear: p.reporting_year,
        indicatorNameChanged: p.indicator_name_changed,
        superIndicatorIdChanged: p.super_indicator_id_changed,
        unitIdChanged: p.unit_id_changed,
        languageCode: p.language_code,
      };
      return messageOnly(await taxonomy(ctx).addIndicator(req, call(ctx)));
    },
  }),

  // ---- removals (unnamed in the spec) ----
  defineOperation({
    solution: ESG,
    operation: 'removeCategory',
    params: removeCategoryParams,
    async handler(p, ctx) {
      const req = { categoryId: p.category_id, reportingYear: p.reporting_year };
      return messageOnly(await taxonomy(ctx).removeCategory(req, call(ctx)));
    },
  }),
  defineOperation({
    solution: ESG,
    operation: 'removeSubCategory',
    params: removeSubCategoryParams,
    async handler(p, ctx) {
      const req = { subCategoryId: p.sub_category_id, reportingYear: p.reporting_year };
      return messageOnly(await taxonomy(ctx).removeSubCategory(req, call(ctx)));
    },
  }),
  defineOperation({
    solution: ESG,
    operation: 'removeSuperIndicator',
    params: removeSuperIndicatorParams,
    async handler(p, ctx) {
      const req = { superIndicatorId: p.super_indicator_id, reportingYear: p.reporting_year, categoryId: p.category_id };
      return messageOnly(await taxonomy(ctx).removeSuperIndicator(req, call(ctx)));
    },
  }),
  defineOperation({
    solution: ESG,
    operation: 'removeIndicator',
    params: removeIndicatorParams,
    async handler(p, ctx) {
      const req = { indicatorId: p.indicator_id, reportingYear: p.reporting_year };
      return messageOnly(await taxonomy(ctx).removeIndicator(req, call(ctx)));
    },
  }),
  defineOperation({
    solution: ESG,
    operation: 'removeUnit',
    params: removeUnitParams,
    async handler(p, ctx) {
      const req = { unitId: p.unit_id, reportingYear: p.reporting_year };
      return messageOnly(await taxonomy(ctx).removeUnit(req, call(ctx)));
    },
  }),
  defineOperation({
    solution: ESG,
    operation: 'removeGoalObjectiveFromSubCategory',
    params: goalObjectiveParams,
    async handler(p, ctx) {
      requireGoalOrObjective(p);
      const req = {
        subCategoryId: p.sub_category_id,
        reportingYear: p.reporting_year,
        sdgId: p.sdg_id,
        euObjectiveId: p.eu_objective_id,
      };
      return messageOnly(await taxonomy(ctx).removeGoalObjectiveFromSubCategory(req, call(ctx)));
    },
  }),
];
