import { test } from 'node:test';
import assert from 'node:assert/strict';
import { InvalidArgumentError } from '@green-impact/shared/errors';
import { operationTable } from '../operation-table.js';
import { validateParameters, type ParamSpecs } from '../parameters.js';
import {
  addAssetParams,
  addInvestorParams,
  addPositionParams,
  assetDatesInOrder,
  computeMissing,
  getAssetsParams,
  getInvestorsParams,
  getPositionsParams,
  portfolioPositionParams,
  positiveAmount,
} from './portfolio-params.js';

const fails = (specs: ParamSpecs, raw: Record<string, unknown>, message: string) =>
  assert.throws(
    () => validateParameters(specs, raw),
    (err: unknown) => err instanceof InvalidArgumentError && err.message === message,
    message,
  );

const SPEC_OPERATIONS = [
  'getAssets', 'getAssetFrameworkDetails', 'addAsset', 'removeAsset',
  'getInvestors', 'generateInvestorIdentifier', 'addInvestor', 'removeInvestor',
  'getPositions', 'addPosition', 'removePosition', 'getPortfolios', 'getPortfolioPositions', 'addPortfolio',
  'addPositionToPortfolio', 'removePositionFromPortfolio', 'removePortfolio',
];
const ADDED_OPERATIONS = ['computePositionImpacts', 'getPositionImpacts', 'getPortfolioImpacts', 'getInvestorImpacts'];

test('every operation of spec §4.8–§4.10 served by the portfolio service, and the impact reads, is in the table', () => {
  for (const name of [...SPEC_OPERATIONS, ...ADDED_OPERATIONS]) {
    assert.ok(operationTable.find('SVC.ESG.Credits', name), `${name} missing`);
  }
});

test('every investor_identifier of the portfolio operations accepts investor_identfier; every decryption_key accepts depryption_key', () => {
  for (const entry of operationTable.entries.filter((e) => [...SPEC_OPERATIONS, ...ADDED_OPERATIONS].includes(e.operation))) {
    const investor = entry.params['investor_identifier'];
    if (investor) assert.deepEqual(investor.aliases, ['investor_identfier'], entry.operation);
    const key = entry.params['decryption_key'];
    if (key) assert.deepEqual(key.aliases, ['depryption_key'], entry.operation);
  }
  assert.deepEqual(validateParameters(portfolioPositionParams, { investor_identfier: 'inv_1', portfolio_identifier: 'core', position_id: '12' }), {
    investor_identifier: 'inv_1',
    portfolio_identifier: 'core',
    position_id: 12,
  });
  assert.deepEqual(
    validateParameters(portfolioPositionParams, { investor_identifier: 'inv_1', investor_identfier: 'other', portfolio_identifier: 'core', position_id: 1 }).investor_identifier,
    'inv_1',
    'the canonical name wins',
  );
  assert.deepEqual(validateParameters(getInvestorsParams, { depryption_key: 'k' }), { decryption_key: 'k' });
});

test('addAsset: currencies upper case, dates real, amounts bounded, visibility canonical', () => {
  const base = { asset_identifier: 'SE0001', asset_name: 'Green bond 2029', issuer_identifier: 'ISS', framework_identifier: 'GBF', asset_currency_code: 'sek' };
  assert.deepEqual(validateParameters(addAssetParams, { ...base, asset_value_outstanding: '1000000', date_issued: '2024-02-29', asset_visibility: 'PUBLIC' }), {
    ...base,
    asset_currency_code: 'SEK',
    asset_value_outstanding: 1_000_000,
    date_issued: '2024-02-29',
    asset_visibility: 'public',
  });
  fails(addAssetParams, { ...base, date_issued: '2023-02-29' }, 'date_issued must be a date in the form YYYY-MM-DD.');
  fails(addAssetParams, { ...base, date_maturity: '29.02.2024' }, 'date_maturity must be a date in the form YYYY-MM-DD.');
  fails(addAssetParams, { ...base, asset_value_outstanding: -1 }, 'asset_value_outstanding must be between 0 and 1000000000000000.');
  fails(addAssetParams, { ...base, asset_currency_code: 'EURO' }, 'asset_currency_code must be a 3-letter currency code.');
  fails(addAssetParams, { ...base, asset_visibility: 'shared' }, 'asset_visibility must be public or private.');
  fails(addAssetParams, { ...base, framework_identifier: '' }, 'framework_identifier is required.');
  assert.deepEqual(validateParameters(getAssetsParams, { issuer_visibility: 'Private', framework_identifier: '' }), { issuer_visibility: 'private' });
});

