import * as v from '../validation.js';
import type { Asset, PortfolioServiceService } from '@green-impact/proto/greenimpact/portfolio/v1/portfolio';
import { requireAccount } from '../caller.js';
import type { UnaryHandlers } from '@green-impact/shared/grpc/server';
import { MSG } from '../messages.js';
import type { PortfolioStores } from '../stores.js';
import { visibilityEnum, visibilityName } from '../visibility.js';
import type { AssetView } from './asset-store.js';

type Handlers = UnaryHandlers<typeof PortfolioServiceService>;

/** §4.8 assets. Thin: translate messages to store calls and back. */
export function assetHandlers(s: PortfolioStores): Pick<Handlers, 'getAssets' | 'getAssetFrameworkDetails' | 'addAsset' | 'removeAsset' | 'getAssetsByIdentifiers'> {
  return {
    async getAssets(req, ctx) {
      const caller = requireAccount(ctx.caller);
      const filter = {
        visibility: visibilityName(req.issuerVisibility, 'issuer_visibility'),
        issuerIdentifier: v.optionalText('issuer_identifier', req.issuerIdentifier),
        frameworkIdentifier: v.optionalText('framework_identifier', req.frameworkIdentifier),
      };
      // No page asked for: the whole list up to MAX_LIST_ITEMS (/v1/call's getAssets); total_count says it was cut.
      if (req.pageSize === undefined) {
        const { assets, totalCount } = await s.assets.list(caller, filter);
        return { assets: assets.map(assetMsg), nextPageToken: '', hasPreviousPage: false, itemPageTokens: [], ...(totalCount !== undefined ? { totalCount } : {}) };
      }
      const page = await s.assets.page(caller, filter, { size: req.pageSize, token: req.pageToken, before: req.pageBefore, order: req.pageOrder });
      return {
        assets: page.assets.map(assetMsg),
        nextPageToken: page.nextPageToken,
        totalCount: page.totalCount,
        hasPreviousPage: page.hasPreviousPage,
        itemPageTokens: page.itemPageTokens,
      };
    },
    async getAssetFrameworkDetails(req, ctx) {
      const detail = await s.assetDetails.read(requireAccount(ctx.caller), req.assetIdentifier, req.reportingYear, req.languageCode);
      return { frameworks: [detail] };
    },
    async addAsset(req, ctx) {
      const r = await s.assets.add(requireAccount(ctx.caller), {
        assetIdentifier: req.assetIdentifier,
        assetName: req.assetName,
        issuerIdentifier: req.issuerIdentifier,
        frameworkIdentifier: req.frameworkIdentifier,
        valueOutstanding: req.assetValueOutstanding,
        currencyCode: req.assetCurrencyCode,
        dateIssued: req.dateIssued,
        dateMaturity: req.dateMaturity,
        visibility: visibilityName(req.assetVisibility, 'asset_visibility'),
        issuerName: req.issuerName,
      });
      return { message: r.created ? MSG.assetAdded(r.id) : MSG.assetUpdated, id: r.id };
    },
    async removeAsset(req, ctx) {
      const id = await s.assets.remove(requireAccount(ctx.caller), req.assetIdentifier);
      return { message: MSG.assetRemoved, id };
    },
    async getAssetsByIdentifiers(req, ctx) {
      const assets = await s.assets.byIdentifiers(requireAccount(ctx.caller), req.assetIdentifiers);
      return { assets: assets.map(assetMsg) };
    },
  };
}

export function assetMsg(a: AssetView): Asset {
  return {
    assetId: a.id,
    assetIdentifier: a.assetIdentifier,
    assetName: a.assetName,
    ...(a.valueOutstanding !== null ? { assetValueOutstanding: a.valueOutstanding } : {}),
    assetCurrencyCode: a.currencyCode,
    ...(a.dateIssued ? { assetDateIssued: a.dateIssued } : {}),
    ...(a.dateMaturity ? { assetDateMaturity: a.dateMaturity } : {}),
    issuerIdentifier: a.issuerIdentifier,
    issuerName: a.issuerName,
    frameworkIdentifier: a.frameworkIdentifier,
    frameworkName: a.frameworkName,
    assetVisibility: visibilityEnum(a.visibility),
    frameworkId: a.frameworkId,
    owned: a.owned,
  };
}
