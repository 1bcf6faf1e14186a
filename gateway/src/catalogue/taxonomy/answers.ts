import { z } from 'zod';
import {
  categoryAnswer,
  euObjectiveAnswer,
  indicatorAnswer,
  sdgAnswer,
  subCategoryAnswer,
  superIndicatorAnswer,
  taxonomyRowAnswer,
  unitAnswer,
} from '../../generated/taxonomy.js';
import { answer, changed, currencyCode, exampleIndicator, examplePath, id, year, type Answers } from '../answer-shapes.js';

/**
 * 200 answers of the taxonomy operations (spec §4.3, §4.4, §4.5): reads answer arrays of the spec's rows
 * (§2.1, §2.2; empty when there is nothing), changes `{message}` with the service's text.
 */

const languageRow = z.strictObject({ id: id(), language_code: z.string().min(1), language: z.string() });
const currencyRow = z.strictObject({ id: id(), currency_code: currencyCode() });
const fxRateRow = z.strictObject({
  fx_conversion_id: z.int().min(0).meta({ description: 'The stored rate\'s id; 0 for a pair derived from stored ones (identity, reciprocal).' }),
  year: year(),
  numerator_currency_code: currencyCode(),
  denominator_currency_code: currencyCode(),
  fx_rate: z.number().positive(),
});

const goals = { '7': 'Affordable and clean energy', '13': 'Climate action' };
const objectives = { '1': 'Climate change mitigation' };

export const taxonomyAnswers = {
  getSDGs: answer(z.array(sdgAnswer), [{ sdg_id: 7, goal_no: '7', sdg: 'Affordable and clean energy', language: 'English' }]),
  getEUObjectives: answer(z.array(euObjectiveAnswer), [
    { eu_objectiv_id: 1, objective_no: '1', objective: 'Climate change mitigation', language: 'English' },
  ]),
  getCategories: answer(z.array(categoryAnswer), [{ category_id: 3, category_name: 'Renewable energy', language: 'English' }]),
  getSubCategories: answer(z.array(subCategoryAnswer), [
    {
      sub_category_id: 12,
      sub_category_name: 'Solar power',
      category_id: 3,
      category_name: 'Renewable energy',
      sdg: goals,
      eu_objective: objectives,
      language: 'English',
    },
  ]),
  getSuperIndicators: answer(z.array(superIndicatorAnswer), [
    { super_indicator_id: 5, super_indicator_name: 'Renewable energy generated', category_id: 3, category_name: 'Renewable energy', language: 'English' },
  ]),
  getIndicators: answer(z.array(indicatorAnswer), [{ ...exampleIndicator, language: 'English' }]),
  getUnits: answer(z.array(unitAnswer), [{ unit_id: 2, unit_name: 'MWh', language: 'English' }]),
  getTaxonomy: answer(z.array(taxonomyRowAnswer), [
    {
      ...examplePath,
      sdg: goals,
      eu_objective: objectives,
      language: 'English',
    },
  ]),
  addCategory: changed('Category added with id 3.'),
  addSubCategory: changed('Sub category added with id 12.'),
  addGoalObjectiveToSubCategory: changed('SDG 7 and EU objective 1 added to sub category 12.'),
  addUnit: changed('Unit added with id 2.'),
  addSuperIndicator: changed('Super indicator added to category 3 with id 5.'),
  addIndicator: changed('Indicator added with id 21.'),
  removeCategory: changed('Category removed.'),
  removeSubCategory: changed('Sub category removed.'),
  removeSuperIndicator: changed('Super indicator removed from category 3.'),
  removeIndicator: changed('Indicator removed.'),
  removeUnit: changed('Unit removed.'),
  removeGoalObjectiveFromSubCategory: changed('SDG 7 removed from sub category 12.'),

  getLanguages: answer(z.array(languageRow), [
    { id: 1, language_code: 'en', language: 'English' },
    { id: 2, language_code: 'de', language: 'Deutsch' },
  ]),
  addCategoryTranslation: changed('category translation added'),
  addSubCategoryTranslation: changed('sub category translation added'),
  addSuperIndicatorTranslation: changed('super indicator translation added'),
  addIndicatorTranslation: changed('indicator translation added'),
  addUnitTranslation: changed('unit translation added'),

  getCurrencies: answer(z.array(currencyRow), [
    { id: 1, currency_code: 'EUR' },
    { id: 2, currency_code: 'USD' },
  ]),
  getFXrates: answer(z.array(fxRateRow), [
    { fx_conversion_id: 4, year: 2024, numerator_currency_code: 'USD', denominator_currency_code: 'EUR', fx_rate: 1.0824 },
    { fx_conversion_id: 0, year: 2024, numerator_currency_code: 'EUR', denominator_currency_code: 'USD', fx_rate: 1 / 1.0824 },
  ]),
  addCurrency: changed('Currency added with id 2.'),
  addFXrate: changed('FX rate added with id 4.'),
  removeCurrency: changed('Currency removed.'),
  removeFXrate: changed('FX rate removed.'),
} satisfies Answers;