test('maturity before issue is refused; the same day or either date alone is fine', () => {
  assert.throws(() => assetDatesInOrder('2024-06-01', '2024-05-31'), /^InvalidArgumentError: date_maturity must not be before date_issued\.$/);
  assert.doesNotThrow(() => assetDatesInOrder('2024-06-01', '2024-06-01'));
  assert.doesNotThrow(() => assetDatesInOrder('2024-06-01', '2034-06-01'));
  assert.doesNotThrow(() => assetDatesInOrder(undefined, '2020-01-01'));
  assert.doesNotThrow(() => assetDatesInOrder('2020-01-01', undefined));
  assert.throws(
    () => assetDatesInOrder('2024-06-01', '2024-05-31', { date_issued: 'input.dateIssued', date_maturity: 'input.dateMaturity' }),
    /^InvalidArgumentError: input\.dateMaturity must not be before input\.dateIssued\.$/,
  );
});

test('addPosition: amount above 0, days 1 to 36525 (default left to the service), optional year and start date', () => {
  const base = { investor_identifier: 'inv_1', asset_identifier: 'SE0001', position_amount: '250000.5', position_currency_code: 'eur' };
  assert.deepEqual(validateParameters(addPositionParams, base), {
    investor_identifier: 'inv_1',
    asset_identifier: 'SE0001',
    position_amount: 250_000.5,
    position_currency_code: 'EUR',
  });
  assert.deepEqual(validateParameters(addPositionParams, { ...base, reporting_year: '2024', position_days: '180', position_start_date: '2024-07-01' }), {
    investor_identifier: 'inv_1',
    asset_identifier: 'SE0001',
    position_amount: 250_000.5,
    position_currency_code: 'EUR',
    reporting_year: 2024,
    position_days: 180,
    position_start_date: '2024-07-01',
  });
  fails(addPositionParams, { ...base, position_days: 0 }, 'position_days must be between 1 and 36525.');
  fails(addPositionParams, { ...base, position_days: 36_526 }, 'position_days must be between 1 and 36525.');
  fails(addPositionParams, { ...base, position_days: 1.5 }, 'position_days must be an integer.');
  fails(addPositionParams, { ...base, position_amount: 'lots' }, 'position_amount must be a number.');
  fails(addPositionParams, { ...base, position_amount: 2e15 }, 'position_amount must be at most 1000000000000000.');
  fails(addPositionParams, { ...base, position_start_date: '2024-13-01' }, 'position_start_date must be a date in the form YYYY-MM-DD.');
  fails(addPositionParams, { ...base, reporting_year: 24 }, 'reporting_year must be a 4-digit year.');
  assert.equal(positiveAmount('position_amount', 0.01), 0.01);
  for (const bad of [0, -0, -5]) {
    assert.throws(() => positiveAmount('position_amount', bad), /^InvalidArgumentError: position_amount must be greater than 0\.$/);
  }
});

test('getPositions needs its investor (spec R); user_identifier and decryption_key are optional', () => {
  fails(getPositionsParams, { user_identifier: 'u1' }, 'investor_identifier is required.');
  assert.deepEqual(validateParameters(getPositionsParams, { investor_identifier: 'inv_1', user_identifier: 'u1', asset_identifier: '' }), {
    investor_identifier: 'inv_1',
    user_identifier: 'u1',
  });
});

test('addInvestor: e-mail checked, currency upper case, key passed on', () => {
  const base = { investor_identifier: 'inv_1', investor_name: 'Ann Investor', investor_currency_code: 'usd' };
  assert.deepEqual(validateParameters(addInvestorParams, { ...base, encryption_key: 'k', investor_email: 'ann@example.org' }), {
    ...base,
    investor_currency_code: 'USD',
    encryption_key: 'k',
    investor_email: 'ann@example.org',
  });
  fails(addInvestorParams, { ...base, investor_email: 'ann' }, 'investor_email must be an e-mail address.');
  fails(addInvestorParams, { investor_name: 'Ann', investor_currency_code: 'USD' }, 'investor_identifier is required.');
});

test('compute_missing is yes / no, absent is no', () => {
  assert.equal(computeMissing('yes'), true);
  assert.equal(computeMissing('no'), false);
  assert.equal(computeMissing(undefined), false);
});
