import type { TaxonomyServiceService } from '@green-impact/proto/greenimpact/taxonomy/v1/taxonomy';
import { FailedPreconditionError, InvalidArgumentError, NotFoundError } from '@green-impact/shared/errors';
import type { CallContext, UnaryHandlers } from '@green-impact/shared/grpc/server';
import type { FakeTaxonomyData } from './fake-taxonomy-data.js';

/** The fake TaxonomyService's changes: operators only (`operator` records the call and refuses anyone else). */
export function fakeTaxonomyChanges(
  data: FakeTaxonomyData,
  operator: (method: string, request: unknown, ctx: CallContext) => void,
): Partial<UnaryHandlers<typeof TaxonomyServiceService>> {
  const { categories, subCategories, superIndicators, units, indicators, currencies, language, existing, removed } = data;
  return {
    async addCategory(req, ctx) {
      operator('addCategory', req, ctx);
      language(req.languageCode);
      const found = categories.find((c) => c.en === req.categoryName);
      if (found && req.categoryNameChanged !== undefined) {
        found.en = req.categoryNameChanged;
        return { message: 'Category changed.', id: found.id };
      }
      if (found) return { message: `Category already exists with id ${found.id}.`, id: found.id };
      const id = Math.max(...categories.map((c) => c.id)) + 1;
      categories.push({ id, en: req.categoryName });
      return { message: `Category added with id ${id}.`, id };
    },
    async addSubCategory(req, ctx) {
      operator('addSubCategory', req, ctx);
      existing(categories, 'category', req.categoryId, req.reportingYear);
      return { message: 'Sub category added with id 13.', id: 13 };
    },
    async addGoalObjectiveToSubCategory(req, ctx) {
      operator('addGoalObjectiveToSubCategory', req, ctx);
      const s = existing(subCategories, 'sub category', req.subCategoryId, req.reportingYear);
      if (req.sdgId === undefined && req.euObjectiveId === undefined) throw new InvalidArgumentError('Give sdg_id, eu_objective_id or both.');
      const what = [req.sdgId !== undefined ? `SDG ${req.sdgId}` : '', req.euObjectiveId !== undefined ? `EU objective ${req.euObjectiveId}` : '']
        .filter(Boolean)
        .join(' and ');
      return { message: `${what} added to sub category ${s.id}.`, id: s.id };
    },
    async addUnit(req, ctx) {
      operator('addUnit', req, ctx);
      return { message: 'Unit added with id 42.', id: 42 };
    },
    async addSuperIndicator(req, ctx) {
      operator('addSuperIndicator', req, ctx);
      return { message: 'Super indicator added with id 22.', id: 22 };
    },
    async addIndicator(req, ctx) {
      operator('addIndicator', req, ctx);
      if (req.unitId === undefined && req.indicatorNameChanged === undefined) throw new InvalidArgumentError('unit_id is required to add an indicator.');
      return { message: 'Indicator added with id 32.', id: 32 };
    },
    async removeCategory(req, ctx) {
      operator('removeCategory', req, ctx);
      const c = existing(categories, 'category', req.categoryId, req.reportingYear);
      if (subCategories.some((s) => s.categoryId === c.id)) {
        throw new FailedPreconditionError(`Category ${c.id} is still used by sub categories; remove them first.`);
      }
      return removed('Category');
    },
    async removeSubCategory(req, ctx) {
      operator('removeSubCategory', req, ctx);
      existing(subCategories, 'sub category', req.subCategoryId, req.reportingYear);
      return removed('Sub category');
    },
    async removeSuperIndicator(req, ctx) {
      operator('removeSuperIndicator', req, ctx);
      existing(superIndicators, 'super indicator', req.superIndicatorId, req.reportingYear);
      return req.categoryId === undefined ? removed('Super indicator') : { message: `Super indicator removed from category ${req.categoryId}.` };
    },
    async removeIndicator(req, ctx) {
      operator('removeIndicator', req, ctx);
      existing(indicators, 'indicator', req.indicatorId, req.reportingYear);
      return removed('Indicator');
    },
    async removeUnit(req, ctx) {
      operator('removeUnit', req, ctx);
      existing(units, 'unit', req.unitId, req.reportingYear);
      return removed('Unit');
    },
    async removeGoalObjectiveFromSubCategory(req, ctx) {
      operator('removeGoalObjectiveFromSubCategory', req, ctx);
      const s = existing(subCategories, 'sub category', req.subCategoryId, req.reportingYear);
      return { message: `Goal removed from sub category ${s.id}.`, id: s.id };
    },
    async addCategoryTranslation(req, ctx) {
      operator('addCategoryTranslation', req, ctx);
      language(req.languageCode);
      existing(categories, 'category', req.categoryId, req.reportingYear);
      return { message: 'category translation added', id: 1 };
    },
    async addSubCategoryTranslation(req, ctx) {
      operator('addSubCategoryTranslation', req, ctx);
      language(req.languageCode);
      return { message: 'sub category translation changed', id: 2 };
    },
    async addSuperIndicatorTranslation(req, ctx) {
      operator('addSuperIndicatorTranslation', req, ctx);
      language(req.languageCode);
      return { message: 'super indicator translation added', id: 3 };
    },
    async addIndicatorTranslation(req, ctx) {
      operator('addIndicatorTranslation', req, ctx);
      language(req.languageCode);
      return { message: 'indicator translation added', id: 4 };
    },
    async addUnitTranslation(req, ctx) {
      operator('addUnitTranslation', req, ctx);
      language(req.languageCode);
      return { message: 'unit translation changed', id: 5 };
    },
    async addCurrency(req, ctx) {
      operator('addCurrency', req, ctx);
      const known = currencies.indexOf(req.currencyCode);
      if (known >= 0) return { message: `Currency already exists with id ${known + 1}.`, id: known + 1 };
      currencies.push(req.currencyCode);
      return { message: `Currency added with id ${currencies.length}.`, id: currencies.length };
    },
    async removeCurrency(req, ctx) {
      operator('removeCurrency', req, ctx);
      if (!currencies.includes(req.currencyCode)) throw new NotFoundError(`No such currency ${req.currencyCode}.`);
      return { message: 'Currency removed.' };
    },
    async addFxRate(req, ctx) {
      operator('addFxRate', req, ctx);
      if (req.currencyCodeNumerator === req.currencyCodeDenominator) {
        throw new InvalidArgumentError('The numerator and denominator currencies must differ.');
      }
      return { message: 'FX rate added with id 2.', id: 2 };
    },
    async removeFxRate(req, ctx) {
      operator('removeFxRate', req, ctx);
      return { message: 'FX rate removed.' };
    },
  };
}
