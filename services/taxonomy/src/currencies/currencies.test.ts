import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { skipReason, testDatabases } from '@green-impact/testing/shared/databases';
import { rejectsWith, startTaxonomyHarness, type TaxonomyHarness } from '@green-impact/testing/taxonomy/harness';
import { ISO_4217_CODES } from './iso-4217.js';

const Y = 2024;

for (const db of testDatabases) {
  describe(`currencies and FX rates over gRPC on ${db.name}`, { skip: await skipReason(db) }, () => {
    let h: TaxonomyHarness;
    const op = () => ({ caller: h.operator });

    before(async () => {
      h = await startTaxonomyHarness(db);
    });
    after(async () => {
      await h?.stop();
    });

    it('seeds the ISO 4217 currencies', async () => {
      const { currencies } = await h.client.getCurrencies({}, { caller: h.user });
      assert.equal(currencies.length, ISO_4217_CODES.length);
      assert.ok(currencies.length > 170);
      const codes = currencies.map((c) => c.currencyCode);
      for (const code of ['EUR', 'SEK', 'USD', 'NOK', 'DKK', 'GBP', 'CHF', 'JPY', 'XCG', 'ZWG']) assert.ok(codes.includes(code), code);
      for (const gone of ['HRK', 'ZWL', 'SLL']) assert.ok(!codes.includes(gone), gone);
      assert.ok(codes.every((c) => /^[A-Z]{3}$/.test(c)));
      assert.deepEqual(codes, [...codes].sort());
    });

    it('adds a currency once (a second add answers the same id) and only for operators', async () => {
      const added = await h.client.addCurrency({ currencyCode: 'xyz' }, op());
      assert.equal(added.message, `Currency added with id ${added.id}.`);
      const again = await h.client.addCurrency({ currencyCode: 'XYZ' }, op());
      assert.deepEqual(again, { message: `Currency already exists with id ${added.id}.`, id: added.id });
      assert.equal((await h.client.getCurrencies({}, op())).currencies.filter((c) => c.currencyCode === 'XYZ').length, 1);
      await rejectsWith(h.client.addCurrency({ currencyCode: 'EU' }, op()), 'INVALID_ARGUMENT', 'currency_code must be a 3-letter currency code, got "EU".');
      await rejectsWith(h.client.addCurrency({ currencyCode: 'ABC' }, { caller: h.user }), 'PERMISSION_DENIED', 'Not authorized.');
      await rejectsWith(h.client.removeCurrency({ currencyCode: 'XYZ' }, { caller: h.user }), 'PERMISSION_DENIED', 'Not authorized.');
    });

    it('adds FX rates and lists them with identity and reciprocal pairs', async () => {
      const sek = await h.client.addFxRate({ currencyCodeNumerator: 'SEK', currencyCodeDenominator: 'EUR', currencyCodeQuota: 11.5, reportingYear: Y }, op());
      assert.equal(sek.message, `FX rate added with id ${sek.id}.`);
      const usd = await h.client.addFxRate({ currencyCodeNumerator: 'usd', currencyCodeDenominator: 'eur', currencyCodeQuota: 1.25, reportingYear: Y }, op());
      const { fxRates } = await h.client.getFxRates({ reportingYear: Y }, { caller: h.user });
      assert.deepEqual(
        fxRates.map((r) => [r.numeratorCurrencyCode, r.denominatorCurrencyCode, r.fxRate, r.fxConversionId, r.derived, r.year]),
        [
          ['EUR', 'EUR', 1, 0, true, Y],
          ['EUR', 'SEK', 1 / 11.5, 0, true, Y],
          ['EUR', 'USD', 0.8, 0, true, Y],
          ['SEK', 'EUR', 11.5, sek.id, false, Y],
          ['SEK', 'SEK', 1, 0, true, Y],
          ['USD', 'EUR', 1.25, usd.id, false, Y],
          ['USD', 'USD', 1, 0, true, Y],
        ],
      );
      assert.deepEqual((await h.client.getFxRates({ reportingYear: 2023 }, op())).fxRates, []);
    });

    it('re-adding a pair in either direction updates the one stored rate', async () => {
      const changed = await h.client.addFxRate({ currencyCodeNumerator: 'EUR', currencyCodeDenominator: 'SEK', currencyCodeQuota: 0.08, reportingYear: Y }, op());
      assert.equal(changed.message, 'FX rate changed.');
      const stored = (await h.client.getFxRates({ reportingYear: Y }, op())).fxRates.filter((r) => !r.derived);
      assert.equal(stored.length, 2);
      const eurSek = stored.find((r) => r.numeratorCurrencyCode === 'EUR')!;
      assert.deepEqual([eurSek.denominatorCurrencyCode, eurSek.fxRate, eurSek.fxConversionId], ['SEK', 0.08, changed.id]);
      const back = await h.client.addFxRate({ currencyCodeNumerator: 'SEK', currencyCodeDenominator: 'EUR', currencyCodeQuota: 12.5, reportingYear: Y }, op());
      assert.equal(back.id, changed.id);
      assert.equal((await h.client.getFxRate({ reportingYear: Y, numeratorCurrencyCode: 'EUR', denominatorCurrencyCode: 'SEK' }, op())).fxRate!.fxRate, 0.08);
    });

    it('validates FX rates', async () => {
      const add = (n: string, d: string, q: number, y = Y) =>
        h.client.addFxRate({ currencyCodeNumerator: n, currencyCodeDenominator: d, currencyCodeQuota: q, reportingYear: y }, op());
      await rejectsWith(add('SEK', 'EUR', 0), 'INVALID_ARGUMENT', 'currency_code_quota must be a positive number.');
      await rejectsWith(add('SEK', 'EUR', -2), 'INVALID_ARGUMENT');
      await rejectsWith(add('SEK', 'EUR', Number.NaN), 'INVALID_ARGUMENT');
      await rejectsWith(add('SEK', 'EUR', Number.POSITIVE_INFINITY), 'INVALID_ARGUMENT');
      await rejectsWith(add('SEK', 'sek', 1), 'INVALID_ARGUMENT', 'The numerator and denominator currencies must differ.');
      await rejectsWith(add('QQQ', 'EUR', 1), 'NOT_FOUND', 'No such currency QQQ.');
      await rejectsWith(add('SEK', 'EUR', 1, 99), 'INVALID_ARGUMENT');
      await rejectsWith(
        h.client.addFxRate({ currencyCodeNumerator: 'SEK', currencyCodeDenominator: 'EUR', currencyCodeQuota: 1, reportingYear: Y }, { caller: h.user }),
        'PERMISSION_DENIED',
      );
    });

    it('answers one rate and converts amounts, naming a missing pair and year', async () => {
      const get = (n: string, d: string, y = Y) =>
        h.client.getFxRate({ reportingYear: y, numeratorCurrencyCode: n, denominatorCurrencyCode: d }, { caller: h.user });
      const stored = (await get('SEK', 'EUR')).fxRate!;
      assert.deepEqual([stored.fxRate, stored.derived, stored.year], [12.5, false, Y]);
      assert.ok(stored.fxConversionId > 0);
      assert.deepEqual((await get('EUR', 'SEK')).fxRate, {
        fxConversionId: 0, year: Y, numeratorCurrencyCode: 'EUR', denominatorCurrencyCode: 'SEK', fxRate: 0.08, derived: true,
      });
      assert.equal((await get('NOK', 'NOK')).fxRate!.fxRate, 1);
      await rejectsWith(get('SEK', 'USD'), 'NOT_FOUND', 'No FX rate between SEK and USD for 2024.');
      await rejectsWith(get('SEK', 'EUR', 2023), 'NOT_FOUND', 'No FX rate between SEK and EUR for 2023.');
      await rejectsWith(get('QQQ', 'EUR'), 'NOT_FOUND', 'No such currency QQQ.');

      const { conversions } = await h.client.convertAmounts(
        {
          reportingYear: Y,
          conversions: [
            { amount: 100, fromCurrencyCode: 'EUR', toCurrencyCode: 'SEK' },
            { amount: 125, fromCurrencyCode: 'SEK', toCurrencyCode: 'EUR' },
            { amount: 7, fromCurrencyCode: 'NOK', toCurrencyCode: 'NOK' },
          ],
        },
        { caller: h.user },
      );
      assert.deepEqual(conversions.map((c) => [c.fromCurrencyCode, c.toCurrencyCode, c.fxRate, c.convertedAmount]), [
        ['EUR', 'SEK', 12.5, 1250],
        ['SEK', 'EUR', 0.08, 10],
        ['NOK', 'NOK', 1, 7],
      ]);
      await rejectsWith(
        h.client.convertAmounts({ reportingYear: Y, conversions: [
          { amount: 1, fromCurrencyCode: 'EUR', toCurrencyCode: 'SEK' },
          { amount: 1, fromCurrencyCode: 'USD', toCurrencyCode: 'SEK' },
        ] }, op()),
        'FAILED_PRECONDITION',
        'No FX rate between USD and SEK for 2024.',
      );
      await rejectsWith(
        h.client.convertAmounts({ reportingYear: 2023, conversions: [{ amount: 1, fromCurrencyCode: 'EUR', toCurrencyCode: 'SEK' }] }, op()),
        'FAILED_PRECONDITION',
        'No FX rate between EUR and SEK for 2023.',
      );
    });

    it('refuses to remove a currency FX rates use; removes rates in either direction', async () => {
      await h.client.addFxRate({ currencyCodeNumerator: 'SEK', currencyCodeDenominator: 'EUR', currencyCodeQuota: 10, reportingYear: 2023 }, op());
      await rejectsWith(h.client.removeCurrency({ currencyCode: 'SEK' }, op()), 'FAILED_PRECONDITION',
        'Currency SEK is still used by FX rates of 2023 and 2024; remove those first.');
      const removed = await h.client.removeFxRate({ currencyCode1: 'EUR', currencyCode2: 'SEK', reportingYear: 2023 }, op());
      assert.equal(removed.message, 'FX rate removed.');
      await rejectsWith(h.client.removeFxRate({ currencyCode1: 'EUR', currencyCode2: 'SEK', reportingYear: 2023 }, op()), 'NOT_FOUND',
        'No FX rate between EUR and SEK for 2023.');
      await rejectsWith(h.client.removeCurrency({ currencyCode: 'SEK' }, op()), 'FAILED_PRECONDITION',
        'Currency SEK is still used by FX rates of 2024; remove those first.');
      await h.client.removeFxRate({ currencyCode1: 'sek', currencyCode2: 'eur', reportingYear: Y }, op());
      assert.equal((await h.client.removeCurrency({ currencyCode: 'XYZ' }, op())).message, 'Currency removed.');
      await rejectsWith(h.client.removeCurrency({ currencyCode: 'XYZ' }, op()), 'NOT_FOUND', 'No such currency XYZ.');
      const rest = (await h.client.getFxRates({ reportingYear: Y }, op())).fxRates;
      assert.deepEqual(rest.map((r) => `${r.numeratorCurrencyCode}/${r.denominatorCurrencyCode}`), ['EUR/EUR', 'EUR/USD', 'USD/EUR', 'USD/USD']);
    });
  });
}
