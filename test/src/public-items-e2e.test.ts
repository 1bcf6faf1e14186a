import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { RunningSystem } from '@green-impact/embedded/system';
import { skipReason, testDatabases } from '@green-impact/testing/shared/databases';
import { ESG, idOf, seedReferenceData, YEAR, type V1 } from './support/dataset.js';
import { createUserAccount, ok, refused, startTestSystem, v1Client } from './support/system.js';

/**
 * Public items under abuse, on /v1/call (docs/decisions.md, "Public identifiers"): a stranger's public
 * item never silently takes the place of what the caller meant (squatting), an account publishes a
 * bounded number of items, and unpaged lists are cut at MAX_LIST_ITEMS with the caller's own items kept
 * and the cut said in headers. Small limits (2 public items, lists of 4) make each bound reachable.
 */
const OPERATOR = 'public-items-operator-key';
const LIMITS = { maxListItems: 4, maxPublicItemsPerAccount: 2 };
const ISIN = 'XS0000000042';

/** A /v1/call answer with its headers (v1Client keeps only status and body). */
async function withHeaders(baseUrl: string, apiKey: string, operation: string, parameters: Record<string, unknown>) {
  const res = await fetch(`${baseUrl}/v1/call`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-api-key': apiKey },
    body: JSON.stringify({ solution: ESG, operation, parameters }),
  });
  return { status: res.status, body: (await res.json()) as any, truncated: res.headers.get('x-result-truncated'), total: res.headers.get('x-total-count') };
}

