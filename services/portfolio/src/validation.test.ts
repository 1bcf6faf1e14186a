import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import * as v from './validation.js';

describe('portfolio input validation', () => {
  it('accepts real calendar dates only', () => {
    assert.equal(v.isoDate('d', '2024-02-29'), '2024-02-29');
    for (const bad of ['2023-02-29', '2024-13-01', '2024-1-01', '24-01-01', '2024-01-01T00:00:00Z', '1899-12-31']) {
      assert.throws(() => v.isoDate('d', bad), { name: 'InvalidArgumentError' }, bad);
    }
    assert.equal(v.optionalIsoDate('d', ''), undefined);
  });

  it('defaults position_days to 365 and bounds it', () => {
    assert.equal(v.positionDays(undefined), 365);
    assert.equal(v.positionDays(1), 1);
    for (const bad of [0, -1, 1.5, 36_526]) assert.throws(() => v.positionDays(bad), { name: 'InvalidArgumentError' });
  });

  it('normalizes currency codes and texts', () => {
    assert.equal(v.currencyCode('c', ' sek '), 'SEK');
    assert.throws(() => v.currencyCode('c', 'SEKK'), { message: 'c must be a 3-letter currency code, got "SEKK".' });
    assert.equal(v.text('t', '  x '), 'x');
    assert.equal(v.optionalText('t', '  '), undefined);
    assert.throws(() => v.text('t', 'x'.repeat(256)));
  });

  it('checks amounts, ids and batches', () => {
    assert.throws(() => v.positiveAmount('a', 0));
    assert.throws(() => v.positiveAmount('a', Number.POSITIVE_INFINITY));
    assert.equal(v.nonNegativeAmount('a', 0), 0);
    assert.throws(() => v.id('i', 0));
    assert.deepEqual(v.batch('b', [1, 1, 2]), [1, 2]);
    assert.throws(() => v.batch('b', new Array(1001).fill(0).map((_, i) => i)));
  });

  it('refuses control characters: none in identifiers and keys, tabs and line breaks allowed in names', () => {
    assert.throws(() => v.text('asset_identifier', 'a\nb'), { message: 'asset_identifier must not contain control characters.', field: 'asset_identifier' });
    assert.throws(() => v.text('asset_identifier', 'a\u007fb'), { message: 'asset_identifier must not contain control characters.' });
    assert.equal(v.name('asset_name', ' Green\tbond\n2029 '), 'Green\tbond\n2029');
    assert.throws(() => v.name('asset_name', 'bell\u0007'), { message: 'asset_name must not contain control characters.', field: 'asset_name' });
    assert.throws(() => v.name('asset_name', 'x'.repeat(256)), { message: 'asset_name must be 1 to 255 characters.' });
    assert.equal(v.optionalName('issuer_name', ' '), undefined);
    assert.throws(() => v.text('job_id', 'j'.repeat(65), v.MAX_JOB_ID_LENGTH), { message: 'job_id must be 1 to 64 characters.', field: 'job_id' });
  });

  it('keys: kept as given, at most 255 characters, no control characters but whitespace', () => {
    assert.equal(v.optionalKey('decryption_key', ' k '), ' k ');
    assert.equal(v.optionalKey('decryption_key', ''), undefined);
    assert.equal(v.optionalKey('decryption_key', undefined), undefined);
    assert.throws(() => v.optionalKey('encryption_key', 'k'.repeat(256)), { message: 'encryption_key must be at most 255 characters.', field: 'encryption_key' });
    assert.throws(() => v.optionalKey('decryption_key', 'k\u0000'), { message: 'decryption_key must not contain control characters.', field: 'decryption_key' });
  });

  it('bounds amounts by MAX_AMOUNT', () => {
    assert.equal(v.positiveAmount('position_amount', v.MAX_AMOUNT), v.MAX_AMOUNT);
    assert.throws(() => v.positiveAmount('position_amount', 2e15), { message: 'position_amount must be at most 1000000000000000.', field: 'position_amount' });
    assert.throws(() => v.nonNegativeAmount('asset_value_outstanding', 1e16), { message: 'asset_value_outstanding must be at most 1000000000000000.' });
    for (const bad of [0, -0, -5]) assert.throws(() => v.positiveAmount('position_amount', bad), { message: 'position_amount must be a positive number.', field: 'position_amount' });
  });

  it('refuses a maturity before the issue date; the same day or either date alone is fine', () => {
    assert.throws(() => v.datesInOrder('2024-06-01', '2024-05-31'), { message: 'date_maturity must not be before date_issued.', field: 'date_maturity' });
    assert.doesNotThrow(() => v.datesInOrder('2024-06-01', '2024-06-01'));
    assert.doesNotThrow(() => v.datesInOrder('2024-06-01', '2034-06-01'));
    assert.doesNotThrow(() => v.datesInOrder(undefined, '2020-01-01'));
    assert.doesNotThrow(() => v.datesInOrder('2020-01-01', undefined));
  });

  it('takes e-mail addresses with a domain of two labels, without echoing them', () => {
    assert.equal(v.optionalEmail('investor_email', ' ann@example.org '), 'ann@example.org');
    for (const bad of ['ann', 'ann@example', 'ann@.org', 'a b@example.org', `${'a'.repeat(320)}@example.org`]) {
      assert.throws(() => v.optionalEmail('investor_email', bad), { message: 'investor_email must be an e-mail address of at most 320 characters.', field: 'investor_email' }, bad);
    }
  });

  it('names the field in every refusal', () => {
    assert.throws(() => v.positionDays(0), { message: 'position_days must be a whole number of days from 1 to 36525, got 0.', field: 'position_days' });
    assert.throws(() => v.reportingYear(24), { message: 'reporting_year must be a 4-digit year from 1900 to 2200, got 24.', field: 'reporting_year' });
    assert.throws(() => v.isoDate('position_start_date', '2024-02-30'), { field: 'position_start_date' });
    assert.throws(() => v.id('position_id', 0), { message: 'position_id must be a positive integer.', field: 'position_id' });
  });
});
