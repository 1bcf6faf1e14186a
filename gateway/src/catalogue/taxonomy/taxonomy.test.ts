import { test } from 'node:test';
import assert from 'node:assert/strict';
import { InvalidArgumentError } from '@green-impact/shared/errors';
import { operationTable } from '../../v1/operation-table.js';
import { inputFromGraphql, inputFromV1 } from '../parse.js';
import { addCategoryTranslation } from './translations.js';
import { addGoalObjectiveToSubCategory, addIndicator, addSubCategory, getCategories } from './taxonomy.js';

/**
 * What the gateway checks of the taxonomy's operations: presence and types, from the declarations. The
 * bounds (4-digit years, positive ids, 1 to 255 characters, one of sdg_id / eu_objective_id) are the
 * taxonomy service's (services/taxonomy/src/validation.test.ts and its handlers' tests), answered through
 * both faces as they are (test/src/taxonomy-e2e.test.ts).
 */

const fails = (run: () => unknown, message: string) =>
  assert.throws(run, (err: unknown) => err instanceof InvalidArgumentError && err.message === message, message);

const TAXONOMY_OPERATIONS = [
  'getSDGs', 'getEUObjectives', 'getCategories', 'getSubCategories', 'getSuperIndicators', 'getIndicators', 'getUnits',
  'getTaxonomy', 'addCategory', 'addSubCategory', 'addGoalObjectiveToSubCategory', 'addUnit', 'addSuperIndicator',
  'addIndicator', 'removeCategory', 'removeSubCategory', 'removeSuperIndicator', 'removeIndicator', 'removeUnit',
  'removeGoalObjectiveFromSubCategory', 'getLanguages', 'addCategoryTranslation', 'addSubCategoryTranslation',
  'addSuperIndicatorTranslation', 'addIndicatorTranslation', 'addUnitTranslation', 'getCurrencies', 'getFXrates',
  'addCurrency', 'addFXrate', 'removeCurrency', 'removeFXrate',
];

test('every taxonomy, translation and currency operation is in the table under SVC.ESG.Credits', () => {
  for (const name of TAXONOMY_OPERATIONS) assert.ok(operationTable.find('SVC.ESG.Credits', name), `${name} missing`);
  assert.equal(operationTable.find('SVC.ESG.Credits', 'getsdgs'), undefined, 'names are case-sensitive');
});

test('reporting_year: required, an integer as number or text', () => {
  const read = getCategories.input;
  fails(() => inputFromV1(read, {}), 'reporting_year is required.');
  fails(() => inputFromV1(read, { reporting_year: '' }), 'reporting_year is required.');
  fails(() => inputFromV1(read, { reporting_year: 2024.5 }), 'reporting_year must be an integer.');
  fails(() => inputFromV1(read, { reporting_year: 'MMXXIV' }), 'reporting_year must be an integer.');
  assert.deepEqual(inputFromV1(read, { reporting_year: '2024', language_code: 'sv' }), { year: 2024, languageCode: 'sv' });
  assert.deepEqual(inputFromV1(read, { reporting_year: 2024, language_code: '' }), { year: 2024 });
  fails(() => inputFromGraphql(read, { year: 2024.5 }, false), 'year must be an integer.');
});

test('ids: integers, numeric strings accepted (GraphQL IDs arrive as strings)', () => {
  const base = { sub_category_name: 'Solar', reporting_year: 2024, language_code: 'en' };
  fails(() => inputFromV1(addSubCategory.input, { ...base, category_id: 'one' }), 'category_id must be an integer.');
  fails(() => inputFromV1(addSubCategory.input, { ...base, category_id: 1.5 }), 'category_id must be an integer.');
  fails(() => inputFromV1(addSubCategory.input, base), 'category_id is required.');
  fails(() => inputFromV1(addSubCategory.input, { ...base, category_id: 1, category_id_changed: 'x' }), 'category_id_changed must be an integer.');
  assert.deepEqual(inputFromV1(addSubCategory.input, { ...base, category_id: '3', category_id_changed: 4 }), {
    name: 'Solar',
    year: 2024,
    languageCode: 'en',
    categoryId: 3,
    newCategoryId: 4,
  });
  fails(() => inputFromGraphql(addSubCategory.input, { input: { name: 'S', categoryId: 'x', year: 2024, languageCode: 'en' } }, true), 'input.categoryId must be an integer.');
});

test('goal/objective links: "" means unused', () => {
  const p = inputFromV1(addGoalObjectiveToSubCategory.input, { sub_category_id: '10', reporting_year: 2024, sdg_id: '7', eu_objective_id: '' });
  assert.deepEqual(p, { subCategoryId: 10, year: 2024, sdgId: 7 });
  fails(() => inputFromV1(addGoalObjectiveToSubCategory.input, { sub_category_id: 10, reporting_year: 2024, sdg_id: 'seven' }), 'sdg_id must be an integer.');
});

test('adds: names required, *_changed optional, language_code required only where the spec says so', () => {
  fails(() => inputFromV1(addSubCategory.input, { category_id: 1, reporting_year: 2024, language_code: 'en' }), 'sub_category_name is required.');
  fails(() => inputFromV1(addSubCategory.input, { sub_category_name: 'S', category_id: 1, reporting_year: 2024 }), 'language_code is required.');
  fails(() => inputFromV1(addSubCategory.input, { sub_category_name: 'a\u0000b', category_id: 1, reporting_year: 2024, language_code: 'en' }), 'sub_category_name must not contain control characters.');
  assert.deepEqual(inputFromV1(addIndicator.input, { indicator_name: 'I', super_indicator_id: 20, reporting_year: 2024, indicator_name_changed: '' }), {
    name: 'I',
    superIndicatorId: 20,
    year: 2024,
  });
});

test('translations: item id, reporting_year, language_code and translation all required', () => {
  const full = { category_id: 1, reporting_year: 2024, language_code: 'sv', translation: 'Förnybar energi' };
  assert.deepEqual(inputFromV1(addCategoryTranslation.input, full), { id: 1, year: 2024, languageCode: 'sv', translation: 'Förnybar energi' });
  for (const name of Object.keys(full)) fails(() => inputFromV1(addCategoryTranslation.input, { ...full, [name]: '' }), `${name} is required.`);
});
