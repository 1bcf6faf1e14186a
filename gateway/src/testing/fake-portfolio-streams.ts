import type { ImpactRecord, PortfolioServiceService } from '@green-impact/proto/greenimpact/portfolio/v1/portfolio';
import type { StreamHandlers } from '@green-impact/shared/grpc/server';
import { fakePageOf, fakePageRequest } from './fake-pages.js';
import type { FakePortfolioStore } from './fake-portfolio-store.js';

const KEY = /^[1-9][0-9]*\.[0-9]+\.[0-9]+$/;
const keyOf = (r: ImpactRecord) => `${r.positionId}.${r.subCategoryId}.${r.indicatorId}`;
const order = (a: ImpactRecord, b: ImpactRecord) => a.positionId - b.positionId || a.subCategoryId - b.subCategoryId || a.indicatorId - b.indicatorId;
const after = (r: ImpactRecord, key: string) => {
  const [p, s, i] = key.split('.').map(Number) as [number, number, number];
  return r.positionId - p || r.subCategoryId - s || r.indicatorId - i;
};

/**
 * StreamImpactRecords of the fake PortfolioService: the stored records of the investor's or the
 * portfolio's positions for the year, in the real service's order, `page_size` per message (0: 1000), up
 * to `limit` (0: all), the count on the first message when `limit` is given.
 */
export function fakeImpactStreams(store: FakePortfolioStore): Partial<StreamHandlers<typeof PortfolioServiceService>> {
  const { db, record, mine, readInvestor, readPortfolio } = store;
  return {
    async *streamImpactRecords(req, ctx) {
      const c = record('streamImpactRecords', req, ctx);
      const held = req.portfolioIdentifier
        ? readPortfolio(c, req.portfolioIdentifier).positionIds.map((id) => db.positions.find((p) => p.id === id)!)
        : mine(db.positions, c).filter((p) => p.investor === readInvestor(c, req.investorIdentifier));
      const all = held.flatMap((p) => p.impacts.get(req.reportingYear) ?? []).sort(order);
      const size = req.pageSize || 1_000;
      let token = req.pageToken;
      let sent = 0;
      for (;;) {
        const want = req.limit > 0 ? Math.min(size, req.limit - sent) : size;
        const { after: from } = fakePageRequest({ pageSize: Math.min(want, 1_000), pageToken: token }, KEY);
        const page = fakePageOf(from ? all.filter((r) => after(r, from.id) > 0) : all, want, from, keyOf, all.length);
        sent += page.items.length;
        yield { impacts: page.items, nextPageToken: page.nextPageToken, ...(sent === page.items.length && req.limit > 0 ? { totalCount: all.length } : {}) };
        if (!page.nextPageToken || (req.limit > 0 && sent >= req.limit)) return;
        token = page.nextPageToken;
      }
    },
  };
}
