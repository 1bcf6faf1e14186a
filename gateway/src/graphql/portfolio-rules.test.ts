import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { jsonHeaders, type TestGateway } from '@green-impact/testing/gateway/real-gateway';
import { startPortfolioGateway } from '@green-impact/testing/gateway/portfolio-gateway';
import { data, gqlAt, onlyError, type GqlResponse } from '@green-impact/testing/gateway/graphql-calls';

/**
 * The portfolio service owns the rules of its inputs (docs/decisions.md, "One owner per rule"): against the
 * real services, both faces answer its refusals in its words, /v1/call under the spec's parameter names and
 * GraphQL under the caller's own (`input.amount`, `positionId`, `year`), with the same status and code as
 * before the rules moved. (Moved here from the fake-based validation cases of v1/portfolio-call.test.ts and
 * graphql/portfolio-graphql.test.ts.)
 */

let t: TestGateway;
const gql = (query: string, variables: Record<string, unknown> = {}): Promise<GqlResponse> => gqlAt(t.baseUrl, query, variables, t.userKey);
const v1 = async (operation: string, parameters: Record<string, unknown>) => {
  const res = await fetch(`${t.baseUrl}/v1/call`, { method: 'POST', headers: jsonHeaders(t.userKey), body: JSON.stringify({ solution: 'SVC.ESG.Credits', operation, parameters }) });
  return { status: res.status, body: (await res.json()) as unknown };
};

const ASSET = { asset_identifier: 'SE0001', asset_name: 'Green bond', issuer_identifier: 'ISS-1', framework_identifier: 'GBF', asset_currency_code: 'EUR' };
const POSITION = { investor_identifier: 'inv_1', asset_identifier: 'SE0001', position_amount: 100_000, position_currency_code: 'EUR' };

before(async () => {
  t = await startPortfolioGateway();
  data(
    await gql(`mutation {
      a: addAsset(input: { identifier: "SE0001", name: "Green bond", issuerIdentifier: "ISS-1", frameworkIdentifier: "GBF", currencyCode: "EUR" }) { message }
      i: addInvestor(input: { identifier: "inv_1", name: "Ann", currencyCode: "EUR" }) { message }
    }`),
  );
});
after(async () => {
  await t?.stop();
});

describe('/v1/call answers the service\'s refusals: 400 INVALID_ARGUMENT, named by the spec\'s parameter', () => {
  const cases: [string, string, Record<string, unknown>, string][] = [
    ['impossible date', 'addAsset', { ...ASSET, date_issued: '2023-02-29' }, 'date_issued must be a date YYYY-MM-DD, got "2023-02-29".'],
    ['date in another form', 'addAsset', { ...ASSET, date_maturity: '01/06/2030' }, 'date_maturity must be a date YYYY-MM-DD, got "01/06/2030".'],
    ['maturity before issue', 'addAsset', { ...ASSET, date_issued: '2024-06-01', date_maturity: '2024-05-31' }, 'date_maturity must not be before date_issued.'],
    ['negative value outstanding', 'addAsset', { ...ASSET, asset_value_outstanding: -1 }, 'asset_value_outstanding must be a number of at least 0.'],
    ['2-letter asset currency', 'addAsset', { ...ASSET, asset_currency_code: 'EU' }, 'asset_currency_code must be a 3-letter currency code, got "EU".'],
    ['negative position amount', 'addPosition', { ...POSITION, position_amount: -100 }, 'position_amount must be a positive number.'],
    ['zero position amount', 'addPosition', { ...POSITION, position_amount: '0' }, 'position_amount must be a positive number.'],
    ['amount above the maximum', 'addPosition', { ...POSITION, position_amount: 2e15 }, 'position_amount must be at most 1000000000000000.'],
    ['position_days 0', 'addPosition', { ...POSITION, position_days: 0 }, 'position_days must be a whole number of days from 1 to 36525, got 0.'],
    ['bad start date', 'addPosition', { ...POSITION, position_start_date: '2024-02-30' }, 'position_start_date must be a date YYYY-MM-DD, got "2024-02-30".'],
    ['bad reporting year', 'addPosition', { ...POSITION, reporting_year: 99 }, 'reporting_year must be a 4-digit year from 1900 to 2200, got 99.'],
    ['zero position id', 'removePosition', { investor_identifier: 'inv_1', position_id: 0 }, 'position_id must be a positive integer.'],
    ['investor e-mail', 'addInvestor', { investor_identifier: 'inv_9', investor_name: 'Ann', investor_currency_code: 'EUR', investor_email: 'ann' }, 'investor_email must be an e-mail address of at most 320 characters.'],
    ['control character in an identifier', 'removeAsset', { asset_identifier: 'SE\u00000001' }, 'asset_identifier must not contain control characters.'],
    ['job listing limit', 'getImpactRecomputeJobs', { limit: 101 }, 'limit must be from 1 to 100, got 101.'],
  ];
  for (const [name, operation, parameters, message] of cases) {
    test(name, async () => {
      assert.deepEqual(await v1(operation, parameters), { status: 400, body: { message, code: 'INVALID_ARGUMENT' } });
    });
  }
});

