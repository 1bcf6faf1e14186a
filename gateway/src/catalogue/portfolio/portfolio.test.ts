import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Visibility } from '@green-impact/proto/greenimpact/common/v1/common';
import { RecomputeScope, RecomputeStatus } from '@green-impact/proto/greenimpact/portfolio/v1/portfolio';
import { InvalidArgumentError } from '@green-impact/shared/errors';
import { operationTable } from '../../v1/operation-table.js';
import { inputFromGraphql, inputFromV1 } from '../parse.js';
import type { CallContext } from '../operation.js';
import { addAsset, getAssets } from './assets.js';
import { getInvestorImpacts, getPositionImpacts } from './impacts.js';
import { addInvestor, getInvestors } from './investors.js';
import { addPositionToPortfolio } from './portfolios.js';
import { addPosition, getPositions } from './positions.js';
import { getImpactRecomputeJobs, startImpactRecompute } from './recompute-jobs.js';
import { portfolioDomainOperations } from './index.js';

/**
 * The portfolio domain's declarations (moved from v1/operations/portfolio-params.test.ts): every operation
 * on its faces, the spec's misspellings, what the gateway reads and the requests it builds. The rules
 * (bounds, formats, dates in order, positive amounts) are the portfolio service's and tested there
 * (services/portfolio/src/validation.test.ts).
 */

const refused = (run: () => unknown, message: string) =>
  assert.throws(run, (err: unknown) => err instanceof InvalidArgumentError && err.message === message, message);

const SPEC_OPERATIONS = [
  'getAssets', 'getAssetFrameworkDetails', 'addAsset', 'removeAsset',
  'getInvestors', 'generateInvestorIdentifier', 'addInvestor', 'removeInvestor',
  'getPositions', 'addPosition', 'removePosition', 'getPortfolios', 'getPortfolioPositions', 'addPortfolio',
  'addPositionToPortfolio', 'removePositionFromPortfolio', 'removePortfolio',
];
const ADDED_OPERATIONS = [
  'computePositionImpacts', 'getPositionImpacts', 'getPortfolioImpacts', 'getInvestorImpacts',
  'startImpactRecompute', 'getImpactRecomputeJob', 'getImpactRecomputeJobs',
];

test('every operation of spec §4.8–§4.10 served by the portfolio service, the impact reads and the recompute jobs are catalogue rows', () => {
  for (const name of [...SPEC_OPERATIONS, ...ADDED_OPERATIONS]) {
    assert.ok(operationTable.find('SVC.ESG.Credits', name), `${name} missing`);
  }
  for (const op of portfolioDomainOperations) assert.equal(op.service, 'portfolio', op.operation ?? op.graphql?.field);
});

test('every investor_identifier accepts investor_identfier; every decryption_key accepts depryption_key', () => {
  for (const entry of operationTable.entries.filter((e) => [...SPEC_OPERATIONS, ...ADDED_OPERATIONS].includes(e.operation))) {
    const fields = Object.values(entry.input);
    const investor = fields.find((f) => f.v1 === 'investor_identifier');
    if (investor) assert.deepEqual(investor.aliases, ['investor_identfier'], entry.operation);
    const key = fields.find((f) => f.v1 === 'decryption_key');
    if (key) assert.deepEqual(key.aliases, ['depryption_key'], entry.operation);
  }
  assert.deepEqual(inputFromV1(addPositionToPortfolio.input, { investor_identfier: 'inv_1', portfolio_identifier: 'core', position_id: '12' }), {
    investorIdentifier: 'inv_1',
    portfolioIdentifier: 'core',
    positionId: 12,
  });
  assert.equal(
    inputFromV1(addPositionToPortfolio.input, { investor_identifier: 'inv_1', investor_identfier: 'other', portfolio_identifier: 'core', position_id: 1 }).investorIdentifier,
    'inv_1',
    'the canonical name wins',
  );
  assert.deepEqual(inputFromV1(getInvestors.input, { depryption_key: 'k' }), { decryptionKey: 'k' });
});

const ctx = {} as CallContext;
/** The gRPC request a declaration builds from a checked input. */
const requestOf = (op: object, input: unknown) => (op as { request(i: unknown, c: CallContext): unknown }).request(input, ctx);

test('addAsset: visibility in any case to the proto\'s, values passed on for the service to check', async () => {
  const base = { asset_identifier: 'SE0001', asset_name: 'Green bond', issuer_identifier: 'ISS', framework_identifier: 'GBF', asset_currency_code: 'eur' };
  const input = inputFromV1(addAsset.input, { ...base, asset_value_outstanding: '1000000', date_issued: '2024-02-29', asset_visibility: 'PUBLIC' });
  assert.deepEqual(await requestOf(addAsset, input), {
    assetIdentifier: 'SE0001',
    assetName: 'Green bond',
    issuerIdentifier: 'ISS',
    frameworkIdentifier: 'GBF',
    assetValueOutstanding: 1_000_000,
    assetCurrencyCode: 'eur',
    dateIssued: '2024-02-29',
    dateMaturity: undefined,
    assetVisibility: Visibility.VISIBILITY_PUBLIC,
    issuerName: undefined,
  });
  refused(() => inputFromV1(addAsset.input, { ...base, asset_visibility: 'everyone' }), 'asset_visibility must be public or private.');
  refused(() => inputFromV1(getAssets.input, { issuer_visibility: 'shared' }), 'issuer_visibility must be public or private.');
  assert.deepEqual(inputFromV1(getAssets.input, { issuer_visibility: 'Private', framework_identifier: '' }), { visibility: 'private' });
  // GraphQL's enum values read the same.
  assert.deepEqual(inputFromGraphql(getAssets.input, { visibility: 'PRIVATE', issuerIdentifier: null }, false), { visibility: 'private' });
});

