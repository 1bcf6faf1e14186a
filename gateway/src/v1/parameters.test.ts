import { test } from 'node:test';
import assert from 'node:assert/strict';
import { InvalidArgumentError } from '@green-impact/shared/errors';
import { validateParameters, type ParamSpecs } from './parameters.js';

const fails = (specs: ParamSpecs, raw: Record<string, unknown>, message: string) =>
  assert.throws(
    () => validateParameters(specs, raw),
    (err: unknown) => err instanceof InvalidArgumentError && err.code === 'INVALID_ARGUMENT' && err.message === message,
  );

test('required parameters: missing, null and empty string all count as missing', () => {
  const specs = { user_identifier: { type: 'identifier', required: true } } as const;
  fails(specs, {}, 'user_identifier is required.');
  fails(specs, { user_identifier: null }, 'user_identifier is required.');
  fails(specs, { user_identifier: '' }, 'user_identifier is required.');
  assert.deepEqual(validateParameters(specs, { user_identifier: 'u1' }), { user_identifier: 'u1' });
});

test('a spec may fix the missing text (addUser: "User identifier is missing.")', () => {
  fails(
    { user_identifier: { type: 'identifier', required: true, missingMessage: 'User identifier is missing.' } },
    {},
    'User identifier is missing.',
  );
});

test('optional parameters that are absent are left out; unknown parameters are ignored', () => {
  const specs = { a: { type: 'string' }, b: { type: 'int' } } as const;
  assert.deepEqual(validateParameters(specs, { b: '', extra: 'x', __proto__: { a: 'polluted' } }), {});
});

test('aliases: the misspelled name is accepted; the canonical name wins when both are sent', () => {
  const specs = { decryption_key: { type: 'string', aliases: ['depryption_key'] } } as const;
  assert.deepEqual(validateParameters(specs, { depryption_key: 'k1' }), { decryption_key: 'k1' });
  assert.deepEqual(validateParameters(specs, { depryption_key: 'k1', decryption_key: 'k2' }), { decryption_key: 'k2' });
  assert.deepEqual(validateParameters(specs, { depryption_key: 'k1', decryption_key: '' }), { decryption_key: 'k1' });
});

test('strings: kept as given, length-limited, no control characters; finite numbers become text', () => {
  const specs = { name: { type: 'string' }, id: { type: 'identifier' } } as const;
  assert.deepEqual(validateParameters(specs, { name: '  Ann\tMarie ', id: 12345 }), { name: '  Ann\tMarie ', id: '12345' });
  fails(specs, { name: 'x'.repeat(256) }, 'name must be at most 255 characters.');
  fails(specs, { id: 'a\nb' }, 'id must not contain control characters.');
  fails(specs, { name: 'a\u0000b' }, 'name must not contain control characters.');
  fails(specs, { id: 'x'.repeat(256) }, 'id must be at most 255 characters.');
  fails(specs, { id: { $gt: '' } }, 'id must be a string.');
  fails(specs, { id: ['a'] }, 'id must be a string.');
  fails(specs, { id: true }, 'id must be a string.');
  fails(specs, { id: 1e400 }, 'id must be a string.');
  assert.deepEqual(validateParameters({ s: { type: 'string', maxLength: 1000 } }, { s: 'y'.repeat(1000) }).s?.length, 1000);
});

test('email: format and length', () => {
  const specs = { user_email: { type: 'email' } } as const;
  assert.deepEqual(validateParameters(specs, { user_email: 'ann@example.org' }), { user_email: 'ann@example.org' });
  fails(specs, { user_email: 'ann' }, 'user_email must be an e-mail address.');
  fails(specs, { user_email: 'ann@example' }, 'user_email must be an e-mail address.');
  fails(specs, { user_email: 'a b@example.org' }, 'user_email must be an e-mail address.');
  fails(specs, { user_email: 42 }, 'user_email must be a string.');
  fails(specs, { user_email: `${'a'.repeat(310)}@example.org` }, 'user_email must be at most 320 characters.');
});

