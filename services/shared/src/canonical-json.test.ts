import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { canonicalJson, type JsonValue } from './canonical-json.js';

/** An IEEE 754 double from its 16 hex digits (RFC 8785 Appendix B lists numbers this way). */
const double = (hex: string): number => Buffer.from(hex, 'hex').readDoubleBE(0);

describe('canonical JSON (RFC 8785 test vectors)', () => {
  it('serializes the example of §3.2.2: literals, numbers and string escapes', () => {
    const input = JSON.parse(
      '{"numbers": [333333333.33333329, 1E30, 4.50, 2e-3, 0.000000000000000000000000001],' +
        ' "string": "\\u20ac$\\u000F\\u000aA\'\\u0042\\u0022\\u005c\\\\\\"\\/", "literals": [null, true, false]}',
    ) as JsonValue;
    assert.equal(
      canonicalJson(input),
      '{"literals":[null,true,false],"numbers":[333333333.3333333,1e+30,4.5,0.002,1e-27],"string":"€$\\u000f\\nA\'B\\"\\\\\\\\\\"/"}',
    );
  });

  it('sorts member names by UTF-16 code units (§3.2.3)', () => {
    const input = {
      '\u20ac': 'Euro Sign',
      '\r': 'Carriage Return',
      '\ufb33': 'Hebrew Letter Dalet With Dagesh',
      '1': 'One',
      '\ud83d\ude00': 'Emoji: Grinning Face',
      '\u0080': 'Control',
      '\u00f6': 'Latin Small Letter O With Diaeresis',
    };
    // Compared as text: a parsed object would list the integer-like name "1" first, whatever the text says.
    const order = ['\r', '1', '\u0080', '\u00f6', '\u20ac', '\ud83d\ude00', '\ufb33'];
    const expected = `{${order.map((k) => `${JSON.stringify(k)}:${JSON.stringify(input[k as keyof typeof input])}`).join(',')}}`;
    assert.equal(canonicalJson(input), expected);
  });

  it('writes numbers as Appendix B does', () => {
    const vectors: [string, string][] = [
      ['0000000000000000', '0'],
      ['8000000000000000', '0'],
      ['0000000000000001', '5e-324'],
      ['8000000000000001', '-5e-324'],
      ['7fefffffffffffff', '1.7976931348623157e+308'],
      ['ffefffffffffffff', '-1.7976931348623157e+308'],
      ['4340000000000000', '9007199254740992'],
      ['c340000000000000', '-9007199254740992'],
      ['4430000000000000', '295147905179352830000'],
      ['44b52d02c7e14af5', '9.999999999999997e+22'],
      ['44b52d02c7e14af6', '1e+23'],
      ['44b52d02c7e14af7', '1.0000000000000001e+23'],
      ['444b1ae4d6e2ef4e', '999999999999999700000'],
      ['444b1ae4d6e2ef4f', '999999999999999900000'],
      ['444b1ae4d6e2ef50', '1e+21'],
      ['3eb0c6f7a0b5ed8c', '9.999999999999997e-7'],
      ['3eb0c6f7a0b5ed8d', '0.000001'],
      ['41b3de4355555555', '333333333.3333333'],
      ['41b3de4355555556', '333333333.3333334'],
      ['becbf647612f3696', '-0.0000033333333333333333'],
      ['43143ff3c1cb0959', '1424953923781206.2'],
    ];
    for (const [hex, text] of vectors) assert.equal(canonicalJson(double(hex)), text, hex);
  });

  it('refuses what JSON cannot hold, and leaves undefined members out', () => {
    for (const n of [NaN, Infinity, -Infinity]) assert.throws(() => canonicalJson(n), RangeError);
    assert.equal(canonicalJson({ b: 1, a: undefined, c: [1, { z: null, y: 'x' }] }), '{"b":1,"c":[1,{"y":"x","z":null}]}');
  });

  it('is stable through a store and a re-read, so a stored document re-verifies against its anchored hash', () => {
    const document = { framework: { identifier: 'GBF', currency: 'EUR' }, rows: [{ indicator: 'CO2', value: 1234.5678, share: 0.1 + 0.2 }] };
    const written = canonicalJson(document);
    const anchored = createHash('sha256').update(written).digest('hex');
    // What a verifier does with the stored bytes: parse, canonicalize again, hash.
    const reread = canonicalJson(JSON.parse(written) as JsonValue);
    assert.equal(reread, written);
    assert.equal(createHash('sha256').update(reread).digest('hex'), anchored);
  });
});
