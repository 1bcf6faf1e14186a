import { Visibility } from '@green-impact/proto/greenimpact/common/v1/common';
import { FailedPreconditionError, InvalidArgumentError, NotAuthorizedError, NotFoundError } from '@green-impact/shared/errors';
import { fakePage } from './fake-pages.js';
import { assetMsg, q, type FakeAsset } from './fake-portfolio-records.js';
import type { PortfolioServiceService } from '@green-impact/proto/greenimpact/portfolio/v1/portfolio';
import type { UnaryHandlers } from '@green-impact/shared/grpc/server';
import type { FakePortfolioStore } from './fake-portfolio-store.js';

/** The assets methods of the fake PortfolioService: an asset is its account's, or public. */
export function fakeAssetHandlers(store: FakePortfolioStore): Partial<UnaryHandlers<typeof PortfolioServiceService>> {
  const { taxonomy, db, newId, record, mine, visibleAssets, findAsset, readAsset, frameworkDetail } = store;
  return {
    async getAssets(req, ctx) {
      const c = record('getAssets', req, ctx);
      const list = visibleAssets(c).filter(
        (a) =>
          (req.issuerVisibility === undefined || a.visibility === req.issuerVisibility) &&
          (req.issuerIdentifier === undefined || a.issuerIdentifier === req.issuerIdentifier) &&
          (req.frameworkIdentifier === undefined || a.frameworkIdentifier === req.frameworkIdentifier),
      );
      if (req.pageSize === undefined) return { assets: list.map((a) => assetMsg(a, c)), nextPageToken: '' };
      const page = fakePage(list, req);
      return { assets: page.items.map((a) => assetMsg(a, c)), nextPageToken: page.nextPageToken, totalCount: page.totalCount };
    },
    async getAssetsByIdentifiers(req, ctx) {
      const c = record('getAssetsByIdentifiers', req, ctx);
      if (req.assetIdentifiers.length > 1000) throw new InvalidArgumentError('asset_identifiers may hold at most 1000 entries.');
      const found = [...new Set(req.assetIdentifiers)].flatMap((i) => findAsset(c, i) ?? []);
      return { assets: found.map((a) => assetMsg(a, c)) };
    },
    async getAssetFrameworkDetails(req, ctx) {
      const c = record('getAssetFrameworkDetails', req, ctx);
      const a = readAsset(c, req.assetIdentifier);
      if (a.value === undefined) {
        throw new FailedPreconditionError(`Asset ${q(a.identifier)} has no asset_value_outstanding; its share of the framework cannot be computed.`);
      }
      const detail = await frameworkDetail(c, a.frameworkIdentifier, req.reportingYear, req.languageCode);
      const s = detail.frameworkSummary!;
      if (s.frameworkValueOutstanding === undefined || s.frameworkAllocatedAmount === undefined) {
        throw new FailedPreconditionError(`Framework ${q(s.frameworkIdentifier)} has no year specifics for ${req.reportingYear}.`);
      }
      const d = s.valueOutstandingFramework ? s.frameworkValueOutstanding : Math.max(s.frameworkAllocatedAmount, s.frameworkValueOutstanding);
      const share = a.value / d;
      const { frameworkSummary: _s, framework } = detail;
      return {
        frameworks: [
          {
            ...s,
            assetIdentifier: a.identifier,
            assetName: a.name,
            currencyCode: a.currency,
            attributionShare: share,
            attributionDenominator: d,
            fxRate: 1,
            framework: framework.map(({ frameworkCurrencyCode: _c, ...r }) => ({
              ...r,
              subCategoryVolume: share * r.subCategoryVolume,
              indicatorValue: share * r.indicatorValue,
              currencyCode: a.currency,
            })),
          },
        ],
      };
    },
    async addAsset(req, ctx) {
      const c = record('addAsset', req, ctx);
      if (req.dateIssued && req.dateMaturity && req.dateMaturity < req.dateIssued) {
        throw new InvalidArgumentError('date_maturity must not be before date_issued.');
      }
      const { frameworks } = await taxonomy.getFrameworksByIdentifiers({ frameworkIdentifiers: [req.frameworkIdentifier], frameworkIds: [], refuseAmbiguous: true }, { caller: c });
      const framework = frameworks[0];
      if (!framework) throw new NotFoundError(`No such framework ${q(req.frameworkIdentifier)}.`);
      const existing = mine(db.assets, c).find((a) => a.identifier === req.assetIdentifier);
      const known = mine(db.assets, c).find((a) => a.issuerIdentifier === req.issuerIdentifier);
      const fields = {
        name: req.assetName,
        currency: req.assetCurrencyCode,
        issuerIdentifier: req.issuerIdentifier,
        frameworkIdentifier: framework.frameworkIdentifier,
        frameworkName: framework.frameworkName,
        frameworkId: framework.frameworkId,
      };
      if (existing) {
        Object.assign(existing, fields, {
          value: req.assetValueOutstanding ?? existing.value,
          issued: req.dateIssued ?? existing.issued,
          maturity: req.dateMaturity ?? existing.maturity,
          visibility: req.assetVisibility ?? existing.visibility,
          issuerName: req.issuerName ?? existing.issuerName,
        });
        return { message: 'Asset updated.', id: existing.id };
      }
      const a: FakeAsset = {
        id: newId(),
        account: c.accountId,
        identifier: req.assetIdentifier,
        ...fields,
        value: req.assetValueOutstanding,
        issued: req.dateIssued,
        maturity: req.dateMaturity,
        visibility: req.assetVisibility ?? Visibility.VISIBILITY_PRIVATE,
        issuerName: req.issuerName ?? known?.issuerName ?? req.issuerIdentifier,
      };
      db.assets.push(a);
      return { message: `Asset added with id ${a.id}.`, id: a.id };
    },
    async removeAsset(req, ctx) {
      const c = record('removeAsset', req, ctx);
      const a = readAsset(c, req.assetIdentifier);
      if (a.account !== c.accountId) throw new NotAuthorizedError();
      const held = db.positions.filter((p) => p.asset === a);
      if (held.length) throw new FailedPreconditionError(`Asset ${q(a.identifier)} is still held by positions ${held.map((p) => p.id).join(', ')}; remove them first.`);
      db.assets = db.assets.filter((x) => x !== a);
      return { message: 'Asset removed.', id: a.id };
    },
  };
}
