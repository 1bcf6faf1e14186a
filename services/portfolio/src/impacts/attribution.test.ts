import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Visibility } from '@green-impact/proto/greenimpact/common/v1/common';
import type { Caller } from '@green-impact/shared/caller';
import { skipReason, testDatabases } from '@green-impact/testing/shared/databases';
import { FRAMEWORK, loadFixture } from '@green-impact/testing/portfolio/fixture';
import { startPortfolioHarness, type PortfolioHarness } from '@green-impact/testing/portfolio/harness';
import { computePositionImpacts } from './impact-math.js';

/**
 * PCAF's 100 % attribution principle (ARCHITECTURE §3): whatever the holders, the framework's figures
 * are never credited more than once in total, as long as together they hold no more than the framework's
 * value outstanding V. D ≥ V makes every holder's share P_f ÷ D ≤ its part of V, and τ ≤ 1.
 */
const RELATIVE_NOISE = 1e-12;

describe('attribution over all holders, pure', () => {
  it('never exceeds 100 % for random frameworks and holdings that add up to at most V', () => {
    let seed = 17;
    const random = () => ((seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31);
    for (let trial = 0; trial < 500; trial++) {
      const V = 1 + random() * 1e9;
      const framework = { frameworkIdentifier: 'F', reportingYear: 2024, currencyCode: 'EUR', valueOutstanding: V, allocatedAmount: random() * 2 * V, valueOutstandingFramework: random() < 0.5 };
      const weights = Array.from({ length: 1 + Math.floor(random() * 40) }, () => random());
      const held = random() <= 0.3 ? 1 : random(); // the holders' part of V
      const sum = weights.reduce((a, b) => a + b, 0);
      let attributed = 0;
      for (const w of weights) {
        const fxRate = 0.05 + random() * 20;
        const out = computePositionImpacts({
          reportingYear: 2024,
          position: { amount: (V * held * w) / sum / fxRate, currencyCode: 'SEK', positionDays: 1 + Math.floor(random() * 800), startDate: random() < 0.5 ? null : '2023-11-15' },
          fxRate,
          framework,
          rows: [{ subCategoryVolume: 1_000, indicatorValue: 1 }],
        });
        attributed += out.rows[0]!.value;
      }
      assert.ok(attributed <= 1 + RELATIVE_NOISE, `trial ${trial}: ${attributed * 100} % attributed`);
    }
  });
});

for (const db of testDatabases) {
  describe(`attribution over all holders of an asset on ${db.name}`, { skip: await skipReason(db) }, () => {
    let h: PortfolioHarness;
    const holders: { caller: Caller; investor: string }[] = [];

    before(async () => {
      h = await startPortfolioHarness(db);
      await loadFixture(h.taxonomy, h.issuer);
      await h.portfolio.addAsset(
        { assetIdentifier: 'GB-ALL', assetName: 'Green Bond held by all', issuerIdentifier: 'ISSUER-A', frameworkIdentifier: FRAMEWORK, assetCurrencyCode: 'EUR', assetValueOutstanding: 2_000_000, assetVisibility: Visibility.VISIBILITY_PUBLIC },
        { caller: h.issuer },
      );
      // Holders in three accounts, the issuer's own among them.
      for (const [caller, investor] of [[h.investor, 'fund-a'], [h.investor, 'fund-b'], [h.stranger, 'fund-c'], [h.issuer, 'treasury']] as const) {
        await h.portfolio.addInvestor({ investorIdentifier: investor, investorName: investor, investorCurrencyCode: 'EUR' }, { caller });
        holders.push({ caller, investor });
      }
    });
    after(async () => {
      await h?.stop();
    });

    /** Holdings of year Y that add up to exactly V in EUR: some in SEK at the year's rate, some for part of the year only. */
    async function holdAll(year: 2023 | 2024, V: number, sekPerEur: number): Promise<void> {
      const n = 37;
      const weights = Array.from({ length: n }, (_, i) => 1 + ((i * 7) % 11));
      const total = weights.reduce((a, b) => a + b, 0);
      for (let i = 0; i < n; i++) {
        const eur = (V * weights[i]!) / total;
        const holder = holders[i % holders.length]!;
        const sek = i % 3 === 0;
        await h.portfolio.addPosition(
          {
            investorIdentifier: holder.investor,
            assetIdentifier: 'GB-ALL',
            positionAmount: sek ? eur * sekPerEur : eur,
            positionCurrencyCode: sek ? 'SEK' : 'EUR',
            // Holdings end with the year: the next year's holders take over on 1 January.
            positionStartDate: i % 5 === 0 ? `${year}-03-01` : `${year}-01-01`,
            positionDays: i % 5 === 0 ? 306 : year === 2024 ? 366 : 365,
          },
          { caller: holder.caller },
        );
      }
    }

    /** Per (year, k, i): the framework's x and s, and what all holders together were credited. */
    async function credited() {
      for (const year of [2023, 2024]) {
        for (const { caller, investor } of holders) {
          await h.portfolio.getInvestorImpacts({ investorIdentifier: investor, reportingYear: year, computeMissing: true, omitRecords: true }, { caller });
        }
      }
      const rows: { year: number; k: number; i: number; x: number; s: number; value: number; volume: number; holders: number }[] = await h.service.dataSource.query(
        `SELECT c.reporting_year AS year, i.sub_category_id AS k, i.indicator_id AS i, min(i.indicator_value) AS x, min(i.sub_category_volume) AS s,
           sum(i.value ORDER BY p.id) AS value, sum(i.attributed_volume ORDER BY p.id) AS volume, count(DISTINCT p.account_id)::int AS holders
         FROM portfolio.impacts i
         JOIN portfolio.impact_computations c ON c.id = i.computation_id
         JOIN portfolio.positions p ON p.id = c.position_id
         JOIN portfolio.assets a ON a.id = p.asset_id
         WHERE a.asset_identifier = 'GB-ALL'
         GROUP BY 1, 2, 3 ORDER BY 1, 2, 3`,
      );
      return rows;
    }

    it('credits all holders together with at most 100 % of every figure, and with D = V exactly the part of V they held', async () => {
      await holdAll(2023, 1_000_000, 10); // 2023: D = V = 1 000 000 (value_outstanding_framework yes)
      await holdAll(2024, 2_000_000, 12.5); // 2024: D = max(L 2 500 000, V 2 000 000)
      const rows = await credited();
      assert.equal(rows.length, 4);
      for (const r of rows) {
        assert.equal(r.holders, 3, 'three accounts hold the asset');
        assert.ok(r.value <= r.x * (1 + RELATIVE_NOISE), `${r.year} ${r.k}/${r.i}: ${(100 * r.value) / r.x} % of x`);
        assert.ok(r.volume <= r.s * (1 + RELATIVE_NOISE), `${r.year} ${r.k}/${r.i}: ${(100 * r.volume) / r.s} % of s`);
      }
      // 2023: the 2023 holdings cover V but some only from 1 March; the 2024 holdings start after 2023.
      const march = 306 / 365;
      const weights = Array.from({ length: 37 }, (_, i) => 1 + ((i * 7) % 11));
      const total = weights.reduce((a, b) => a + b, 0);
      const held = weights.reduce((a, w, i) => a + (w / total) * (i % 5 === 0 ? march : 1), 0);
      const y2023 = rows.find((r) => r.year === 2023)!;
      assert.ok(Math.abs(y2023.value / y2023.x - held) < 1e-9, `2023 share ${y2023.value / y2023.x} vs ${held}`);
      // 2024: D = L, so the holders of all of V get V ÷ L = 80 % at most.
      for (const r of rows.filter((x) => x.year === 2024)) assert.ok(r.value / r.x <= 0.8 + 1e-12);
    });

    it('stays at most 100 % when the same holdings are recomputed again', async () => {
      const first = await credited();
      for (const year of [2023, 2024]) {
        for (const { caller, investor } of holders) {
          const { positions } = await h.portfolio.getPositions({ investorIdentifier: investor, investorIdentifiersAllowed: [], investorFilterActive: false }, { caller });
          for (const p of positions) await h.portfolio.computePositionImpacts({ positionId: p.positionId, reportingYear: year }, { caller });
        }
      }
      assert.deepEqual(await credited(), first);
    });
  });
}
