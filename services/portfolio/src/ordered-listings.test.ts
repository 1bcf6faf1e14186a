import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Visibility } from '@green-impact/proto/greenimpact/common/v1/common';
import { generateEncryptionKey } from '@green-impact/shared/pii';
import { skipReason, testDatabases } from '@green-impact/testing/shared/databases';
import { FRAMEWORK, loadFixture } from '@green-impact/testing/portfolio/fixture';
import { rejectsWith, startPortfolioHarness, type PortfolioHarness } from '@green-impact/testing/portfolio/harness';

const token = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
/** The gateway's page_before for a last page without before (pagination.ts END_OF_LIST). */
const END = token([Number.MAX_SAFE_INTEGER, '999999999999999']);

/** One page of a listing as the checks read it: its items named by label, and its page fields. */
interface LabelledPage {
  labels: string[];
  nextPageToken: string;
  itemPageTokens: string[];
  hasPreviousPage: boolean;
}
type Read = (field: string, descending: boolean, size: number, between?: { pageToken?: string; pageBefore?: string }) => Promise<LabelledPage>;

/**
 * Each order of a listing both ways, a page at a time, backward from the end and from an item's token (as
 * asset-pages.test.ts checks the assets'): `expected` gives each field's ascending order of four items,
 * ties broken by id; descending is its exact reverse.
 */
async function checkOrders(read: Read, expected: Record<string, string[]>): Promise<void> {
  const walk = async (field: string, descending: boolean) => {
    const seen: string[] = [];
    let pageToken: string | undefined;
    do {
      const res = await read(field, descending, 1, pageToken ? { pageToken } : {});
      seen.push(...res.labels);
      if (res.nextPageToken) assert.equal(res.itemPageTokens.at(-1), res.nextPageToken, "next_page_token is the last item's token");
      pageToken = res.nextPageToken;
    } while (pageToken);
    return seen;
  };
  for (const [field, up] of Object.entries(expected)) {
    const down = [...up].reverse();
    assert.deepEqual((await read(field, false, 100)).labels, up, `${field} ascending`);
    assert.deepEqual(await walk(field, false), up, `${field} ascending, a page at a time`);
    assert.deepEqual(await walk(field, true), down, `${field} descending, a page at a time`);
    const last = await read(field, true, 3, { pageBefore: END });
    assert.deepEqual([last.labels, last.hasPreviousPage], [down.slice(1), true], `${field} descending, last 3`);
    const before = await read(field, true, 5, { pageBefore: last.itemPageTokens[0]! });
    assert.deepEqual([before.labels, before.hasPreviousPage], [down.slice(0, 1), false], `${field} descending, before the last 3`);
    const resumed = await read(field, true, 5, { pageToken: last.itemPageTokens[1]! });
    assert.deepEqual(resumed.labels, down.slice(3), `${field} descending, forward from a backward page's token`);
  }
}

/** A token given in one order resumes only that order, forward or backward; a field the listing does not offer is refused. */
async function checkRefusals(read: Read, field: string, other: string, unknown: string, offered: string): Promise<void> {
  const first = await read(field, false, 1);
  const foreign = 'page_token must be a next_page_token of this listing in the same order.';
  await rejectsWith(read(other, false, 1, { pageToken: first.nextPageToken }), 'INVALID_ARGUMENT', foreign);
  await rejectsWith(read(field, true, 1, { pageToken: first.nextPageToken }), 'INVALID_ARGUMENT', foreign);
  await rejectsWith(read('id', false, 1, { pageBefore: first.nextPageToken }), 'INVALID_ARGUMENT', 'page_before must be a next_page_token of this listing in the same order.');
  await rejectsWith(read(unknown, false, 1), 'INVALID_ARGUMENT', `page_order.field must be one of ${offered}, got ${JSON.stringify(unknown)}.`);
}

/**
 * GetInvestors, GetPositions and GetPortfolios with page_order (GraphQL orderBy): four items of each in the
 * caller's account (another account's around them), ordered by every field offered, both ways, forward and
 * backward. Only columns stored in clear are offered: a sealed name orders nothing.
 */