test('int: numbers and numeric strings; no fractions, no huge values; bounds', () => {
  const specs = { position_id: { type: 'int', min: 1 } } as const;
  assert.deepEqual(validateParameters(specs, { position_id: 7 }), { position_id: 7 });
  assert.deepEqual(validateParameters(specs, { position_id: '42' }), { position_id: 42 });
  fails(specs, { position_id: 4.2 }, 'position_id must be an integer.');
  fails(specs, { position_id: '4.2' }, 'position_id must be an integer.');
  fails(specs, { position_id: '1e3' }, 'position_id must be an integer.');
  fails(specs, { position_id: 'abc' }, 'position_id must be an integer.');
  fails(specs, { position_id: 1e400 }, 'position_id must be an integer.');
  fails(specs, { position_id: 2 ** 60 }, 'position_id is out of range.');
  fails(specs, { position_id: '123456789012345678901234567890' }, 'position_id is out of range.');
  fails(specs, { position_id: 0 }, 'position_id must be at least 1.');
  fails({ n: { type: 'int', min: 1, max: 9 } }, { n: 10 }, 'n must be between 1 and 9.');
});

test('number: decimals, numeric strings, finite only', () => {
  const specs = { fx_rate: { type: 'number' } } as const;
  assert.deepEqual(validateParameters(specs, { fx_rate: '1.25' }), { fx_rate: 1.25 });
  assert.deepEqual(validateParameters(specs, { fx_rate: -3 }), { fx_rate: -3 });
  assert.deepEqual(validateParameters(specs, { fx_rate: '2e3' }), { fx_rate: 2000 });
  fails(specs, { fx_rate: 'NaN' }, 'fx_rate must be a number.');
  fails(specs, { fx_rate: '0x10' }, 'fx_rate must be a number.');
  fails(specs, { fx_rate: '1e400' }, 'fx_rate is out of range.');
  fails(specs, { fx_rate: 1e400 }, 'fx_rate is out of range.');
});

test('year: 4 digits, as a number or a string', () => {
  const specs = { reporting_year: { type: 'year', required: true } } as const;
  assert.deepEqual(validateParameters(specs, { reporting_year: 2023 }), { reporting_year: 2023 });
  assert.deepEqual(validateParameters(specs, { reporting_year: '2024' }), { reporting_year: 2024 });
  for (const bad of [23, '23', 20234, '2023.0', 2023.5, '２０２３', 'abcd']) {
    fails(specs, { reporting_year: bad }, 'reporting_year must be a 4-digit year.');
  }
});

test('currency: 3 letters, uppercased', () => {
  const specs = { currency_code: { type: 'currency' } } as const;
  assert.deepEqual(validateParameters(specs, { currency_code: 'sek' }), { currency_code: 'SEK' });
  for (const bad of ['SE', 'SEKK', 'S1K', 123]) fails(specs, { currency_code: bad }, 'currency_code must be a 3-letter currency code.');
});

test('date: YYYY-MM-DD and a real calendar date', () => {
  const specs = { date_issued: { type: 'date' } } as const;
  assert.deepEqual(validateParameters(specs, { date_issued: '2024-02-29' }), { date_issued: '2024-02-29' });
  for (const bad of ['2023-02-29', '2023-13-01', '2023-1-1', '01/02/2023', '2023-04-31', 20230101]) {
    fails(specs, { date_issued: bad }, 'date_issued must be a date in the form YYYY-MM-DD.');
  }
});

test('yes/no, visibility and enums: any case in, canonical spelling out', () => {
  const specs = {
    flag: { type: 'yesno' },
    vis: { type: 'visibility' },
    role: { type: 'enum', values: ['user', 'admin'] },
  } as const;
  assert.deepEqual(validateParameters(specs, { flag: 'YES', vis: 'Public', role: 'Admin' }), {
    flag: 'yes',
    vis: 'public',
    role: 'admin',
  });
  fails(specs, { flag: true }, 'flag must be yes or no.');
  fails(specs, { vis: 'shared' }, 'vis must be public or private.');
  fails(specs, { role: 'root' }, 'role must be one of user, admin.');
});

test('json passes any value through', () => {
  const attributes = [{ trait_type: 'colour', value: 'green' }];
  assert.deepEqual(validateParameters({ attributes: { type: 'json' } }, { attributes }), { attributes });
});

test('labels rename parameters in messages', () => {
  assert.throws(
    () => validateParameters({ user_email: { type: 'email' } }, { user_email: 'x' }, { user_email: 'input.email' }),
    /^InvalidArgumentError: input\.email must be an e-mail address\.$/,
  );
});
