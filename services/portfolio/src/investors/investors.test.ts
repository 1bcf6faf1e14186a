import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { generateEncryptionKey, MASKED, WRONG_KEY_MESSAGE } from '@green-impact/shared/pii';
import { skipReason, testDatabases } from '@green-impact/testing/shared/databases';
import { rejectsWith, startPortfolioHarness, type PortfolioHarness } from '@green-impact/testing/portfolio/harness';

for (const db of testDatabases) {
  describe(`investors over gRPC on ${db.name}`, { skip: await skipReason(db) }, () => {
    let h: PortfolioHarness;
    const me = () => ({ caller: h.investor });
    const key = generateEncryptionKey();
    const otherKey = generateEncryptionKey();

    before(async () => {
      h = await startPortfolioHarness(db);
    });
    after(async () => {
      await h?.stop();
    });

    it('generates random, non-PII investor identifiers', async () => {
      const a = (await h.portfolio.generateInvestorIdentifier({}, me())).investorIdentifier;
      const b = (await h.portfolio.generateInvestorIdentifier({}, me())).investorIdentifier;
      assert.match(a, /^inv_[a-z2-7]{20}$/);
      assert.notEqual(a, b);
      await rejectsWith(h.portfolio.generateInvestorIdentifier({}), 'UNAUTHENTICATED');
    });

    it('adds and updates investors in clear', async () => {
      const added = await h.portfolio.addInvestor(
        { investorIdentifier: 'inv-plain', investorName: 'Ada Investor', investorCurrencyCode: 'sek', investorEmail: 'ada@example.org' },
        me(),
      );
      assert.equal(added.message, 'Investor added.');
      const updated = await h.portfolio.addInvestor({ investorIdentifier: 'inv-plain', investorName: 'Ada B. Investor', investorCurrencyCode: 'EUR' }, me());
      assert.deepEqual(updated, { message: 'Investor updated.', id: added.id });
      assert.deepEqual((await h.portfolio.getInvestors({}, me())).investors, [
        {
          investorId: added.id,
          investorIdentifier: 'inv-plain',
          investorName: 'Ada B. Investor',
          investorCurrencyCode: 'EUR',
          investorEmail: 'ada@example.org',
          encrypted: false,
          masked: false,
        },
      ]);
    });

    it('validates investors without echoing PII', async () => {
      const base = { investorIdentifier: 'inv-x', investorName: 'X', investorCurrencyCode: 'EUR' };
      await rejectsWith(h.portfolio.addInvestor({ ...base, investorCurrencyCode: 'EU' }, me()), 'INVALID_ARGUMENT');
      await rejectsWith(h.portfolio.addInvestor({ ...base, investorName: '' }, me()), 'INVALID_ARGUMENT', 'investor_name must be 1 to 255 characters.');
      await rejectsWith(h.portfolio.addInvestor({ ...base, investorEmail: 'secret name' }, me()), 'INVALID_ARGUMENT',
        'investor_email must be an e-mail address of at most 320 characters.');
      await rejectsWith(h.portfolio.addInvestor({ ...base, encryptionKey: 'short' }, me()), 'INVALID_ARGUMENT',
        'encryption_key must be 64 hexadecimal characters, as generateEncryptionKey returns.');
    });

    it('encrypts name and e-mail with a key; reads are masked without it and refuse a wrong one', async () => {
      const added = await h.portfolio.addInvestor(
        { investorIdentifier: 'inv-secret', investorName: 'Grace Hidden', investorCurrencyCode: 'EUR', investorEmail: 'grace@example.org', encryptionKey: key },
        me(),
      );
      const raw: { investor_name: string; investor_email: string; key_fingerprint: string }[] = await h.service.dataSource.query(
        `SELECT investor_name, investor_email, key_fingerprint FROM portfolio.investors WHERE id = $1`,
        [added.id],
      );
      assert.match(raw[0]!.investor_name, /^v1\./);
      assert.ok(!raw[0]!.investor_name.includes('Grace') && !raw[0]!.investor_email.includes('grace'));
      assert.equal(raw[0]!.key_fingerprint.length, 64);

      const masked = (await h.portfolio.getInvestors({}, me())).investors.find((i) => i.investorIdentifier === 'inv-secret')!;
      assert.deepEqual([masked.investorName, masked.investorEmail, masked.encrypted, masked.masked], [MASKED, MASKED, true, true]);
      const clear = (await h.portfolio.getInvestors({ decryptionKey: key }, me())).investors;
      const secret = clear.find((i) => i.investorIdentifier === 'inv-secret')!;
      assert.deepEqual([secret.investorName, secret.investorEmail, secret.masked], ['Grace Hidden', 'grace@example.org', false]);
      // Records in clear stay readable beside it.
      assert.equal(clear.find((i) => i.investorIdentifier === 'inv-plain')!.investorName, 'Ada B. Investor');
      await rejectsWith(h.portfolio.getInvestors({ decryptionKey: otherKey }, me()), 'INVALID_ARGUMENT', WRONG_KEY_MESSAGE);
      await rejectsWith(h.portfolio.getInvestors({ decryptionKey: 'xyz' }, me()), 'INVALID_ARGUMENT',
        'decryption_key must be 64 hexadecimal characters, as generateEncryptionKey returns.');
    });

    it('keeps encrypted fields only with the same key; replacing all of them needs none', async () => {
      await rejectsWith(
        h.portfolio.addInvestor({ investorIdentifier: 'inv-secret', investorName: 'Grace H.', investorCurrencyCode: 'EUR' }, me()),
        'INVALID_ARGUMENT',
        "This investor's personal data is encrypted; pass the same encryption_key to change it, or give investor_name and investor_email anew.",
      );
      await rejectsWith(
        h.portfolio.addInvestor({ investorIdentifier: 'inv-secret', investorName: 'Grace H.', investorCurrencyCode: 'EUR', encryptionKey: otherKey }, me()),
        'INVALID_ARGUMENT',
      );
      await h.portfolio.addInvestor({ investorIdentifier: 'inv-secret', investorName: 'Grace H.', investorCurrencyCode: 'EUR', encryptionKey: key }, me());
      const [g] = (await h.portfolio.getInvestorsByIdentifiers({ investorIdentifiers: ['inv-secret'], decryptionKey: key }, me())).investors;
      assert.deepEqual([g!.investorName, g!.investorEmail], ['Grace H.', 'grace@example.org']);

      await h.portfolio.addInvestor(
        { investorIdentifier: 'inv-rewritten', investorName: 'Temp', investorCurrencyCode: 'EUR', encryptionKey: key },
        me(),
      );
      await h.portfolio.addInvestor({ investorIdentifier: 'inv-rewritten', investorName: 'Now Plain', investorCurrencyCode: 'EUR' }, me());
      const [plain] = (await h.portfolio.getInvestorsByIdentifiers({ investorIdentifiers: ['inv-rewritten'] }, me())).investors;
      assert.deepEqual([plain!.investorName, plain!.encrypted, plain!.masked], ['Now Plain', false, false]);
    });

    it('reads a batch by identifiers in the order asked, leaving unknown ones out', async () => {
      const { investors } = await h.portfolio.getInvestorsByIdentifiers(
        { investorIdentifiers: ['inv-secret', 'nobody', 'inv-plain', 'inv-secret'] },
        me(),
      );
      assert.deepEqual(investors.map((i) => [i.investorIdentifier, i.investorName]), [['inv-secret', MASKED], ['inv-plain', 'Ada B. Investor']]);
      await rejectsWith(h.portfolio.getInvestorsByIdentifiers({ investorIdentifiers: ['inv-secret'], decryptionKey: otherKey }, me()), 'INVALID_ARGUMENT', WRONG_KEY_MESSAGE);
      assert.deepEqual((await h.portfolio.getInvestorsByIdentifiers({ investorIdentifiers: [] }, me())).investors, []);
    });

    it('keeps investors private to their account and removes them', async () => {
      assert.deepEqual((await h.portfolio.getInvestors({}, { caller: h.stranger })).investors, []);
      assert.deepEqual((await h.portfolio.getInvestorsByIdentifiers({ investorIdentifiers: ['inv-plain'] }, { caller: h.stranger })).investors, []);
      await rejectsWith(h.portfolio.removeInvestor({ investorIdentifier: 'inv-plain' }, { caller: h.stranger }), 'NOT_FOUND', 'No such investor.');
      const removed = await h.portfolio.removeInvestor({ investorIdentifier: 'inv-plain' }, me());
      assert.equal(removed.message, 'Investor removed.');
      assert.equal(removed.investorIdentifier, 'inv-plain');
      await rejectsWith(h.portfolio.removeInvestor({ investorIdentifier: 'inv-plain' }, me()), 'NOT_FOUND', 'No such investor.');
      assert.deepEqual((await h.portfolio.getInvestors({}, me())).investors.map((i) => i.investorIdentifier), ['inv-secret', 'inv-rewritten']);
    });
  });
}