for (const db of testDatabases) {
  describe(`investors, positions and portfolios ordered by the service on ${db.name}`, { skip: await skipReason(db) }, () => {
    let h: PortfolioHarness;
    const key = generateEncryptionKey();
    const positions = new Map<number, string>();
    const listing = { investorIdentifier: '', investorIdentifiersAllowed: [], investorFilterActive: false };

    before(async () => {
      h = await startPortfolioHarness(db);
      await loadFixture(h.taxonomy, h.issuer);
      for (const assetIdentifier of ['PUB-B', 'PUB-A']) {
        await h.portfolio.addAsset(
          { assetIdentifier, assetName: `${assetIdentifier} bond`, issuerIdentifier: 'ISSUER-A', frameworkIdentifier: FRAMEWORK, assetCurrencyCode: 'SEK', assetVisibility: Visibility.VISIBILITY_PUBLIC },
          { caller: h.issuer },
        );
      }
      // In order of creation c, a, b, d; inv-a's PII sealed; inv-c added again last (its updated_at the latest).
      for (const [investorIdentifier, investorCurrencyCode] of [['inv-c', 'EUR'], ['inv-a', 'SEK'], ['inv-b', 'EUR'], ['inv-d', 'USD'], ['inv-c', 'EUR']] as const) {
        await h.portfolio.addInvestor(
          { investorIdentifier, investorName: `Fund ${investorIdentifier}`, investorCurrencyCode, ...(investorIdentifier === 'inv-a' ? { encryptionKey: key } : {}) },
          { caller: h.investor },
        );
        await h.portfolio.addInvestor({ investorIdentifier: `x-${investorIdentifier}`, investorName: 'Stranger', investorCurrencyCode: 'AUD' }, { caller: h.stranger });
      }
      const held = [
        { label: 'p1', investorIdentifier: 'inv-c', assetIdentifier: 'PUB-B', positionAmount: 300, positionCurrencyCode: 'EUR', positionDays: 365 },
        { label: 'p2', investorIdentifier: 'inv-a', assetIdentifier: 'PUB-A', positionAmount: 100.5, positionCurrencyCode: 'SEK', positionDays: 90, positionStartDate: '2025-03-01' },
        { label: 'p3', investorIdentifier: 'inv-b', assetIdentifier: 'PUB-B', positionAmount: 300, positionCurrencyCode: 'USD', positionDays: 180, positionStartDate: '2024-01-01' },
        { label: 'p4', investorIdentifier: 'inv-a', assetIdentifier: 'PUB-B', positionAmount: 7, positionCurrencyCode: 'EUR', positionDays: 90 },
      ];
      for (const { label, ...position } of held) {
        positions.set((await h.portfolio.addPosition(position, { caller: h.investor })).id!, label);
        await h.portfolio.addPosition({ ...position, investorIdentifier: 'x-inv-a', positionAmount: 50 }, { caller: h.stranger });
      }
      for (const [investorIdentifier, portfolioIdentifier] of [['inv-b', 'pf-m'], ['inv-a', 'pf-z'], ['inv-c', 'pf-a'], ['inv-a', 'pf-k']] as const) {
        await h.portfolio.addPortfolio({ investorIdentifier, portfolioIdentifier }, { caller: h.investor });
        await h.portfolio.addPortfolio({ investorIdentifier: 'x-inv-a', portfolioIdentifier: `x-${portfolioIdentifier}` }, { caller: h.stranger });
      }
    });
    after(async () => {
      await h?.stop();
    });

    const readInvestors: Read = async (field, descending, size, between = {}) => {
      const res = await h.portfolio.getInvestors({ pageSize: size, pageOrder: { field, descending }, decryptionKey: key, ...between }, { caller: h.investor });
      const sealed = res.investors.find((i) => i.investorIdentifier === 'inv-a');
      if (sealed) assert.deepEqual([sealed.investorName, sealed.masked], ['Fund inv-a', false], 'an ordered page opens the sealed PII with the key');
      return { ...res, labels: res.investors.map((i) => i.investorIdentifier) };
    };
    const readPositions: Read = async (field, descending, size, between = {}) => {
      const res = await h.portfolio.getPositions({ ...listing, pageSize: size, pageOrder: { field, descending }, ...between }, { caller: h.investor });
      return { ...res, labels: res.positions.map((p) => positions.get(p.positionId)!) };
    };
    const readPortfolios: Read = async (field, descending, size, between = {}) => {
      const res = await h.portfolio.getPortfolios({ ...listing, pageSize: size, pageOrder: { field, descending }, ...between }, { caller: h.investor });
      return { ...res, labels: res.portfolios.map((p) => p.portfolioIdentifier) };
    };

    it('investors: by identifier, currency and dates, then id, both ways; never by the (sealed) name', async () => {
      await checkOrders(readInvestors, {
        id: ['inv-c', 'inv-a', 'inv-b', 'inv-d'],
        identifier: ['inv-a', 'inv-b', 'inv-c', 'inv-d'],
        currency_code: ['inv-c', 'inv-b', 'inv-a', 'inv-d'],
        created_at: ['inv-c', 'inv-a', 'inv-b', 'inv-d'],
        updated_at: ['inv-a', 'inv-b', 'inv-d', 'inv-c'],
      });
      await checkRefusals(readInvestors, 'currency_code', 'identifier', 'name', 'id, identifier, currency_code, created_at, updated_at');
    });

    it('positions: by amount, currency, days, start date (missing ones where PostgreSQL puts NULLs), investor and asset, then id', async () => {
      await checkOrders(readPositions, {
        id: ['p1', 'p2', 'p3', 'p4'],
        amount: ['p4', 'p2', 'p1', 'p3'],
        currency_code: ['p1', 'p4', 'p2', 'p3'],
        days: ['p2', 'p4', 'p3', 'p1'],
        start_date: ['p3', 'p2', 'p1', 'p4'],
        investor_identifier: ['p2', 'p4', 'p3', 'p1'],
        asset_identifier: ['p2', 'p1', 'p3', 'p4'],
      });
      await checkRefusals(readPositions, 'amount', 'days', 'investor_name', 'id, amount, currency_code, days, start_date, investor_identifier, asset_identifier');
      // The listing's filters hold in an order too.
      const filtered = await h.portfolio.getPositions({ ...listing, assetIdentifier: 'PUB-B', pageSize: 10, pageOrder: { field: 'amount', descending: true } }, { caller: h.investor });
      assert.deepEqual([filtered.positions.map((p) => positions.get(p.positionId)), filtered.totalCount], [['p3', 'p1', 'p4'], 3]);
    });

    it('portfolios: by identifier, investor and creation, then id, both ways', async () => {
      await checkOrders(readPortfolios, {
        id: ['pf-m', 'pf-z', 'pf-a', 'pf-k'],
        identifier: ['pf-a', 'pf-k', 'pf-m', 'pf-z'],
        investor_identifier: ['pf-z', 'pf-k', 'pf-m', 'pf-a'],
        created_at: ['pf-m', 'pf-z', 'pf-a', 'pf-k'],
      });
      await checkRefusals(readPortfolios, 'identifier', 'created_at', 'investor_name', 'id, identifier, investor_identifier, created_at');
    });
  });
}
