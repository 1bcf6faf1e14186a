import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { InvalidArgumentError } from '@green-impact/shared/errors';
import * as v from './validation.js';

const invalid = (fn: () => unknown, message?: string) =>
  assert.throws(fn, (err: unknown) => err instanceof InvalidArgumentError && (message === undefined || err.message === message));

describe('validation', () => {
  it('accepts 4-digit reporting years from 1900 to 2200 only', () => {
    assert.equal(v.reportingYear(2024), 2024);
    assert.equal(v.reportingYear(1900), 1900);
    assert.equal(v.reportingYear(2200), 2200);
    invalid(() => v.reportingYear(24), 'reporting_year must be a 4-digit year from 1900 to 2200, got 24.');
    invalid(() => v.reportingYear(0));
    invalid(() => v.reportingYear(2201));
    invalid(() => v.reportingYear(2024.5));
  });

  it('trims names and bounds them to 1..255 characters', () => {
    assert.equal(v.name('category_name', '  Solar  '), 'Solar');
    assert.equal(v.name('unit_name', 'x'.repeat(255)), 'x'.repeat(255));
    assert.equal(v.name('unit_name', 'ä'.repeat(255)), 'ä'.repeat(255));
    invalid(() => v.name('category_name', '   '), 'category_name must be 1 to 255 characters.');
    invalid(() => v.name('category_name', 'x'.repeat(256)));
    assert.equal(v.optionalName('category_name_changed', undefined), undefined);
    assert.equal(v.optionalName('category_name_changed', ''), undefined);
    assert.equal(v.optionalName('category_name_changed', ' New '), 'New');
  });

  it('wants positive integer ids', () => {
    assert.equal(v.id('category_id', 12), 12);
    invalid(() => v.id('category_id', 0), 'category_id must be a positive integer.');
    invalid(() => v.id('category_id', -3));
    invalid(() => v.id('category_id', 1.5));
    assert.equal(v.optionalId('sdg_id', undefined), undefined);
  });

  it('normalizes currency codes to 3 upper-case letters', () => {
    assert.equal(v.currencyCode('currency_code', 'sek'), 'SEK');
    assert.equal(v.currencyCode('currency_code', ' EUR '), 'EUR');
    invalid(() => v.currencyCode('currency_code', 'EU'), 'currency_code must be a 3-letter currency code, got "EU".');
    invalid(() => v.currencyCode('currency_code', 'EURO'));
    invalid(() => v.currencyCode('currency_code', 'E1R'));
  });

  it('wants positive finite rates and finite amounts', () => {
    assert.equal(v.positiveRate('currency_code_quota', 11.43), 11.43);
    for (const bad of [0, -1, Number.NaN, Number.POSITIVE_INFINITY]) invalid(() => v.positiveRate('currency_code_quota', bad));
    assert.equal(v.finiteAmount('amount', -5), -5);
    invalid(() => v.finiteAmount('amount', Number.NaN));
  });
});
