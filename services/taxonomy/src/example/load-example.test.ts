import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { skipReason, testDatabases } from '@green-impact/testing/shared/databases';
import { callerTrust, useCallerTrust } from '@green-impact/shared/callers/caller-trust';
import { generateCallerKeyPair, privateKeyText } from '@green-impact/shared/callers/caller-keys';
import { startTaxonomyHarness, type TaxonomyHarness } from '@green-impact/testing/taxonomy/harness';
import { loadExample } from './example-loader.js';
import { ICMA_TAXONOMY } from './icma-taxonomy.js';

const CLI = fileURLToPath(new URL('./load-example.js', import.meta.url));
const run = promisify(execFile);
// The CLI is another process: it signs with a gateway key this process's services trust.
const gatewayKeys = generateCallerKeyPair();
useCallerTrust(callerTrust({ signing: { gateway: gatewayKeys.privateKey }, trusted: new Map([['gateway', gatewayKeys.publicKey]]) }));

for (const db of testDatabases) {
  describe(`ICMA example loader on ${db.name}`, { skip: await skipReason(db) }, () => {
    let h: TaxonomyHarness;
    const Y = ICMA_TAXONOMY.reportingYear;

    before(async () => {
      h = await startTaxonomyHarness(db);
    });
    after(async () => {
      await h?.stop();
    });

    it('loads the example through the API, and a second run changes nothing', async () => {
      const first = await loadExample(h.client, h.operator, ICMA_TAXONOMY);
      assert.equal(first.changed, true);
      assert.deepEqual(
        [first.categories, first.subCategories, first.superIndicators, first.indicators, first.units, first.fxRates],
        [6, 15, 8, 15, 10, 2],
      );
      assert.ok(first.taxonomyRows > 40);
      const snapshot = async () => JSON.stringify(await h.client.getTaxonomy({ reportingYear: Y, languageCode: 'sv' }, { caller: h.user }));
      const before = await snapshot();
      const second = await loadExample(h.client, h.operator, ICMA_TAXONOMY);
      assert.deepEqual(second, { ...first, changed: false });
      assert.equal(await snapshot(), before);
    });

    it('holds the ICMA core indicators with units, SDG/EU links and Swedish names', async () => {
      const { rows } = await h.client.getTaxonomy({ reportingYear: Y }, { caller: h.user });
      const ghg = rows.filter((r) => r.indicatorName === 'Annual GHG emissions reduced/avoided');
      assert.equal(new Set(ghg.map((r) => r.categoryName)).size, 5);
      assert.ok(ghg.every((r) => r.unitName === 'tCO2e/year'));
      const solar = rows.find((r) => r.subCategoryName === 'Solar power' && r.indicatorName === 'Annual renewable energy generation')!;
      assert.deepEqual([solar.categoryName, solar.unitName, solar.sdg, solar.euObjective], [
        'Renewable energy', 'MWh/year', { '7': 'Affordable and Clean Energy', '13': 'Climate Action' }, { '1': 'Climate change mitigation' },
      ]);
      const units = (await h.client.getIndicators({ reportingYear: Y }, { caller: h.user })).indicators.map((i) => `${i.indicatorName} — ${i.unitName}`);
      for (const expected of [
        'Capacity of renewable energy plant(s) constructed or rehabilitated — MW',
        'Annual energy savings — MWh/year',
        'Annual absolute (gross) water use reduction — m³/year',
        'Waste prevented, minimised, reused or recycled — t/year',
        'Number of clean vehicles deployed — number',
      ]) {
        assert.ok(units.includes(expected), expected);
      }
      const sv = (await h.client.getCategories({ reportingYear: Y, languageCode: 'sv' }, { caller: h.user })).categories;
      assert.equal(sv.find((c) => c.categoryName === 'Förnybar energi')?.language, 'Swedish');
      const rate = await h.client.getFxRate({ reportingYear: Y, numeratorCurrencyCode: 'SEK', denominatorCurrencyCode: 'EUR' }, { caller: h.user });
      assert.equal(rate.fxRate!.fxRate, 11.4325);
    });

    // One mode per database keeps the suite quick: the CLI's behaviour does not depend on the database.
    it(db.name === 'pglite' ? 'runs as a CLI against a running service' : 'runs as a CLI against a database', async () => {
      const env = { PATH: process.env['PATH'], LOG_LEVEL: 'silent', NODE_ENV: 'test' };
      const target = db.name === 'pglite' ? { TAXONOMY_GRPC_ADDR: h.address, CALLER_SIGNING_KEY: privateKeyText(gatewayKeys.privateKey) } : { DATABASE_URL: h.databaseUrl };
      const { stdout } = await run(process.execPath, [CLI], { env: { ...env, ...target } });
      assert.match(stdout, /^Already loaded \(nothing changed\): example taxonomy 2024: 6 categories, 15 sub categories/);
      if (db.name === 'pglite') {
        await assert.rejects(run(process.execPath, [CLI], { env }), (err: { code?: number; stderr?: string }) => {
          assert.equal(err.code, 78); // EX_CONFIG: nothing to load into
          return true;
        });
      }
    });
  });
}
