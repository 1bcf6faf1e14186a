import type { TaxonomyServiceService } from '@green-impact/proto/greenimpact/taxonomy/v1/taxonomy';
import { requireCaller } from '@green-impact/shared/caller';
import type { UnaryHandlers } from '@green-impact/shared/grpc/server';
import { MSG } from '../messages.js';
import type { TaxonomyStores } from '../stores.js';
import { CATEGORY, INDICATOR, SUB_CATEGORY, SUPER_INDICATOR, UNIT } from './items.js';

/** §4.3 taxonomy reads, adds, removals and §4.4 translations: thin translations to store calls. */
export function taxonomyHandlers(s: TaxonomyStores): Partial<UnaryHandlers<typeof TaxonomyServiceService>> {
  return {
    // ---- reads (any caller) ----
    async getCategories(req, ctx) {
      requireCaller(ctx.caller);
      return { categories: await s.reader.categories(req.reportingYear, req.languageCode) };
    },
    async getSubCategories(req, ctx) {
      requireCaller(ctx.caller);
      return { subCategories: await s.reader.subCategories(req.reportingYear, req.languageCode) };
    },
    async getSuperIndicators(req, ctx) {
      requireCaller(ctx.caller);
      return { superIndicators: await s.reader.superIndicators(req.reportingYear, req.languageCode) };
    },
    async getIndicators(req, ctx) {
      requireCaller(ctx.caller);
      return { indicators: await s.reader.indicators(req.reportingYear, req.languageCode) };
    },
    async getUnits(req, ctx) {
      requireCaller(ctx.caller);
      return { units: await s.reader.units(req.reportingYear, req.languageCode) };
    },
    async getTaxonomy(req, ctx) {
      requireCaller(ctx.caller);
      return { rows: await s.reader.taxonomy(req.reportingYear, req.languageCode) };
    },

    // ---- adds and renames (operators) ----
    async addCategory(req, ctx) {
      return s.categories.add(requireCaller(ctx.caller), {
        name: req.categoryName,
        reportingYear: req.reportingYear,
        nameChanged: req.categoryNameChanged,
        languageCode: req.languageCode,
      });
    },
    async addSubCategory(req, ctx) {
      return s.subCategories.add(requireCaller(ctx.caller), {
        name: req.subCategoryName,
        categoryId: req.categoryId,
        reportingYear: req.reportingYear,
        nameChanged: req.subCategoryNameChanged,
        categoryIdChanged: req.categoryIdChanged,
        languageCode: req.languageCode,
      });
    },
    async addGoalObjectiveToSubCategory(req, ctx) {
      return s.goalLinks.add(requireCaller(ctx.caller), req);
    },
    async addUnit(req, ctx) {
      return s.units.add(requireCaller(ctx.caller), {
        name: req.unitName,
        reportingYear: req.reportingYear,
        nameChanged: req.unitNameChanged,
        languageCode: req.languageCode,
      });
    },
    async addSuperIndicator(req, ctx) {
      return s.superIndicators.add(requireCaller(ctx.caller), {
        name: req.superIndicatorName,
        categoryId: req.categoryId,
        reportingYear: req.reportingYear,
        nameChanged: req.superIndicatorNameChanged,
        categoryIdChanged: req.categoryIdChanged,
        languageCode: req.languageCode,
      });
    },
    async addIndicator(req, ctx) {
      return s.indicators.add(requireCaller(ctx.caller), {
        name: req.indicatorName,
        superIndicatorId: req.superIndicatorId,
        unitId: req.unitId,
        reportingYear: req.reportingYear,
        nameChanged: req.indicatorNameChanged,
        superIndicatorIdChanged: req.superIndicatorIdChanged,
        unitIdChanged: req.unitIdChanged,
        languageCode: req.languageCode,
      });
    },

    // ---- removals (operators) ----
    async removeCategory(req, ctx) {
      return s.categories.remove(requireCaller(ctx.caller), req.categoryId, req.reportingYear);
    },
    async removeSubCategory(req, ctx) {
      return s.subCategories.remove(requireCaller(ctx.caller), req.subCategoryId, req.reportingYear);
    },
    async removeSuperIndicator(req, ctx) {
      return s.superIndicators.remove(requireCaller(ctx.caller), req.superIndicatorId, req.reportingYear, req.categoryId);
    },
    async removeIndicator(req, ctx) {
      return s.indicators.remove(requireCaller(ctx.caller), req.indicatorId, req.reportingYear);
    },
    async removeUnit(req, ctx) {
      return s.units.remove(requireCaller(ctx.caller), req.unitId, req.reportingYear);
    },
    async removeGoalObjectiveFromSubCategory(req, ctx) {
      return s.goalLinks.remove(requireCaller(ctx.caller), req);
    },

    // ---- §4.4 translations (operators; spec messages verbatim) ----
    async addCategoryTranslation(req, ctx) {
      const id = await s.translations.upsert(requireCaller(ctx.caller), CATEGORY, { itemId: req.categoryId, ...req });
      return { message: MSG.categoryTranslation, id };
    },
    async addSubCategoryTranslation(req, ctx) {
      const id = await s.translations.upsert(requireCaller(ctx.caller), SUB_CATEGORY, { itemId: req.subCategoryId, ...req });
      return { message: MSG.subCategoryTranslation, id };
    },
    async addSuperIndicatorTranslation(req, ctx) {
      const id = await s.translations.upsert(requireCaller(ctx.caller), SUPER_INDICATOR, { itemId: req.superIndicatorId, ...req });
      return { message: MSG.superIndicatorTranslation, id };
    },
    async addIndicatorTranslation(req, ctx) {
      const id = await s.translations.upsert(requireCaller(ctx.caller), INDICATOR, { itemId: req.indicatorId, ...req });
      return { message: MSG.indicatorTranslation, id };
    },
    async addUnitTranslation(req, ctx) {
      const id = await s.translations.upsert(requireCaller(ctx.caller), UNIT, { itemId: req.unitId, ...req });
      return { message: MSG.unitTranslation, id };
    },
  };
}
