import { defineOperation } from '../operation.js';
import {
  categoryTranslationParams,
  indicatorTranslationParams,
  subCategoryTranslationParams,
  superIndicatorTranslationParams,
  unitTranslationParams,
} from './taxonomy-params.js';
import { languageRow } from './taxonomy-shapes.js';
import { call, messageOnly, taxonomy } from './taxonomy.js';

/**
 * /v1/call operations of spec §4.4: languages and translations of taxonomy items (TaxonomyService).
 * The messages are the spec's (`category translation added`, …), sent by the service verbatim.
 */

const ESG = 'SVC.ESG.Credits';

export const translationOperations = [
  defineOperation({
    solution: ESG,
    operation: 'getLanguages',
    params: {},
    async handler(_p, ctx) {
      return (await taxonomy(ctx).getLanguages({}, call(ctx))).languages.map(languageRow);
    },
  }),
  defineOperation({
    solution: ESG,
    operation: 'addCategoryTranslation',
    params: categoryTranslationParams,
    async handler(p, ctx) {
      const req = { categoryId: p.category_id, reportingYear: p.reporting_year, languageCode: p.language_code, translation: p.translation };
      return messageOnly(await taxonomy(ctx).addCategoryTranslation(req, call(ctx)));
    },
  }),
  defineOperation({
    solution: ESG,
    operation: 'addSubCategoryTranslation',
    params: subCategoryTranslationParams,
    async handler(p, ctx) {
      const req = { subCategoryId: p.sub_category_id, reportingYear: p.reporting_year, languageCode: p.language_code, translation: p.translation };
      return messageOnly(await taxonomy(ctx).addSubCategoryTranslation(req, call(ctx)));
    },
  }),
  defineOperation({
    solution: ESG,
    operation: 'addSuperIndicatorTranslation',
    params: superIndicatorTranslationParams,
    async handler(p, ctx) {
      const req = {
        superIndicatorId: p.super_indicator_id,
        reportingYear: p.reporting_year,
        languageCode: p.language_code,
        translation: p.translation,
      };
      return messageOnly(await taxonomy(ctx).addSuperIndicatorTranslation(req, call(ctx)));
    },
  }),
  defineOperation({
    solution: ESG,
    operation: 'addIndicatorTranslation',
    params: indicatorTranslationParams,
    async handler(p, ctx) {
      const req = { indicatorId: p.indicator_id, reportingYear: p.reporting_year, languageCode: p.language_code, translation: p.translation };
      return messageOnly(await taxonomy(ctx).addIndicatorTranslation(req, call(ctx)));
    },
  }),
  defineOperation({
    solution: ESG,
    operation: 'addUnitTranslation',
    params: unitTranslationParams,
    async handler(p, ctx) {
      const req = { unitId: p.unit_id, reportingYear: p.reporting_year, languageCode: p.language_code, translation: p.translation };
      return messageOnly(await taxonomy(ctx).addUnitTranslation(req, call(ctx)));
    },
  }),
];