test('addPosition: numbers from text, the bounds left to the service; GraphQL names the fields of its input', async () => {
  const base = { investor_identifier: 'inv_1', asset_identifier: 'SE0001', position_amount: '250000.5', position_currency_code: 'eur' };
  const input = inputFromV1(addPosition.input, { ...base, reporting_year: '2024', position_days: '180', position_start_date: '2024-07-01' });
  assert.deepEqual(await requestOf(addPosition, input), {
    investorIdentifier: 'inv_1',
    assetIdentifier: 'SE0001',
    positionAmount: 250_000.5,
    positionCurrencyCode: 'eur',
    reportingYear: 2024,
    positionDays: 180,
    positionStartDate: '2024-07-01',
  });
  refused(() => inputFromV1(addPosition.input, { ...base, position_days: 1.5 }), 'position_days must be an integer.');
  refused(() => inputFromV1(addPosition.input, { ...base, position_amount: 'much' }), 'position_amount must be a number.');
  refused(() => inputFromGraphql(addPosition.input, { input: { investorIdentifier: 'inv_1', assetIdentifier: 'A', amount: 5 } }, true), 'input.currencyCode is required.');
  // Bounds are the service's: 0, a negative amount, 0 days pass on.
  assert.equal(inputFromV1(addPosition.input, { ...base, position_amount: -1, position_days: 0 }).amount, -1);
});

test('getPositions needs its investor (spec R); user_identifier and decryption_key are optional', () => {
  refused(() => inputFromV1(getPositions.input, { user_identifier: 'u1' }), 'investor_identifier is required.');
  assert.deepEqual(inputFromV1(getPositions.input, { investor_identifier: 'inv_1', user_identifier: 'u1', asset_identifier: '' }), {
    investorIdentifier: 'inv_1',
    userIdentifier: 'u1',
  });
});

test('addInvestor: key and e-mail passed on; its investor is required', async () => {
  const input = inputFromV1(addInvestor.input, { investor_identifier: 'inv_1', investor_name: 'Ann', investor_currency_code: 'usd', encryption_key: 'k', investor_email: 'ann@example.org' });
  assert.deepEqual(await requestOf(addInvestor, input), {
    investorIdentifier: 'inv_1',
    investorName: 'Ann',
    investorCurrencyCode: 'usd',
    encryptionKey: 'k',
    investorEmail: 'ann@example.org',
  });
  refused(() => inputFromV1(addInvestor.input, { investor_name: 'Ann', investor_currency_code: 'USD' }), 'investor_identifier is required.');
});

test('compute_missing and include_records are yes / no: absent is no and yes', async () => {
  refused(() => inputFromV1(getInvestorImpacts.input, { investor_identifier: 'inv_1', reporting_year: 2024, compute_missing: 'sometimes' }), 'compute_missing must be yes or no.');
  const read = (raw: Record<string, unknown>) => requestOf(getInvestorImpacts, inputFromV1(getInvestorImpacts.input, { investor_identifier: 'inv_1', reporting_year: 2024, ...raw }));
  // The summary is always read without its records: include_records decides whether they stream after it.
  assert.deepEqual(await read({}), { investorIdentifier: 'inv_1', reportingYear: 2024, computeMissing: false, omitRecords: true });
  assert.deepEqual(await read({ compute_missing: 'YES', include_records: 'no' }), { investorIdentifier: 'inv_1', reportingYear: 2024, computeMissing: true, omitRecords: true });
  const streams = (raw: Record<string, unknown>) =>
    getInvestorImpacts.v1Streamed!.items({ investorIdentifier: 'inv_1' }, inputFromV1(getInvestorImpacts.input, { investor_identifier: 'inv_1', reporting_year: 2024, ...raw }), { requestId: 'r', clients: {} as never });
  assert.equal(streams({ include_records: 'no' }), undefined);
  assert.equal(typeof streams({})?.[Symbol.asyncIterator], 'function', 'the records stream unless include_records is no');
  // A position id the service refuses is not looked up first: the service's refusal is answered.
  assert.deepEqual(await requestOf(getPositionImpacts, inputFromV1(getPositionImpacts.input, { investor_identifier: 'inv_1', position_id: 0 })), {
    positionId: 0,
    reportingYear: undefined,
    computeMissing: false,
  });
});

test('recompute jobs: scope and status by name in any case, to the proto\'s enums', async () => {
  const start = inputFromV1(startImpactRecompute.input, { scope: 'Portfolio', portfolio_identifier: 'core', reporting_year: '2024' });
  assert.deepEqual(await requestOf(startImpactRecompute, start), {
    scope: RecomputeScope.RECOMPUTE_SCOPE_PORTFOLIO,
    investorIdentifier: '',
    portfolioIdentifier: 'core',
    reportingYear: 2024,
  });
  refused(() => inputFromV1(startImpactRecompute.input, { scope: 'everything' }), 'scope must be one of investor, portfolio, account, stale.');
  const list = inputFromV1(getImpactRecomputeJobs.input, { status: 'FAILED', limit: '5' });
  assert.deepEqual(await requestOf(getImpactRecomputeJobs, list), { limit: 5, statuses: [RecomputeStatus.RECOMPUTE_STATUS_FAILED] });
  refused(() => inputFromV1(getImpactRecomputeJobs.input, { status: 'done' }), 'status must be one of queued, running, completed, failed.');
});
