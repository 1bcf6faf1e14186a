import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Visibility } from '@green-impact/proto/greenimpact/common/v1/common';
import type { FrameworkRow, FrameworkSummary, ProjectSummary } from '@green-impact/proto/greenimpact/taxonomy/v1/taxonomy';
import { InternalError } from '@green-impact/shared/errors';
import { frameworkSummaryRow, projectSummaryRow, visibilityV1 as visibilityText } from '../../generated/taxonomy.js';
import { frameworkDetail, projectDetail } from './rows.js';

/** deepEqual plus the key order of the spec's lists. */
function same(actual: object, expected: object) {
  assert.deepEqual(actual, expected);
  assert.deepEqual(Object.keys(actual), Object.keys(expected));
}

const summary: FrameworkSummary = {
  frameworkId: 12,
  frameworkIdentifier: 'GBF-2024',
  frameworkName: 'Green Bond Framework',
  frameworkValueOutstanding: 500e6,
  frameworkAllocatedAmount: 450e6,
  frameworkActivePercentage: 90,
  frameworkCurrencyCode: 'EUR',
  valueOutstandingFramework: true,
  frameworkVisibility: Visibility.VISIBILITY_PUBLIC,
  reportingYear: 2024,
  owned: true,
};

const row = {
  categoryId: 1,
  categoryName: 'Renewable energy',
  subCategoryId: 10,
  subCategoryName: 'Solar power',
  subCategoryVolume: 120e6,
  superIndicatorId: 20,
  superIndicatorName: 'GHG emissions',
  indicatorId: 30,
  indicatorName: 'Avoided emissions',
  indicatorValue: 4200.5,
  unitId: 40,
  unitName: 'tCO2e',
  year: 2024,
  sdg: { '13': 'Climate Action', '7': 'Affordable and Clean Energy' },
  euObjective: {},
  language: 'English',
  languageCode: 'en',
};

const specRow = {
  category_id: 1,
  category_name: 'Renewable energy',
  sub_category_id: 10,
  sub_category_name: 'Solar power',
  sub_category_volume: 120e6,
};
const specRowTail = {
  super_indicator_id: 20,
  super_indicator_name: 'GHG emissions',
  indicator_id: 30,
  indicator_name: 'Avoided emissions',
  indicator_value: 4200.5,
  unit_id: 40,
  unit_name: 'tCO2e',
  year: 2024,
  sdg: { '7': 'Affordable and Clean Energy', '13': 'Climate Action' },
  eu_objective: {},
  language: 'English',
};

test('framework summary (§2.3): spec keys in order, yes/no and public/private strings, no proto extras', () => {
  same(frameworkSummaryRow(summary), {
    framework_id: 12,
    framework_identifier: 'GBF-2024',
    framework_name: 'Green Bond Framework',
    framework_value_outstanding: 500e6,
    framework_allocated_amount: 450e6,
    framework_active_percentage: 90,
    framework_currency_code: 'EUR',
    value_outstanding_framework: 'yes',
    framework_visibility: 'public',
  });
  assert.equal(frameworkSummaryRow({ ...summary, valueOutstandingFramework: false }).value_outstanding_framework, 'no');
});

test('a framework without year specifics for the year: its year figures are null, the keys stay', () => {
  const { frameworkValueOutstanding, frameworkAllocatedAmount, frameworkActivePercentage, valueOutstandingFramework, ...rest } = summary;
  const shaped = frameworkSummaryRow({ ...rest, frameworkVisibility: Visibility.VISIBILITY_PRIVATE });
  assert.deepEqual(
    [shaped.framework_value_outstanding, shaped.framework_allocated_amount, shaped.framework_active_percentage, shaped.value_outstanding_framework],
    [null, null, null, null],
  );
  assert.equal(shaped.framework_visibility, 'private');
  assert.equal(frameworkSummaryRow({ ...summary, frameworkValueOutstanding: 0, frameworkActivePercentage: 0 }).framework_value_outstanding, 0, 'zero is not absent');
});

test('framework detail: the summary plus `framework` rows with framework_currency_code, goals in number order', () => {
  const detail = frameworkDetail({ frameworkSummary: summary, framework: [{ ...row, frameworkCurrencyCode: 'EUR' } satisfies FrameworkRow] });
  same(detail, { ...frameworkSummaryRow(summary), framework: [{ ...specRow, framework_currency_code: 'EUR', ...specRowTail }] });
  same(detail.framework[0]!, { ...specRow, framework_currency_code: 'EUR', ...specRowTail });
  assert.deepEqual(Object.keys(detail.framework[0]!.sdg), ['7', '13']);
  assert.throws(() => frameworkDetail({ framework: [] }), InternalError);
});

test('project summary and detail (§2.4): project_allocated_amount null without year specifics; rows carry project_currency_code', () => {
  const project: ProjectSummary = {
    projectId: 3,
    projectIdentifier: 'P-SOLAR',
    projectName: 'Solar park',
    projectAllocatedAmount: 250e6,
    projectCurrencyCode: 'SEK',
    frameworkIdentifier: 'GBF-2024',
    frameworkName: 'Green Bond Framework',
    projectVisibility: Visibility.VISIBILITY_PRIVATE,
    reportingYear: 2024,
    owned: true,
  };
  const expected = {
    project_id: 3,
    project_identifier: 'P-SOLAR',
    project_name: 'Solar park',
    project_allocated_amount: 250e6,
    project_currency_code: 'SEK',
    framework_identifier: 'GBF-2024',
    framework_name: 'Green Bond Framework',
    project_visibility: 'private',
  };
  same(projectSummaryRow(project), expected);
  const { projectAllocatedAmount, ...withoutYear } = project;
  assert.equal(projectSummaryRow(withoutYear).project_allocated_amount, null);
  const detail = projectDetail({ projectSummary: project, project: [{ ...row, projectCurrencyCode: 'SEK' }] });
  same(detail, { ...expected, project: [{ ...specRow, project_currency_code: 'SEK', ...specRowTail }] });
  same(detail.project[0]!, { ...specRow, project_currency_code: 'SEK', ...specRowTail });
  assert.throws(() => projectDetail({ project: [] }), InternalError);
});

test('visibility: public, else private (the spec default)', () => {
  assert.equal(visibilityText(Visibility.VISIBILITY_PUBLIC), 'public');
  assert.equal(visibilityText(Visibility.VISIBILITY_PRIVATE), 'private');
  assert.equal(visibilityText(Visibility.VISIBILITY_UNSPECIFIED), 'private');
});
