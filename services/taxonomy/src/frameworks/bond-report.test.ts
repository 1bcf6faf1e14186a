import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { refusedNaming } from '@green-impact/testing/shared/assertions';
import { skipReason, testDatabases } from '@green-impact/testing/shared/databases';
import { Y } from '@green-impact/testing/taxonomy/icma-fixture';
import { startTaxonomyHarness, type TaxonomyHarness } from '@green-impact/testing/taxonomy/harness';
import { lei, reportingPeriod } from './bond-report.js';

describe('EU GBS report field rules', () => {
  it('checks an LEI with its ISO 17442 check digits (ISO 7064 MOD 97-10)', () => {
    // Published LEIs (GLEIF): Apple Inc., Deutsche Bank AG.
    assert.equal(lei('l', 'hwupkr0mpou8fgxbt394'), 'HWUPKR0MPOU8FGXBT394');
    assert.equal(lei('l', '7LTWFZYICNSX8D621K86'), '7LTWFZYICNSX8D621K86');
    assert.equal(lei('l', ' '), undefined);
    assert.throws(() => lei('l', 'HWUPKR0MPOU8FGXBT393'), /^InvalidArgumentError: l has wrong check digits \(ISO 17442\), got "HWUPKR0MPOU8FGXBT393"\.$/);
    assert.throws(() => lei('l', 'HWUPKR0MPOU8FGXBT3'), /l must be a 20-character LEI \(ISO 17442\)/);
    assert.throws(() => lei('l', 'HWUPKR0MPOU8FGXBT3A4'), /l must be a 20-character LEI/);
  });
  it('takes a reporting period as two real dates, the first not after the last', () => {
    assert.deepEqual(reportingPeriod('2024-01-01', '2024-12-31'), { start: '2024-01-01', end: '2024-12-31' });
    assert.equal(reportingPeriod(undefined, ''), undefined);
    assert.throws(() => reportingPeriod('2023-02-29', '2023-12-31'), /reporting_period_start must be a date YYYY-MM-DD, got "2023-02-29"\./);
    assert.throws(() => reportingPeriod('2024-01-01', undefined), /reporting_period_end is required with reporting_period_start\./);
    assert.throws(() => reportingPeriod('2024-06-01', '2024-05-31'), /reporting_period_end must not be before reporting_period_start \(2024-06-01\)\./);
  });
});

for (const db of testDatabases) {
  describe(`EU GBS report fields over gRPC on ${db.name}`, { skip: await skipReason(db) }, () => {
    let h: TaxonomyHarness;
    const a = () => ({ caller: h.user });
    const add = { frameworkIdentifier: 'EUGB', frameworkName: 'European green bond', frameworkCurrencyCode: 'EUR' };
    const year = { frameworkIdentifier: 'EUGB', valueOutstanding: 500, allocatedAmount: 400, valueOutstandingFramework: true, reportingYear: Y };
    const summary = async () => (await h.client.getFrameworkDetails({ frameworkIdentifier: 'EUGB', reportingYear: Y }, a())).frameworks[0]!.frameworkSummary!;

    before(async () => {
      h = await startTaxonomyHarness(db);
    });
    after(async () => {
      await h?.stop();
    });

    it('stores them on the framework and its year, and keeps each an update leaves out', async () => {
      await h.client.addFramework({ ...add, issuerLei: '7ltwfzyicnsx8d621k86', externalReviewer: 'Reviewer GmbH, review@example.org', approvingAuthority: 'BaFin' }, a());
      await h.client.addYearSpecificsToFramework(
        { ...year, reportingPeriodStart: '2024-01-01', reportingPeriodEnd: '2024-12-31', unallocatedProceedsPlacement: 'Cash and money-market funds\nwithin the treasury.' },
        a(),
      );
      await h.client.addFramework({ ...add, frameworkName: 'EuGB 2024' }, a());
      await h.client.addYearSpecificsToFramework({ ...year, allocatedAmount: 450 }, a());
      const s = await summary();
      assert.deepEqual(
        [s.frameworkName, s.frameworkAllocatedAmount, s.issuerLei, s.externalReviewer, s.approvingAuthority, s.reportingPeriodStart, s.reportingPeriodEnd, s.unallocatedProceedsPlacement],
        ['EuGB 2024', 450, '7LTWFZYICNSX8D621K86', 'Reviewer GmbH, review@example.org', 'BaFin', '2024-01-01', '2024-12-31', 'Cash and money-market funds\nwithin the treasury.'],
      );
    });

    it('refuses bad fields naming them', async () => {
      await refusedNaming(h.client.addFramework({ ...add, issuerLei: '7LTWFZYICNSX8D621K87' }, a()), 'issuer_lei', 'issuer_lei has wrong check digits (ISO 17442), got "7LTWFZYICNSX8D621K87".');
      await refusedNaming(h.client.addFramework({ ...add, approvingAuthority: 'x'.repeat(256) }, a()), 'approving_authority', 'approving_authority must be at most 255 characters on one line.');
      await refusedNaming(h.client.addYearSpecificsToFramework({ ...year, reportingPeriodEnd: '2024-12-31' }, a()), 'reporting_period_start',
        'reporting_period_start is required with reporting_period_end.');
      assert.equal((await summary()).issuerLei, '7LTWFZYICNSX8D621K86');
    });
  });
}
