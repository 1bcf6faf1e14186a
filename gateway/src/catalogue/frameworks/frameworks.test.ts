import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Visibility } from '@green-impact/proto/greenimpact/common/v1/common';
import { InvalidArgumentError } from '@green-impact/shared/errors';
import { operationTable } from '../../v1/operation-table.js';
import { inputFromGraphql, inputFromV1 } from '../parse.js';
import { addCategoryIndicatorToFramework, addFramework, addYearSpecificsToFramework, addYearSpecificsToFrameworkGraphql } from './frameworks.js';
import { addYearSpecificsToProject, removeYearSpecificsFromProject } from './projects.js';
import { toVisibility } from './rows.js';

/**
 * What the gateway checks of the frameworks and projects operations: presence and types, from the
 * declarations. The bounds (amounts from 0 to 10^15, positive ids, 4-digit years, 3-letter currencies,
 * identifiers and names of 1 to 255 characters) are the taxonomy service's
 * (services/taxonomy/src/frameworks/inputs.test.ts, validation.test.ts), answered through both faces as
 * they are (gateway/src/v1/framework-call.test.ts).
 */

const fails = (run: () => unknown, message: string) =>
  assert.throws(run, (err: unknown) => err instanceof InvalidArgumentError && err.message === message, message);

const FRAMEWORK_OPERATIONS = [
  'getFrameworks', 'getFrameworkDetails', 'addFramework', 'addYearSpecificsToFramework', 'addCategoryIndicatorToFramework',
  'removeIndicatorFromFramework', 'removeCategoryFromFramework', 'removeFrameworkYearSpecifics', 'removeFramework',
];
const PROJECT_OPERATIONS = [
  'getProjects', 'getProjectDetails', 'addProject', 'addYearSpecificsToProject', 'addCategoryIndicatorToProject',
  'buildFrameworkFromProjects', 'removeIndicatorFromProject', 'removeCategoryFromProject', 'removeYearSpecificsFromProject',
  'removeProject',
];

test('every framework and project operation of spec §4.6–§4.7 is a catalogue row under SVC.ESG.Credits', () => {
  for (const name of [...FRAMEWORK_OPERATIONS, ...PROJECT_OPERATIONS]) {
    assert.ok(operationTable.find('SVC.ESG.Credits', name), `${name} missing`);
  }
});

test('every project_identifier parameter accepts the spec misspelling project_identifer', () => {
  const projectField = (e: (typeof operationTable.entries)[number]) => Object.values(e.input).find((f) => f.v1 === 'project_identifier');
  const withProject = operationTable.entries.filter((e) => projectField(e));
  assert.deepEqual(
    withProject.map((e) => e.operation).sort(),
    // The taxonomy layer's operations (issue 37) are no spec operations, but take the alias as every project operation does.
    [...PROJECT_OPERATIONS.filter((o) => !['getProjects', 'buildFrameworkFromProjects'].includes(o)), 'setProjectTaxonomyLayer', 'removeProjectTaxonomyLayer'].sort(),
  );
  for (const entry of withProject) assert.deepEqual(projectField(entry)!.aliases, ['project_identifer'], entry.operation);
  const input = removeYearSpecificsFromProject.input;
  assert.deepEqual(inputFromV1(input, { project_identifer: 'P-1', reporting_year: 2024 }), { identifier: 'P-1', year: 2024 });
  assert.equal(inputFromV1(input, { project_identifier: 'P-1', project_identifer: 'P-2', reporting_year: 2024 }).identifier, 'P-1', 'the canonical name wins');
  fails(() => inputFromV1(input, { reporting_year: 2024 }), 'project_identifier is required.');
});