test('GraphQL answers the same refusals named as its caller named the field', async () => {
  const cases: [string, string][] = [
    ['addPosition(input: { investorIdentifier: "inv_1", assetIdentifier: "SE0001", amount: -5, currencyCode: "EUR" }) { message }', 'input.amount must be a positive number.'],
    ['addPosition(input: { investorIdentifier: "inv_1", assetIdentifier: "SE0001", amount: 5, currencyCode: "EUR", days: 0 }) { message }', 'input.days must be a whole number of days from 1 to 36525, got 0.'],
    ['addAsset(input: { identifier: "X", name: "X", issuerIdentifier: "I", frameworkIdentifier: "GBF", currencyCode: "EUR", dateIssued: "2024-06-01", dateMaturity: "2024-01-01" }) { message }', 'input.dateMaturity must not be before input.dateIssued.'],
    ['addAsset(input: { identifier: "X", name: "X", issuerIdentifier: "I", frameworkIdentifier: "GBF", currencyCode: "EURO" }) { message }', 'input.currencyCode must be a 3-letter currency code, got "EURO".'],
    ['addInvestor(input: { identifier: "inv_9", name: "X", currencyCode: "EUR", email: "nope" }) { message }', 'input.email must be an e-mail address of at most 320 characters.'],
    ['removePosition(investorIdentifier: "inv_1", positionId: "0") { message }', 'positionId must be a positive integer.'],
    ['computePositionImpacts(positionId: "1", year: 20245) { message }', 'year must be a 4-digit year from 1900 to 2200, got 20245.'],
  ];
  for (const [mutation, message] of cases) {
    assert.deepEqual(onlyError(await gql(`mutation { ${mutation} }`)), { message, code: 'BAD_USER_INPUT' }, mutation);
  }
  // A date that does not exist is not a Date: the schema's scalar refuses it before any service is asked (issue 29).
  const day = onlyError(await gql('mutation { addPosition(input: { investorIdentifier: "inv_1", assetIdentifier: "SE0001", amount: 5, currencyCode: "EUR", startDate: "2024-02-30" }) { message } }'));
  assert.equal(day.message, 'Date must be a calendar date YYYY-MM-DD such as "2025-06-30": got "2024-02-30".');
  assert.equal(day.code, 'BAD_USER_INPUT');
  // Reads by identifier and key: the service's batch reads refuse what it could not have stored.
  assert.deepEqual(onlyError(await gql(`{ asset(identifier: "${'x'.repeat(256)}") { id } }`)), { message: 'identifier must be 1 to 255 characters.', code: 'BAD_USER_INPUT' });
  assert.deepEqual(onlyError(await gql(`{ investor(identifier: "inv_1", decryptionKey: "${'k'.repeat(256)}") { id } }`)), {
    message: 'decryptionKey must be at most 255 characters.',
    code: 'BAD_USER_INPUT',
  });
  // Nested fields, GraphQL's own, name their arguments too.
  assert.deepEqual(onlyError(await gql('{ investor(identifier: "inv_1") { impacts(year: 24) { year } } }')), {
    message: 'year must be a 4-digit year from 1900 to 2200, got 24.',
    code: 'BAD_USER_INPUT',
  });
});
