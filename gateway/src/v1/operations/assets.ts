import { portfolioClient } from '../../clients.js';
import { defineOperation } from '../operation.js';
import { toVisibility } from './framework-params.js';
import {
  addAssetParams,
  addAssetRequest,
  assetIdentifierParams,
  getAssetFrameworkDetailsParams,
  getAssetsParams,
} from './portfolio-params.js';
import { assetFrameworkDetail, assetRow } from './portfolio-shapes.js';
import { call, messageOnly } from './taxonomy.js';
import { listed } from '../truncation.js';

/**
 * /v1/call operations of spec §4.8: assets tied to a framework, served by PortfolioService. Visibility
 * and ownership are the service's (`Not authorized.` for another account's public asset); the framework
 * an asset names is resolved by the service as the caller (own first, else public).
 */

const ESG = 'SVC.ESG.Credits';

export const assetOperations = [
  defineOperation({
    solution: ESG,
    operation: 'getAssets',
    params: getAssetsParams,
    async handler(p, ctx) {
      const req = {
        issuerVisibility: toVisibility(p.issuer_visibility),
        issuerIdentifier: p.issuer_identifier,
        frameworkIdentifier: p.framework_identifier,
      };
      const res = await portfolioClient(ctx.clients).getAssets(req, call(ctx));
      return listed(ctx, res, res.assets.map(assetRow));
    },
  }),
  defineOperation({
    // The spec answers "array of framework detail": an array holding the asset's one framework.
    solution: ESG,
    operation: 'getAssetFrameworkDetails',
    params: getAssetFrameworkDetailsParams,
    async handler(p, ctx) {
      const req = { assetIdentifier: p.asset_identifier, reportingYear: p.reporting_year, languageCode: p.language_code };
      return (await portfolioClient(ctx.clients).getAssetFrameworkDetails(req, call(ctx))).frameworks.map(assetFrameworkDetail);
    },
  }),
  defineOperation({
    solution: ESG,
    operation: 'addAsset',
    params: addAssetParams,
    async handler(p, ctx) {
      return messageOnly(await portfolioClient(ctx.clients).addAsset(addAssetRequest(p), call(ctx)));
    },
  }),
  defineOperation({
    solution: ESG,
    operation: 'removeAsset',
    params: assetIdentifierParams,
    async handler(p, ctx) {
      return messageOnly(await portfolioClient(ctx.clients).removeAsset({ assetIdentifier: p.asset_identifier }, call(ctx)));
    },
  }),
];