test('amounts: numbers, numeric strings accepted; their bounds are the service’s', () => {
  const specs = addYearSpecificsToProject.input;
  const ok = (allocated_amount: unknown) => inputFromV1(specs, { project_identifier: 'P', allocated_amount, reporting_year: 2024 }).allocatedAmount;
  assert.equal(ok(0), 0);
  assert.equal(ok('450000000.5'), 450000000.5);
  assert.equal(ok(1e15), 1e15);
  assert.equal(ok(-1), -1, 'the service refuses it, naming allocated_amount');
  const bad = (allocated_amount: unknown, message: string) => fails(() => inputFromV1(specs, { project_identifier: 'P', allocated_amount, reporting_year: 2024 }), message);
  bad('NaN', 'allocated_amount must be a number.');
  bad('Infinity', 'allocated_amount must be a number.');
  bad('1e400', 'allocated_amount is out of range.');
  bad('12 EUR', 'allocated_amount must be a number.');
  bad(true, 'allocated_amount must be a number.');
  fails(() => inputFromV1(specs, { project_identifier: 'P', reporting_year: 2024 }), 'allocated_amount is required.');
});

test('row ids are integers, as numbers or text', () => {
  const row = { framework_identifier: 'F', sub_category_id: '10', sub_category_volume: 1, indicator_id: 30, indicator_value: 2, reporting_year: 2024 };
  assert.deepEqual(inputFromV1(addCategoryIndicatorToFramework.input, row), { identifier: 'F', subCategoryId: 10, volume: 1, indicatorId: 30, value: 2, year: 2024 });
  fails(() => inputFromV1(addCategoryIndicatorToFramework.input, { ...row, sub_category_id: 'solar' }), 'sub_category_id must be an integer.');
  fails(() => inputFromGraphql(addCategoryIndicatorToFramework.input, { input: { identifier: 'F', year: 2024, subCategoryId: 'solar', volume: 1, indicatorId: '30', value: 2 } }, true), 'input.subCategoryId must be an integer.');
});

test('value_outstanding_framework is yes or no in any case on /v1/call, a Boolean on GraphQL; visibility public or private, optional', () => {
  const specifics = { framework_identifier: 'F', value_outstanding: 500e6, allocated_amount: 450e6, reporting_year: 2024 };
  assert.equal(inputFromV1(addYearSpecificsToFramework.input, { ...specifics, value_outstanding_framework: 'YES' }).valueOutstandingFramework, 'yes');
  for (const bad of ['true', 'y', true, 1]) {
    fails(() => inputFromV1(addYearSpecificsToFramework.input, { ...specifics, value_outstanding_framework: bad }), 'value_outstanding_framework must be yes or no.');
  }
  fails(() => inputFromV1(addYearSpecificsToFramework.input, specifics), 'value_outstanding_framework is required.');
  const graphql = { identifier: 'F', year: 2024, valueOutstanding: 1, allocatedAmount: 0, valueOutstandingFramework: false };
  assert.equal(inputFromGraphql(addYearSpecificsToFrameworkGraphql.input, { input: graphql }, true).valueOutstandingFramework, false);

  const framework = { framework_identifier: 'F', framework_name: 'Green', framework_currency_code: 'eur' };
  assert.deepEqual(inputFromV1(addFramework.input, { ...framework, framework_visibility: 'Public' }), { identifier: 'F', name: 'Green', currencyCode: 'eur', visibility: 'public' });
  assert.equal(inputFromV1(addFramework.input, { ...framework, framework_visibility: '' }).visibility, undefined);
  fails(() => inputFromV1(addFramework.input, { ...framework, framework_visibility: 'shared' }), 'framework_visibility must be public or private.');
  assert.equal(inputFromGraphql(addFramework.input, { input: { identifier: 'F', name: 'G', currencyCode: 'EUR', visibility: 'PRIVATE' } }, true).visibility, 'private');
});

test('conversions to the proto: visibility enum, absent stays absent', () => {
  assert.equal(toVisibility('public'), Visibility.VISIBILITY_PUBLIC);
  assert.equal(toVisibility('private'), Visibility.VISIBILITY_PRIVATE);
  assert.equal(toVisibility(undefined), undefined);
});
