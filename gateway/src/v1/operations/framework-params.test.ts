import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Visibility } from '@green-impact/proto/greenimpact/common/v1/common';
import { InvalidArgumentError } from '@green-impact/shared/errors';
import { operationTable } from '../operation-table.js';
import { validateParameters, type ParamSpecs } from '../parameters.js';
import {
  addCategoryIndicatorToFrameworkParams,
  addFrameworkParams,
  addYearSpecificsToFrameworkParams,
  addYearSpecificsToProjectParams,
  getFrameworksParams,
  projectYearParams,
  toVisibility,
  yes,
} from './framework-params.js';

const fails = (specs: ParamSpecs, raw: Record<string, unknown>, message: string) =>
  assert.throws(
    () => validateParameters(specs, raw),
    (err: unknown) => err instanceof InvalidArgumentError && err.message === message,
    message,
  );

const FRAMEWORK_OPERATIONS = [
  'getFrameworks', 'getFrameworkDetails', 'addFramework', 'addYearSpecificsToFramework', 'addCategoryIndicatorToFramework',
  'removeIndicatorFromFramework', 'removeCategoryFromFramework', 'removeFrameworkYearSpecifics', 'removeFramework',
];
const PROJECT_OPERATIONS = [
  'getProjects', 'getProjectDetails', 'addProject', 'addYearSpecificsToProject', 'addCategoryIndicatorToProject',
  'buildFrameworkFromProjects', 'removeIndicatorFromProject', 'removeCategoryFromProject', 'removeYearSpecificsFromProject',
  'removeProject',
];

test('every framework and project operation of spec §4.6–§4.7 is in the table under SVC.ESG.Credits', () => {
  for (const name of [...FRAMEWORK_OPERATIONS, ...PROJECT_OPERATIONS]) {
    assert.ok(operationTable.find('SVC.ESG.Credits', name), `${name} missing`);
  }
});

test('every project_identifier parameter accepts the spec misspelling project_identifer', () => {
  const withProject = operationTable.entries.filter((e) => 'project_identifier' in e.params);
  assert.deepEqual(
    withProject.map((e) => e.operation).sort(),
    PROJECT_OPERATIONS.filter((o) => !['getProjects', 'buildFrameworkFromProjects'].includes(o)).sort(),
  );
  for (const entry of withProject) {
    assert.deepEqual(entry.params['project_identifier']!.aliases, ['project_identifer'], entry.operation);
  }
  assert.deepEqual(validateParameters(projectYearParams, { project_identifer: 'P-1', reporting_year: 2024 }), {
    project_identifier: 'P-1',
    reporting_year: 2024,
  });
  assert.equal(
    validateParameters(projectYearParams, { project_identifier: 'P-1', project_identifer: 'P-2', reporting_year: 2024 }).project_identifier,
    'P-1',
    'the canonical name wins',
  );
  fails(projectYearParams, { reporting_year: 2024 }, 'project_identifier is required.');
});

test('amounts: finite numbers from 0 to 10^15, numeric strings accepted', () => {
  const specs = addYearSpecificsToProjectParams;
  const ok = (allocated_amount: unknown) =>
    validateParameters(specs, { project_identifier: 'P', allocated_amount, reporting_year: 2024 }).allocated_amount;
  assert.equal(ok(0), 0);
  assert.equal(ok('450000000.5'), 450000000.5);
  assert.equal(ok(1e15), 1e15);
  const bad = (allocated_amount: unknown, message: string) =>
    fails(specs, { project_identifier: 'P', allocated_amount, reporting_year: 2024 }, message);
  bad(-1, 'allocated_amount must be between 0 and 1000000000000000.');
  bad('-0.01', 'allocated_amount must be between 0 and 1000000000000000.');
  bad(1e15 + 1, 'allocated_amount must be between 0 and 1000000000000000.');
  bad(1e300, 'allocated_amount must be between 0 and 1000000000000000.');
  bad('NaN', 'allocated_amount must be a number.');
  bad('Infinity', 'allocated_amount must be a number.');
  bad('1e400', 'allocated_amount is out of range.');
  bad('12 EUR', 'allocated_amount must be a number.');
  bad(true, 'allocated_amount must be a number.');
  fails(specs, { project_identifier: 'P', reporting_year: 2024 }, 'allocated_amount is required.');
});

test('volumes and indicator values are bounded like amounts; ids are positive integers', () => {
  const row = { framework_identifier: 'F', sub_category_id: 10, sub_category_volume: 1, indicator_id: 30, indicator_value: 2, reporting_year: 2024 };
  assert.deepEqual(validateParameters(addCategoryIndicatorToFrameworkParams, { ...row, sub_category_id: '10' }), row);
  fails(addCategoryIndicatorToFrameworkParams, { ...row, sub_category_volume: -5 }, 'sub_category_volume must be between 0 and 1000000000000000.');
  fails(addCategoryIndicatorToFrameworkParams, { ...row, indicator_value: 2e15 }, 'indicator_value must be between 0 and 1000000000000000.');
  fails(addCategoryIndicatorToFrameworkParams, { ...row, indicator_id: 0 }, 'indicator_id must be at least 1.');
  fails(addCategoryIndicatorToFrameworkParams, { ...row, sub_category_id: 'solar' }, 'sub_category_id must be an integer.');
});

test('value_outstanding_framework is yes or no, any case; visibility public or private, optional', () => {
  const specifics = { framework_identifier: 'F', value_outstanding: 500e6, allocated_amount: 450e6, reporting_year: 2024 };
  assert.equal(validateParameters(addYearSpecificsToFrameworkParams, { ...specifics, value_outstanding_framework: 'YES' }).value_outstanding_framework, 'yes');
  for (const bad of ['true', 'y', true, 1]) {
    fails(addYearSpecificsToFrameworkParams, { ...specifics, value_outstanding_framework: bad }, 'value_outstanding_framework must be yes or no.');
  }
  fails(addYearSpecificsToFrameworkParams, specifics, 'value_outstanding_framework is required.');
  const framework = { framework_identifier: 'F', framework_name: 'Green', framework_currency_code: 'eur' };
  assert.deepEqual(validateParameters(addFrameworkParams, { ...framework, framework_visibility: 'Public' }), {
    ...framework,
    framework_currency_code: 'EUR',
    framework_visibility: 'public',
  });
  assert.equal(validateParameters(addFrameworkParams, { ...framework, framework_visibility: '' }).framework_visibility, undefined);
  fails(addFrameworkParams, { ...framework, framework_visibility: 'shared' }, 'framework_visibility must be public or private.');
  fails(addFrameworkParams, { ...framework, framework_currency_code: 'EURO' }, 'framework_currency_code must be a 3-letter currency code.');
  fails(getFrameworksParams, { reporting_year: 24 }, 'reporting_year must be a 4-digit year.');
});

test('conversions to the proto: visibility enum (absent stays absent) and yes/no → bool', () => {
  assert.equal(toVisibility('public'), Visibility.VISIBILITY_PUBLIC);
  assert.equal(toVisibility('private'), Visibility.VISIBILITY_PRIVATE);
  assert.equal(toVisibility(undefined), undefined);
  assert.equal(yes('yes'), true);
  assert.equal(yes('no'), false);
});
