import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { canonicalJson } from '@green-impact/shared/canonical-json';
import { htmlLang } from './html.js';

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
  it('maps the spec language codes to BCP 47 tags', () => {
    assert.equal(htmlLang('sv'), 'sv');
    assert.equal(htmlLang('dk'), 'da');
    assert.equal(htmlLang('en-AU'), 'en-AU');
  });
});
