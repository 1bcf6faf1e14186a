import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { canonicalJson } from '@green-impact/shared/canonical-json';
import { escapeHtml, htmlLang } from './html.js';
import { formatNumber, roundTo } from './numbers.js';

describe('document numbers', () => {
  it('rounds decimally, half away from zero, without -0', () => {
    assert.equal(roundTo(1.005, 2), 1.01); // toFixed alone gives 1.00
    assert.equal(roundTo(2.675, 2), 2.68);
    assert.equal(roundTo(1.2345, 3), 1.235);
    assert.equal(roundTo(-1.005, 2), -1.01);
    assert.equal(roundTo(0.1 + 0.2, 2), 0.3);
    assert.equal(roundTo(123456789.125, 2), 123456789.13);
    assert.equal(roundTo(1e-7, 2), 0);
    assert.ok(Object.is(roundTo(-1e-7, 2), 0));
    assert.equal(roundTo(450000000, 2), 450000000);
    assert.equal(roundTo(2.5, 0), 3);
    assert.equal(roundTo(1 / 3, 10), 0.3333333333);
  });

  it('formats with fixed decimals and grouped digits', () => {
    assert.equal(formatNumber(450000000, 2), '450\u202f000\u202f000.00');
    assert.equal(formatNumber(1234.5, 0, ','), '1,235');
    assert.equal(formatNumber(999.995, 2, ' '), '1 000.00');
    assert.equal(formatNumber(12, 3), '12.000');
    assert.equal(formatNumber(0.125, 1), '0.1');
    assert.equal(formatNumber(-1234567.891, 2, ','), '-1,234,567.89');
    assert.equal(formatNumber(1e21, 2), '1e+21');
  });
});

describe('canonical JSON', () => {
  it('sorts keys at every level and writes no whitespace', () => {
    assert.equal(canonicalJson({ b: 1, a: { d: [3, { z: null, y: true }], c: 'x' } }), '{"a":{"c":"x","d":[3,{"y":true,"z":null}]},"b":1}');
    assert.equal(canonicalJson({ b: 1, a: 2 }), canonicalJson({ a: 2, b: 1 }));
  });

  it('writes numbers in shortest form, -0 as 0, and refuses non-finite numbers', () => {
    assert.equal(canonicalJson([1.5, -0, 1e21, 0.1 + 0.2, 100]), '[1.5,0,1e+21,0.30000000000000004,100]');
    assert.throws(() => canonicalJson(Number.NaN), RangeError);
    assert.throws(() => canonicalJson({ x: Number.POSITIVE_INFINITY }), RangeError);
  });

  it('escapes strings as JSON and keeps other text as is', () => {
    assert.equal(canonicalJson({ 'k"': 'å\n"<' }), '{"k\\"":"å\\n\\"<"}');
  });
});

describe('HTML text', () => {
  it('escapes markup characters', () => {
    assert.equal(escapeHtml(`<a href="x">Tom & Jerry's</a>`), '&lt;a href=&quot;x&quot;&gt;Tom &amp; Jerry&#39;s&lt;/a&gt;');
    assert.equal(escapeHtml('Förnybar energi'), 'Förnybar energi');
  });

  it('maps the spec language codes to BCP 47 tags', () => {
    assert.equal(htmlLang('sv'), 'sv');
    assert.equal(htmlLang('dk'), 'da');
    assert.equal(htmlLang('en-AU'), 'en-AU');
  });
});
