import { test } from 'node:test';
import assert from 'node:assert/strict';
import { categoryRow, euObjectiveRow, indicatorRow, sdgRow, subCategoryRow, superIndicatorRow, taxonomyRow, unitRow } from '../../generated/taxonomy.js';
import { languageRow } from './rows.js';

const en = { language: 'English', languageCode: 'en' };

/** deepEqual plus the key order of the spec's tables. */
function same(actual: object, expected: object) {
  assert.deepEqual(actual, expected);
  assert.deepEqual(Object.keys(actual), Object.keys(expected));
}

test('SDG and EU objective rows (§2.1), eu_objectiv_id spelled as the spec spells it', () => {
  same(sdgRow({ sdgId: 7, goalNo: '7', sdg: 'Affordable and Clean Energy', ...en }), {
    sdg_id: 7,
    goal_no: '7',
    sdg: 'Affordable and Clean Energy',
    language: 'English',
  });
  same(euObjectiveRow({ euObjectivId: 1, objectiveNo: '1', objective: 'Climate change mitigation', ...en }), {
    eu_objectiv_id: 1,
    objective_no: '1',
    objective: 'Climate change mitigation',
    language: 'English',
  });
});

test('category, super indicator, indicator and unit rows (§2.1)', () => {
  same(categoryRow({ categoryId: 1, categoryName: 'Renewable energy', reportingYear: 2024, ...en }), {
    category_id: 1,
    category_name: 'Renewable energy',
    language: 'English',
  });
  same(
    superIndicatorRow({ superIndicatorId: 20, superIndicatorName: 'GHG', categoryId: 1, categoryName: 'Energy', reportingYear: 2024, ...en }),
    { super_indicator_id: 20, super_indicator_name: 'GHG', category_id: 1, category_name: 'Energy', language: 'English' },
  );
  same(
    indicatorRow({
      indicatorId: 30,
      indicatorName: 'Avoided emissions',
      superIndicatorId: 20,
      superIndicatorName: 'GHG',
      unitId: 40,
      unitName: 'tCO2e',
      reportingYear: 2024,
      ...en,
    }),
    {
      indicator_id: 30,
      indicator_name: 'Avoided emissions',
      super_indicator_id: 20,
      super_indicator_name: 'GHG',
      unit_id: 40,
      unit_name: 'tCO2e',
      language: 'English',
    },
  );
  same(unitRow({ unitId: 40, unitName: 'tCO2e', reportingYear: 2024, ...en }), { unit_id: 40, unit_name: 'tCO2e', language: 'English' });
});

test('sub category and full taxonomy rows: goal objects keyed by number, in number order, may be empty', () => {
  same(
    subCategoryRow({
      subCategoryId: 10,
      subCategoryName: 'Wind power',
      categoryId: 1,
      categoryName: 'Renewable energy',
      sdg: { '13': 'Climate Action', '7': 'Affordable and Clean Energy' },
      euObjective: {},
      reportingYear: 2024,
      ...en,
    }),
    {
      sub_category_id: 10,
      sub_category_name: 'Wind power',
      category_id: 1,
      category_name: 'Renewable energy',
      sdg: { '7': 'Affordable and Clean Energy', '13': 'Climate Action' },
      eu_objective: {},
      language: 'English',
    },
  );
  same(
    taxonomyRow({
      categoryId: 1,
      categoryName: 'C',
      subCategoryId: 10,
      subCategoryName: 'S',
      superIndicatorId: 20,
      superIndicatorName: 'SI',
      indicatorId: 30,
      indicatorName: 'I',
      unitId: 40,
      unitName: 'U',
      sdg: { '7': 'Affordable and Clean Energy' },
      euObjective: { '1': 'Climate change mitigation' },
      ...en,
    }),
    {
      category_id: 1,
      category_name: 'C',
      sub_category_id: 10,
      sub_category_name: 'S',
      super_indicator_id: 20,
      super_indicator_name: 'SI',
      indicator_id: 30,
      indicator_name: 'I',
      unit_id: 40,
      unit_name: 'U',
      sdg: { '7': 'Affordable and Clean Energy' },
      eu_objective: { '1': 'Climate change mitigation' },
      language: 'English',
    },
  );
});

test('language rows (§2.2)', () => {
  same(languageRow({ id: 2, languageCode: 'sv', language: 'Swedish' }), { id: 2, language_code: 'sv', language: 'Swedish' });
});
