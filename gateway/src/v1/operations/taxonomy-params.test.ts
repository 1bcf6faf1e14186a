import { test } from 'node:test';
import assert from 'node:assert/strict';
import { InvalidArgumentError } from '@green-impact/shared/errors';
import { validateParameters, type ParamSpecs } from '../parameters.js';
import { operationTable } from '../operation-table.js';
import {
  addIndicatorParams,
  addSubCategoryParams,
  categoryTranslationParams,
  goalObjectiveParams,
  requireGoalOrObjective,
  yearReadParams,
} from './taxonomy-params.js';

const fails = (specs: ParamSpecs, raw: Record<string, unknown>, message: string) =>
  assert.throws(
    () => validateParameters(specs, raw),
    (err: unknown) => err instanceof InvalidArgumentError && err.message === message,
    message,
  );

const TAXONOMY_OPERATIONS = [
  'getSDGs', 'getEUObjectives', 'getCategories', 'getSubCategories', 'getSuperIndicators', 'getIndicators', 'getUnits',
  'getTaxonomy', 'addCategory', 'addSubCategory', 'addGoalObjectiveToSubCategory', 'addUnit', 'addSuperIndicator',
  'addIndicator', 'removeCategory', 'removeSubCategory', 'removeSuperIndicator', 'removeIndicator', 'removeUnit',
  'removeGoalObjectiveFromSubCategory', 'getLanguages', 'addCategoryTranslation', 'addSubCategoryTranslation',
  'addSuperIndicatorTranslation', 'addIndicatorTranslation', 'addUnitTranslation', 'getCurrencies', 'getFXrates',
  'addCurrency', 'addFXrate', 'removeCurrency', 'removeFXrate',
];

test('every taxonomy, translation and currency operation is in the table under SVC.ESG.Credits', () => {
  for (const name of TAXONOMY_OPERATIONS) {
    assert.ok(operationTable.find('SVC.ESG.Credits', name), `${name} missing`);
  }
  assert.equal(operationTable.find('SVC.ESG.Credits', 'getsdgs'), undefined, 'names are case-sensitive');
});

test('reporting_year: required, exactly 4 digits, number or string', () => {
  fails(yearReadParams, {}, 'reporting_year is required.');
  fails(yearReadParams, { reporting_year: '' }, 'reporting_year is required.');
  fails(yearReadParams, { reporting_year: 20245 }, 'reporting_year must be a 4-digit year.');
  fails(yearReadParams, { reporting_year: '24' }, 'reporting_year must be a 4-digit year.');
  fails(yearReadParams, { reporting_year: 2024.5 }, 'reporting_year must be a 4-digit year.');
  assert.deepEqual(validateParameters(yearReadParams, { reporting_year: '2024', language_code: 'sv' }), {
    reporting_year: 2024,
    language_code: 'sv',
  });
  assert.deepEqual(validateParameters(yearReadParams, { reporting_year: 2024, language_code: '' }), { reporting_year: 2024 });
});

test('ids: positive integers, numeric strings accepted', () => {
  const base = { sub_category_name: 'Solar', reporting_year: 2024, language_code: 'en' };
  fails(addSubCategoryParams, { ...base, category_id: 'one' }, 'category_id must be an integer.');
  fails(addSubCategoryParams, { ...base, category_id: 1.5 }, 'category_id must be an integer.');
  fails(addSubCategoryParams, { ...base, category_id: 0 }, 'category_id must be at least 1.');
  fails(addSubCategoryParams, { ...base }, 'category_id is required.');
  fails(addSubCategoryParams, { ...base, category_id: 1, category_id_changed: 'x' }, 'category_id_changed must be an integer.');
  assert.deepEqual(validateParameters(addSubCategoryParams, { ...base, category_id: '3', category_id_changed: 4 }), {
    ...base,
    category_id: 3,
    category_id_changed: 4,
  });
});

test('addGoalObjectiveToSubCategory: "" means unused; at least one id is needed', () => {
  const p = validateParameters(goalObjectiveParams, { sub_category_id: '10', reporting_year: 2024, sdg_id: '7', eu_objective_id: '' });
  assert.deepEqual(p, { sub_category_id: 10, reporting_year: 2024, sdg_id: 7 });
  requireGoalOrObjective(p);
  const neither = validateParameters(goalObjectiveParams, { sub_category_id: 10, reporting_year: 2024, sdg_id: '', eu_objective_id: '' });
  assert.throws(() => requireGoalOrObjective(neither), /^InvalidArgumentError: Give sdg_id, eu_objective_id or both\.$/);
  assert.throws(
    () => requireGoalOrObjective(neither, { sdg_id: 'input.sdgId', eu_objective_id: 'input.euObjectiveId' }),
    /Give input\.sdgId, input\.euObjectiveId or both\./,
  );
  fails(goalObjectiveParams, { sub_category_id: 10, reporting_year: 2024, sdg_id: 'seven' }, 'sdg_id must be an integer.');
});

test('adds: names required, *_changed optional, language_code required only where the spec says so', () => {
  fails(addSubCategoryParams, { category_id: 1, reporting_year: 2024, language_code: 'en' }, 'sub_category_name is required.');
  fails(addSubCategoryParams, { sub_category_name: 'S', category_id: 1, reporting_year: 2024 }, 'language_code is required.');
  fails(
    addSubCategoryParams,
    { sub_category_name: 'x'.repeat(256), category_id: 1, reporting_year: 2024, language_code: 'en' },
    'sub_category_name must be at most 255 characters.',
  );
  assert.deepEqual(
    validateParameters(addIndicatorParams, { indicator_name: 'I', super_indicator_id: 20, reporting_year: 2024, indicator_name_changed: '' }),
    { indicator_name: 'I', super_indicator_id: 20, reporting_year: 2024 },
  );
});

test('translations: item id, reporting_year, language_code and translation all required', () => {
  const full = { category_id: 1, reporting_year: 2024, language_code: 'sv', translation: 'Förnybar energi' };
  assert.deepEqual(validateParameters(categoryTranslationParams, full), full);
  for (const name of Object.keys(full)) {
    fails(categoryTranslationParams, { ...full, [name]: '' }, `${name} is required.`);
  }
});
