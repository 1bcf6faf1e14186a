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
});