for (const db of testDatabases) {
  describe(`public items under abuse on ${db.name}`, { skip: await skipReason(db) }, () => {
    let system: RunningSystem;
    let keys: Record<'squatter' | 'issuer' | 'investor', string>;
    let c: Record<keyof typeof keys, V1>;

    const framework = (client: V1, identifier: string, visibility: 'public' | 'private') =>
      client(ESG, 'addFramework', { framework_identifier: identifier, framework_name: `${identifier} name`, framework_currency_code: 'EUR', framework_visibility: visibility });
    const asset = (client: V1, identifier: string, issuer: string, frameworkIdentifier: string, visibility: 'public' | 'private') =>
      client(ESG, 'addAsset', {
        asset_identifier: identifier,
        asset_name: `${identifier} by ${issuer}`,
        issuer_identifier: issuer,
        framework_identifier: frameworkIdentifier,
        asset_currency_code: 'EUR',
        asset_visibility: visibility,
      });

    before(async () => {
      system = await startTestSystem(db, OPERATOR, { listingLimits: LIMITS });
      await seedReferenceData(v1Client(system.gatewayUrl, OPERATOR));
      keys = {
        squatter: await createUserAccount(system.gatewayUrl, OPERATOR, 'squatter'),
        issuer: await createUserAccount(system.gatewayUrl, OPERATOR, 'issuer'),
        investor: await createUserAccount(system.gatewayUrl, OPERATOR, 'investor'),
      };
      c = { squatter: v1Client(system.gatewayUrl, keys.squatter), issuer: v1Client(system.gatewayUrl, keys.issuer), investor: v1Client(system.gatewayUrl, keys.investor) };
      await ok(framework(c.squatter, 'FW-SQUAT', 'public'), 'squatter framework');
      await ok(framework(c.issuer, 'FW-ISSUER', 'public'), 'issuer framework');
      await ok(c.investor(ESG, 'addInvestor', { investor_identifier: 'INV-1', investor_name: 'Investor one', investor_currency_code: 'EUR' }), 'addInvestor');
    });
    after(async () => {
      await system?.stop();
    });

    it("an ISIN published by two accounts is not attached to the first one's asset: the position is refused until the caller says which", async () => {
      // The squatter registers the issuer's upcoming ISIN first; while it is the only publisher, it is what the ISIN means.
      await ok(asset(c.squatter, ISIN, 'SQUATTER', 'FW-SQUAT', 'public'), 'squatter asset');
      const early = await ok(c.investor(ESG, 'addPosition', { investor_identifier: 'INV-1', asset_identifier: ISIN, position_amount: 1_000, position_currency_code: 'EUR' }), 'early position');
      // The real issuer publishes the ISIN later: from now on nobody's reference silently picks either.
      await ok(asset(c.issuer, ISIN, 'REAL-ISSUER', 'FW-ISSUER', 'public'), 'issuer asset');
      const ambiguous = /^Several accounts publish asset "XS0000000042", so it is not clear which one you mean; add your own asset "XS0000000042" to use it\.$/;
      await refused(
        c.investor(ESG, 'addPosition', { investor_identifier: 'INV-1', asset_identifier: ISIN, position_amount: 2_000, position_currency_code: 'EUR' }),
        400,
        'FAILED_PRECONDITION',
        ambiguous,
      );
      await refused(c.investor(ESG, 'getAssetFrameworkDetails', { asset_identifier: ISIN, reporting_year: YEAR }), 400, 'FAILED_PRECONDITION', ambiguous);
      // Only the position made before the issuer published exists, and it stays on the asset it was made on.
      const positions = await ok(c.investor(ESG, 'getPositions', { investor_identifier: 'INV-1' }), 'getPositions');
      assert.deepEqual(positions.map((p: any) => [p.position_id, p.asset_identifier, p.issuer_identifier]), [[idOf(early.message), ISIN, 'SQUATTER']]);
      // Both publishers are listed with their issuers, so the caller can see what it chooses between.
      const listed = await ok(c.investor(ESG, 'getAssets', { issuer_visibility: 'public' }), 'getAssets');
      assert.deepEqual(listed.filter((a: any) => a.asset_identifier === ISIN).map((a: any) => a.issuer_identifier).sort(), ['REAL-ISSUER', 'SQUATTER']);
      // The caller's own asset of that identifier always wins.
      await ok(asset(c.investor, ISIN, 'REAL-ISSUER', 'FW-ISSUER', 'private'), 'own copy');
      const own = await ok(c.investor(ESG, 'addPosition', { investor_identifier: 'INV-1', asset_identifier: ISIN, position_amount: 3_000, position_currency_code: 'EUR' }), 'own position');
      assert.ok(idOf(own.message) > idOf(early.message));
    });

    it('a framework identifier published by two accounts is refused as ambiguous wherever it is referenced', async () => {
      await ok(framework(c.squatter, 'FW-SHARED', 'public'), 'squatter FW-SHARED');
      await ok(c.investor(ESG, 'addAsset', { asset_identifier: 'AS-ONE', asset_name: 'one', issuer_identifier: 'I', framework_identifier: 'FW-SHARED', asset_currency_code: 'EUR' }), 'one publisher');
      // The squatter's second public framework is its last (2 per account in this test).
      await ok(framework(c.issuer, 'FW-SHARED', 'public'), 'issuer FW-SHARED');
      const ambiguous = /^Several accounts publish framework "FW-SHARED", so it is not clear which one you mean; add your own framework "FW-SHARED" to use it\.$/;
      await refused(c.investor(ESG, 'getFrameworkDetails', { framework_identifier: 'FW-SHARED', reporting_year: YEAR }), 400, 'FAILED_PRECONDITION', ambiguous);
      await refused(
        c.investor(ESG, 'addAsset', { asset_identifier: 'AS-TWO', asset_name: 'two', issuer_identifier: 'I', framework_identifier: 'FW-SHARED', asset_currency_code: 'EUR' }),
        400,
        'FAILED_PRECONDITION',
        ambiguous,
      );
      await refused(
        c.investor(ESG, 'addProject', { project_identifier: 'PR-TWO', project_name: 'two', project_currency_code: 'EUR', framework_identifier: 'FW-SHARED' }),
        400,
        'FAILED_PRECONDITION',
        ambiguous,
      );
      // Changing another account's public framework is still `Not authorized.`, ambiguous or not.
      await refused(c.investor(ESG, 'removeFramework', { framework_identifier: 'FW-SHARED' }), 403, 'PERMISSION_DENIED', 'Not authorized.');
      // Each publisher still means its own.
      const details = await ok(c.issuer(ESG, 'getFrameworkDetails', { framework_identifier: 'FW-SHARED', reporting_year: YEAR }), 'issuer reads its own');
      assert.equal(details.length, 1);
    });

    it('an account publishes at most MAX_PUBLIC_ITEMS_PER_ACCOUNT assets and frameworks; private ones are not limited', async () => {
      // The squatter holds 2 public frameworks (FW-SQUAT, FW-SHARED) and 1 public asset.
      const fwLimit = 'This account already publishes 2 frameworks, the most one account may; make one private or remove one before publishing another.';
      await refused(framework(c.squatter, 'FW-THIRD', 'public'), 400, 'FAILED_PRECONDITION', fwLimit);
      await ok(framework(c.squatter, 'FW-THIRD', 'private'), 'a private framework is not limited');
      await refused(framework(c.squatter, 'FW-THIRD', 'public'), 400, 'FAILED_PRECONDITION', fwLimit);
      // Updating an item that is public already is no new publication.
      await ok(framework(c.squatter, 'FW-SQUAT', 'public'), 'update of a public framework');
      await ok(framework(c.squatter, 'FW-SQUAT', 'private'), 'unpublish one');
      await ok(framework(c.squatter, 'FW-THIRD', 'public'), 'then another may be published');

      const assetLimit = 'This account already publishes 2 assets, the most one account may; make one private or remove one before publishing another.';
      await ok(asset(c.squatter, 'XS-FLOOD-1', 'SQUATTER', 'FW-THIRD', 'public'), 'second public asset');
      await refused(asset(c.squatter, 'XS-FLOOD-2', 'SQUATTER', 'FW-THIRD', 'public'), 400, 'FAILED_PRECONDITION', assetLimit);
      await ok(asset(c.squatter, 'XS-FLOOD-2', 'SQUATTER', 'FW-THIRD', 'private'), 'private asset');
      await refused(asset(c.squatter, 'XS-FLOOD-2', 'SQUATTER', 'FW-THIRD', 'public'), 400, 'FAILED_PRECONDITION', assetLimit);
      const mine = await ok(c.squatter(ESG, 'getAssets', {}), 'squatter assets');
      assert.equal(mine.filter((a: any) => a.asset_visibility === 'public' && a.issuer_identifier === 'SQUATTER').length, 2);
    });

    // Over HTTP the requests may well run one after another; public-items-lock.test.ts shows the overlap.
    it('six concurrent publications of one account end with exactly the limit published', async () => {
      const key = await createUserAccount(system.gatewayUrl, OPERATOR, 'racer');
      const racer = v1Client(system.gatewayUrl, key);
      const answers = await Promise.all(Array.from({ length: 6 }, (_, i) => framework(racer, `FW-RACE-${i}`, 'public')));
      assert.deepEqual(answers.map((a) => a.status).sort(), [200, 200, 400, 400, 400, 400], JSON.stringify(answers.map((a) => a.body)));
      const published = (await ok(racer(ESG, 'getFrameworks', { reporting_year: YEAR, framework_visibility: 'public' }), 'getFrameworks')).filter((f: any) =>
        f.framework_identifier.startsWith('FW-RACE-'),
      );
      assert.equal(published.length, 2);
      // Clean up: the racer's public frameworks would otherwise count in the listings below.
      for (const f of published) await ok(racer(ESG, 'removeFramework', { framework_identifier: f.framework_identifier }), 'removeFramework');
    });

    it("unpaged lists answer at most MAX_LIST_ITEMS, the caller's own first, and say so in X-Result-Truncated and X-Total-Count", async () => {
      // Visible to the investor: 2 own assets (the private ISIN copy and AS-ONE) + 3 public ones of others.
      const all = await withHeaders(system.gatewayUrl, keys.investor, 'getAssets', {});
      assert.equal(all.status, 200);
      assert.equal(all.body.length, 4);
      assert.deepEqual([all.truncated, all.total], ['true', '5']);
      const ownIds = (await ok(c.investor(ESG, 'getAssets', { issuer_visibility: 'private' }), 'own')).map((a: any) => a.asset_id);
      for (const id of ownIds) assert.ok(all.body.some((a: any) => a.asset_id === id), `own asset ${id} is kept`);
      const ids = all.body.map((a: any) => a.asset_id);
      assert.deepEqual(ids, [...ids].sort((x: number, y: number) => x - y), 'the answer keeps asset_id order');
      // A list within the cap is whole and unmarked.
      const own = await withHeaders(system.gatewayUrl, keys.investor, 'getAssets', { issuer_visibility: 'private' });
      assert.deepEqual([own.body.length, own.truncated, own.total], [2, null, null]);

      // Frameworks: the investor has none of its own; after adding one it is kept whatever others publish.
      await ok(framework(c.investor, 'FW-MINE', 'private'), 'own framework');
      const frameworks = await withHeaders(system.gatewayUrl, keys.investor, 'getFrameworks', { reporting_year: YEAR });
      assert.equal(frameworks.body.length, 4);
      assert.equal(frameworks.truncated, 'true');
      assert.equal(frameworks.total, '5');
      assert.ok(frameworks.body.some((f: any) => f.framework_identifier === 'FW-MINE'), 'own framework kept');
    });

    it("lists of the caller's own data are cut at MAX_LIST_ITEMS as well, with the same headers", async () => {
      const list = (operation: string, parameters: Record<string, unknown>) => withHeaders(system.gatewayUrl, keys.investor, operation, parameters);
      for (let i = 2; i <= 5; i++) {
        await ok(c.investor(ESG, 'addInvestor', { investor_identifier: `INV-${i}`, investor_name: `Investor ${i}`, investor_currency_code: 'EUR' }), 'addInvestor');
      }
      // INV-1 holds 2 positions already (the early one and the one on the investor's own copy).
      const positionIds: number[] = (await ok(c.investor(ESG, 'getPositions', { investor_identifier: 'INV-1' }), 'positions')).map((p: any) => p.position_id);
      for (let i = 0; i < 3; i++) {
        const added = await ok(c.investor(ESG, 'addPosition', { investor_identifier: 'INV-1', asset_identifier: ISIN, position_amount: 100 + i, position_currency_code: 'EUR' }), 'addPosition');
        positionIds.push(idOf(added.message));
      }
      for (let i = 1; i <= 5; i++) await ok(c.investor(ESG, 'addPortfolio', { investor_identifier: 'INV-1', portfolio_identifier: `PF-${i}` }), 'addPortfolio');
      for (const id of positionIds) await ok(c.investor(ESG, 'addPositionToPortfolio', { investor_identifier: 'INV-1', portfolio_identifier: 'PF-1', position_id: id }), 'member');
      for (let i = 1; i <= 5; i++) {
        await ok(c.investor(ESG, 'addUser', { user_identifier: `U-${i}`, user_first_name: `User ${i}` }), 'addUser');
        await ok(c.investor(ESG, 'addInvestorToUser', { user_identifier: `U-${i}`, investor_identifier: 'INV-1' }), 'addInvestorToUser');
      }

      const cut = async (operation: string, parameters: Record<string, unknown>) => {
        const res = await list(operation, parameters);
        assert.equal(res.status, 200, JSON.stringify(res.body));
        return [res.body.length, res.truncated, res.total];
      };
      assert.deepEqual(await cut('getInvestors', {}), [4, 'true', '5']);
      assert.deepEqual(await cut('getPositions', { investor_identifier: 'INV-1' }), [4, 'true', '5']);
      assert.deepEqual(await cut('getPortfolios', { investor_identifier: 'INV-1' }), [4, 'true', '5']);
      assert.deepEqual(await cut('getPortfolioPositions', { portfolio_identifier: 'PF-1' }), [4, 'true', '5']);
      assert.deepEqual(await cut('getUsers', {}), [4, 'true', '5']);
      assert.deepEqual(await cut('getInvestorsOfUser', {}), [4, 'true', '5']);
      assert.deepEqual(await cut('getPositions', { investor_identifier: 'INV-2' }), [0, null, null]);
      // A user's investors are not cut: the user_identifier filter of getPositions is made of them.
      assert.deepEqual(await cut('getPositions', { investor_identifier: 'INV-1', user_identifier: 'U-5' }), [4, 'true', '5']);
    });
  });
}
