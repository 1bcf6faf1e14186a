import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { InvalidArgumentError } from '@green-impact/shared/errors';
import { skipReason, testDatabases } from '@green-impact/testing/shared/databases';
import { FRAMEWORK, loadFixture } from '@green-impact/testing/portfolio/fixture';
import { startPortfolioHarness, type PortfolioHarness } from '@green-impact/testing/portfolio/harness';

/**
 * The rules the gateway used to check before calling (docs/decisions.md, "One owner per rule"), over gRPC:
 * each refusal is INVALID_ARGUMENT, its text starts with the /v1/call parameter's name and names it in
 * `field` (x-error-field), so GraphQL can relabel it as its caller named it.
 */

async function refused(call: Promise<unknown>, field: string, message: string): Promise<void> {
  await assert.rejects(call, (err: unknown) => {
    assert.ok(err instanceof InvalidArgumentError, `expected INVALID_ARGUMENT, got ${String(err)}`);
    assert.equal(err.message, message);
    assert.equal(err.field, field, `field of "${err.message}"`);
    return true;
  });
}

for (const db of testDatabases) {
  describe(`the portfolio service's own rules on ${db.name}`, { skip: await skipReason(db) }, () => {
    let h: PortfolioHarness;
    const me = () => ({ caller: h.issuer });
    const asset = { assetIdentifier: 'RULES-1', assetName: 'Rules bond', issuerIdentifier: 'ISS', frameworkIdentifier: FRAMEWORK, assetCurrencyCode: 'EUR' };
    const position = { investorIdentifier: 'inv-rules', assetIdentifier: 'RULES-1', positionAmount: 100, positionCurrencyCode: 'EUR' };

    before(async () => {
      h = await startPortfolioHarness(db);
      await loadFixture(h.taxonomy, h.issuer);
      await h.portfolio.addAsset(asset, me());
      await h.portfolio.addInvestor({ investorIdentifier: 'inv-rules', investorName: 'Rules Fund', investorCurrencyCode: 'EUR' }, me());
    });
    after(async () => {
      await h?.stop();
    });

    it('amounts: positive and at most MAX_AMOUNT; a value outstanding not negative', async () => {
      await refused(h.portfolio.addPosition({ ...position, positionAmount: 0 }, me()), 'position_amount', 'position_amount must be a positive number.');
      await refused(h.portfolio.addPosition({ ...position, positionAmount: -100 }, me()), 'position_amount', 'position_amount must be a positive number.');
      await refused(h.portfolio.addPosition({ ...position, positionAmount: 2e15 }, me()), 'position_amount', 'position_amount must be at most 1000000000000000.');
      await refused(h.portfolio.addAsset({ ...asset, assetValueOutstanding: -1 }, me()), 'asset_value_outstanding', 'asset_value_outstanding must be a number of at least 0.');
      await refused(h.portfolio.addAsset({ ...asset, assetValueOutstanding: 1e16 }, me()), 'asset_value_outstanding', 'asset_value_outstanding must be at most 1000000000000000.');
    });

    it('position_days from 1 to MAX_POSITION_DAYS; dates real; years of 4 digits', async () => {
      await refused(h.portfolio.addPosition({ ...position, positionDays: 0 }, me()), 'position_days', 'position_days must be a whole number of days from 1 to 36525, got 0.');
      await refused(h.portfolio.addPosition({ ...position, positionDays: 36_526 }, me()), 'position_days', 'position_days must be a whole number of days from 1 to 36525, got 36526.');
      await refused(h.portfolio.addPosition({ ...position, positionStartDate: '2024-02-30' }, me()), 'position_start_date', 'position_start_date must be a date YYYY-MM-DD, got "2024-02-30".');
      await refused(h.portfolio.addPosition({ ...position, reportingYear: 99 }, me()), 'reporting_year', 'reporting_year must be a 4-digit year from 1900 to 2200, got 99.');
      await refused(h.portfolio.addAsset({ ...asset, dateIssued: '2023-02-29' }, me()), 'date_issued', 'date_issued must be a date YYYY-MM-DD, got "2023-02-29".');
      await refused(h.portfolio.addAsset({ ...asset, dateMaturity: '01/06/2030' }, me()), 'date_maturity', 'date_maturity must be a date YYYY-MM-DD, got "01/06/2030".');
    });

    it('a maturity before the issue date is refused; the same day is fine', async () => {
      await refused(h.portfolio.addAsset({ ...asset, dateIssued: '2024-06-01', dateMaturity: '2024-05-31' }, me()), 'date_maturity', 'date_maturity must not be before date_issued.');
      await h.portfolio.addAsset({ ...asset, dateIssued: '2024-06-01', dateMaturity: '2024-06-01' }, me());
    });

    it('ids are positive integers', async () => {
      await refused(h.portfolio.removePosition({ investorIdentifier: 'inv-rules', positionId: 0 }, me()), 'position_id', 'position_id must be a positive integer.');
      await refused(h.portfolio.computePositionImpacts({ positionId: -1, reportingYear: 2024 }, me()), 'position_id', 'position_id must be a positive integer.');
    });

    it('currency codes in any case are stored upper case', async () => {
      await h.portfolio.addInvestor({ investorIdentifier: 'inv-case', investorName: 'Case', investorCurrencyCode: 'sek' }, me());
      const { investors } = await h.portfolio.getInvestorsByIdentifiers({ investorIdentifiers: ['inv-case'] }, me());
      assert.equal(investors[0]?.investorCurrencyCode, 'SEK');
      await h.portfolio.addAsset({ ...asset, assetIdentifier: 'RULES-CASE', assetCurrencyCode: 'eur' }, me());
      const { assets } = await h.portfolio.getAssetsByIdentifiers({ assetIdentifiers: ['RULES-CASE'] }, me());
      assert.equal(assets[0]?.assetCurrencyCode, 'EUR');
    });

    it('currency codes of 3 letters and e-mail addresses with a domain', async () => {
      await refused(h.portfolio.addAsset({ ...asset, assetCurrencyCode: 'EU' }, me()), 'asset_currency_code', 'asset_currency_code must be a 3-letter currency code, got "EU".');
      const investor = { investorIdentifier: 'inv-mail', investorName: 'Mail', investorCurrencyCode: 'EUR' };
      for (const bad of ['ann', 'ann@example', 'ann@@example.org']) {
        await refused(h.portfolio.addInvestor({ ...investor, investorEmail: bad }, me()), 'investor_email', 'investor_email must be an e-mail address of at most 320 characters.');
      }
    });

    it('lengths and control characters: none in identifiers and keys, tabs and line breaks in names', async () => {
      await refused(h.portfolio.addAsset({ ...asset, assetIdentifier: 'x'.repeat(256) }, me()), 'asset_identifier', 'asset_identifier must be 1 to 255 characters.');
      await refused(h.portfolio.addAsset({ ...asset, assetIdentifier: 'A\u0000B' }, me()), 'asset_identifier', 'asset_identifier must not contain control characters.');
      await refused(h.portfolio.addAsset({ ...asset, assetName: 'Bond\u0007' }, me()), 'asset_name', 'asset_name must not contain control characters.');
      await h.portfolio.addAsset({ ...asset, assetName: 'Green\tbond\n2029' }, me());
      const investor = { investorIdentifier: 'inv-keys', investorName: 'Keys', investorCurrencyCode: 'EUR' };
      await refused(h.portfolio.addInvestor({ ...investor, encryptionKey: 'k'.repeat(256) }, me()), 'encryption_key', 'encryption_key must be at most 255 characters.');
      await refused(h.portfolio.getInvestors({ decryptionKey: 'k\u0001' }, me()), 'decryption_key', 'decryption_key must not contain control characters.');
      await refused(h.portfolio.getPositions({ investorIdentifier: 'inv-rules', decryptionKey: 'k'.repeat(256), investorIdentifiersAllowed: [], investorFilterActive: false }, me()), 'decryption_key', 'decryption_key must be at most 255 characters.');
      await refused(h.portfolio.getPortfolios({ investorIdentifier: 'inv-rules', decryptionKey: 'k'.repeat(256), investorIdentifiersAllowed: [], investorFilterActive: false }, me()), 'decryption_key', 'decryption_key must be at most 255 characters.');
      await refused(h.portfolio.getPositions({ investorIdentifier: 'inv\nrules', investorIdentifiersAllowed: [], investorFilterActive: false }, me()), 'investor_identifier', 'investor_identifier must not contain control characters.');
    });

    it('batch reads take blank identifiers as naming nothing, refuse ones the service could not have stored, and check the key', async () => {
      assert.deepEqual((await h.portfolio.getAssetsByIdentifiers({ assetIdentifiers: ['  ', 'RULES-1'] }, me())).assets.map((a) => a.assetIdentifier), ['RULES-1']);
      await refused(h.portfolio.getAssetsByIdentifiers({ assetIdentifiers: ['x'.repeat(256)] }, me()), 'asset_identifier', 'asset_identifier must be 1 to 255 characters.');
      await refused(h.portfolio.getInvestorsByIdentifiers({ investorIdentifiers: ['inv\u0000'] }, me()), 'investor_identifier', 'investor_identifier must not contain control characters.');
      await refused(h.portfolio.getInvestorsByIdentifiers({ investorIdentifiers: ['inv-rules'], decryptionKey: 'k'.repeat(256) }, me()), 'decryption_key', 'decryption_key must be at most 255 characters.');
      await refused(h.portfolio.getPositionsByIds({ positionIds: [1], decryptionKey: 'k\u0001' }, me()), 'decryption_key', 'decryption_key must not contain control characters.');
    });

    it('recompute jobs: an id of at most 64 characters, a listing of 1 to 100 (0: the default)', async () => {
      await refused(h.portfolio.getImpactRecomputeJob({ jobId: 'j'.repeat(65) }, me()), 'job_id', 'job_id must be 1 to 64 characters.');
      await refused(h.portfolio.listImpactRecomputeJobs({ limit: 101, statuses: [] }, me()), 'limit', 'limit must be from 1 to 100, got 101.');
      await refused(h.portfolio.listImpactRecomputeJobs({ limit: -1, statuses: [] }, me()), 'limit', 'limit must be from 1 to 100, got -1.');
      assert.ok(Array.isArray((await h.portfolio.listImpactRecomputeJobs({ limit: 0, statuses: [] }, me())).jobs));
    });
  });
}
