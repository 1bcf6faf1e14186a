import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Visibility } from '@green-impact/proto/greenimpact/common/v1/common';
import type { Caller } from '@green-impact/shared/caller';
import { skipReason, testDatabases } from '@green-impact/testing/shared/databases';
import { rejectsWith, startTaxonomyHarness, type TaxonomyHarness } from '@green-impact/testing/taxonomy/harness';

/**
 * RecordFrameworkHolder and the rule it backs (issue 46): another account's asset referring to a framework
 * keeps the framework's currency; the caller's own references are not kept; `exclusive` drops an asset's
 * other references; a removed framework takes its references along. Real taxonomy service over gRPC.
 */

const HOLDER: Caller = { accountId: '44444444-4444-4444-8444-444444444444', role: 'user' };
const held = (identifier: string) =>
  `Framework "${identifier}" is held by other accounts' assets: its currency (EUR) stays as it is. Add a framework under a new identifier instead.`;

for (const db of testDatabases) {
  describe(`framework holders over gRPC on ${db.name}`, { skip: await skipReason(db) }, () => {
    let h: TaxonomyHarness;
    const publisher = () => ({ caller: h.user });
    const holder = { caller: HOLDER };

    before(async () => {
      h = await startTaxonomyHarness(db);
      for (const currencyCode of ['EUR', 'SEK']) await h.client.addCurrency({ currencyCode }, { caller: h.operator });
    });
    after(async () => {
      await h?.stop();
    });

    const addFramework = async (identifier: string, currency: string, caller = publisher()) =>
      (await h.client.addFramework({ frameworkIdentifier: identifier, frameworkName: `${identifier} name`, frameworkCurrencyCode: currency, frameworkVisibility: Visibility.VISIBILITY_PUBLIC }, caller)).id!;
    const record = (assetIdentifier: string, frameworkId: number, exclusive: boolean, caller = holder) =>
      h.client.recordFrameworkHolder({ assetIdentifier, frameworkId, exclusive }, caller);
    const currencyOf = async (identifier: string) =>
      (await h.client.getFrameworksByIdentifiers({ frameworkIdentifiers: [identifier], frameworkIds: [] }, publisher())).frameworks[0]!.frameworkCurrencyCode;

    it("another account's reference keeps the currency; recorded twice it is one; its exclusive restatement elsewhere frees it", async () => {
      const f = await addFramework('F1', 'EUR');
      const own = await addFramework('H1', 'EUR', holder);
      await record('SE1', f, false);
      await record('SE1', f, false);
      await record('SE2', f, false);
      await rejectsWith(addFramework('F1', 'SEK'), 'FAILED_PRECONDITION', held('F1'));
      // The name is the publisher's to correct.
      await h.client.addFramework({ frameworkIdentifier: 'F1', frameworkName: 'F1 renamed', frameworkCurrencyCode: 'EUR' }, publisher());

      await record('SE1', 0, true);
      await rejectsWith(addFramework('F1', 'SEK'), 'FAILED_PRECONDITION', held('F1'));
      await record('SE2', own, true);
      await addFramework('F1', 'SEK');
      assert.equal(await currencyOf('F1'), 'SEK');
    });

    it("the publisher's own references, and references to no framework, are not kept", async () => {
      const f = await addFramework('F2', 'EUR');
      await record('OWN', f, false, publisher());
      await record('GONE', 999_999, false);
      await addFramework('F2', 'SEK');
      assert.equal(await currencyOf('F2'), 'SEK');
    });

    it('a removed framework takes its references along: one added again under its identifier is free', async () => {
      const f = await addFramework('F3', 'EUR');
      await record('SE3', f, false);
      await h.client.removeFramework({ frameworkIdentifier: 'F3' }, publisher());
      await addFramework('F3', 'EUR');
      await addFramework('F3', 'SEK');
      assert.equal(await currencyOf('F3'), 'SEK');
    });

    it('refuses an asset identifier that is not one, and a negative framework id', async () => {
      await rejectsWith(record(' ', 1, false), 'INVALID_ARGUMENT', 'asset_identifier must be 1 to 255 characters on one line.');
      await rejectsWith(record('SE4', -1, false), 'INVALID_ARGUMENT', 'framework_id must be a framework id, or 0 for none.');
    });
  });
}
