import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Visibility } from '@green-impact/proto/greenimpact/common/v1/common';
import { InvalidArgumentError } from '@green-impact/shared/errors';
import { activePercentage } from './figures.js';
import * as input from './inputs.js';

/** Refused with `message` (when given), naming the parameter its text starts with as the error's field. */
const invalid = (fn: () => unknown, message?: string) =>
  assert.throws(
    fn,
    (err: unknown) =>
      err instanceof InvalidArgumentError &&
      (message === undefined || err.message === message) &&
      err.field !== undefined &&
      err.message.startsWith(`${err.field} `),
  );

describe('framework and project inputs', () => {
  it('trims identifiers, bounds them to 1..255 characters on one line', () => {
    assert.equal(input.identifier('framework_identifier', '  FW-1 '), 'FW-1');
    assert.equal(input.identifier('framework_identifier', 'x'.repeat(255)), 'x'.repeat(255));
    invalid(() => input.identifier('framework_identifier', ' '), 'framework_identifier must be 1 to 255 characters on one line.');
    invalid(() => input.identifier('project_identifier', 'x'.repeat(256)));
    invalid(() => input.identifier('project_identifier', 'a\nb'));
  });

  it('accepts finite amounts from 0 to 10^15', () => {
    assert.equal(input.amount('value_outstanding', 500_000_000), 500_000_000);
    assert.equal(input.amount('indicator_value', 1e15), 1e15);
    invalid(() => input.amount('allocated_amount', 1e15 + 1), 'allocated_amount must be at most 1000000000000000.');
    invalid(() => input.amount('sub_category_volume', 1e300), 'sub_category_volume must be at most 1000000000000000.');
    invalid(() => input.amount('allocated_amount', -0.01), 'allocated_amount must be a finite number of at least 0.');
    assert.ok(Object.is(input.amount('value_outstanding', -0), 0));
    invalid(() => input.amount('allocated_amount', -1), 'allocated_amount must be a finite number of at least 0.');
    invalid(() => input.amount('allocated_amount', Number.NaN));
    invalid(() => input.amount('allocated_amount', Number.POSITIVE_INFINITY));
  });

  it('reads visibilities, absent or unspecified meaning not given', () => {
    assert.equal(input.visibility('v', undefined), undefined);
    assert.equal(input.visibility('v', Visibility.VISIBILITY_UNSPECIFIED), undefined);
    assert.equal(input.visibility('v', Visibility.VISIBILITY_PUBLIC), 'public');
    assert.equal(input.visibility('v', Visibility.VISIBILITY_PRIVATE), 'private');
    invalid(() => input.visibility('framework_visibility', 7 as Visibility), 'framework_visibility must be public or private.');
  });

  it('defaults decimals to 2 and bounds them to 0..10', () => {
    assert.equal(input.decimals(undefined), 2);
    assert.equal(input.decimals(0), 0);
    assert.equal(input.decimals(10), 10);
    invalid(() => input.decimals(11), 'decimals must be an integer from 0 to 10, got 11.');
    invalid(() => input.decimals(-1));
    invalid(() => input.decimals(1.5));
  });

  it('computes the active percentage, 0 when nothing is outstanding', () => {
    assert.equal(activePercentage(500_000_000, 450_000_000), 90);
    assert.equal(activePercentage(0, 10), 0);
    assert.equal(activePercentage(100, 150), 150);
  });
});
