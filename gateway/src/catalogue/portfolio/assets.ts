import { servicePageOf } from '../../graphql/pagination.js';
import type { Asset } from '@green-impact/proto/greenimpact/portfolio/v1/portfolio';
import { portfolioClient } from '../../clients.js';
import { callAs, type GraphqlContext } from '../../graphql/context.js';
import { changePayload, removalPayload } from '../../graphql/payloads.js';
import { portfolioReads } from '../../graphql/portfolio-reads.js';
import { listed } from '../../v1/truncation.js';
import { number, text } from '../fields.js';
import { withLabels } from '../graphql.js';
import { declare } from '../operation.js';
import { ESG } from '../renders.js';
import { assetIdentifier, currencyCode, frameworkIdentifier, issuerIdentifier, pageFields, portfolioChange, reportingYear, SERVICE_ID, toVisibility, visibility } from './fields.js';
import { assetRow } from '../../generated/portfolio.js';
import { assetFrameworkDetail } from './rows.js';

/**
 * Assets tied to a framework (spec §4.8), served by PortfolioService. Visibility and ownership are the
 * service's (`Not authorized.` for another account's public asset); the framework an asset names is
 * resolved by the service as the caller (own first, else public). The service owns every rule: lengths,
 * the currency code, dates and their order, the value outstanding.
 */

/**
 * The asset an identifier reads for the caller (own first, else public), through the request's batched
 * reads; null when none is visible. For asset(identifier), the payloads of changes and node().
 */
export async function assetOf(ctx: GraphqlContext, identifier: string): Promise<Asset | null> {
  await callAs(ctx);
  portfolioClient(ctx.clients);
  return (await portfolioReads(ctx).asset(identifier)) ?? null;
}

export const getAssets = declare({
  solution: ESG,
  operation: 'getAssets',
  summary: 'The assets visible to the caller: its own and public ones, filtered.',
  input: {
    /** The asset's visibility (the spec names the filter issuer_visibility). */
    visibility: visibility('issuer_visibility').with({ doc: 'Only public or only private assets; default both.' }).optional(),
    issuerIdentifier: issuerIdentifier.with({ doc: 'Only the assets of this issuer.' }).optional(),
    frameworkIdentifier: frameworkIdentifier.with({ doc: 'Only the assets linked to the framework of this identifier.' }).optional(),
  },
  service: 'portfolio',
  method: 'getAssets',
  request: (i, ctx) => ({
    issuerVisibility: toVisibility(i.visibility),
    issuerIdentifier: i.issuerIdentifier,
    frameworkIdentifier: i.frameworkIdentifier,
    ...pageFields(ctx.page),
  }),
  v1: (res, _i, ctx) => listed(ctx, res, res.assets.map(assetRow)),
  graphql: {
    root: 'Query',
    field: 'assets',
    returns: 'AssetConnection!',
    nested: false,
    order: ['issuerIdentifier', 'frameworkIdentifier', 'visibility'],
    paged: {
      idOf: (a: Asset) => a.assetId,
      idPattern: SERVICE_ID,
      backward: true,
      orderBy: {
        type: 'Asset',
        plural: 'assets',
        fields: {
          IDENTIFIER: 'The owner\'s identifier (an ISIN, say), as text.',
          NAME: 'The name, as text.',
          ISSUER_IDENTIFIER: "The issuer's identifier, as text.",
          DATE_MATURITY: 'The date of maturity; assets without one last going up.',
          VALUE_OUTSTANDING: 'The value outstanding as a number, whatever its currency; assets without one last going up.',
        },
      },
    },
    render: async (call) => {
      const res = await call();
      return servicePageOf(res.assets, res);
    },
  },
});

export const asset = declare({
  solution: ESG,
  summary: 'One asset by identifier, as the caller sees it (own first, else public); null when none is visible.',
  input: { identifier: assetIdentifier },
  service: 'portfolio',
  method: 'getAssetsByIdentifiers',
  request: (i) => ({ assetIdentifiers: [i.identifier] }),
  // Read through the request's batched loader, so the asset fields of one request share a call.
  graphql: { root: 'Query', field: 'asset', returns: 'Asset', nested: false, render: (_call, i, ctx) => withLabels(assetOf(ctx, i.identifier), { asset_identifier: 'identifier' }) },
});

export const getAssetFrameworkDetails = declare({
  solution: ESG,
  operation: 'getAssetFrameworkDetails',
  summary: "The asset's framework for a year, its rows attributed to the asset.",
  input: { assetIdentifier, year: reportingYear, languageCode: text('language_code', { doc: 'Language of the names; default: each in its original language.' }).optional() },
  service: 'portfolio',
  method: 'getAssetFrameworkDetails',
  request: (i) => ({ assetIdentifier: i.assetIdentifier, reportingYear: i.year, languageCode: i.languageCode }),
  // The spec answers "array of framework detail": an array holding the asset's one framework.
  v1: (res) => res.frameworks.map(assetFrameworkDetail),
});

export const addAsset = declare({
  ...portfolioChange('addAsset', 'Adds an asset tied to a framework, or replaces the caller\'s asset of that identifier.'),
  input: {
    identifier: assetIdentifier,
    name: text('asset_name', { doc: "The asset's name." }),
    issuerIdentifier,
    /** Not a spec parameter; the asset record has issuer_name (default: the issuer's known name, else its identifier). */
    issuerName: text('issuer_name', { doc: "The issuer's name; default: the issuer's known name, else its identifier." }).optional(),
    frameworkIdentifier: frameworkIdentifier.with({ doc: "Identifier of the framework it finances: the caller's own, else another account's public one." }),
    valueOutstanding: number('asset_value_outstanding', { doc: 'Value outstanding, in the asset currency; not negative.' }).optional(),
    currencyCode: currencyCode('asset_currency_code'),
    dateIssued: text('date_issued', { doc: 'Date of issue, YYYY-MM-DD.', graphql: 'Date' }).optional(),
    dateMaturity: text('date_maturity', { doc: 'Date of maturity, YYYY-MM-DD, not before dateIssued.', graphql: 'Date' }).optional(),
    visibility: visibility('asset_visibility').with({ doc: 'Who sees it: public or private; private on add, unchanged on update when omitted.' }).optional(),
  },
  request: (i) => ({
    assetIdentifier: i.identifier,
    assetName: i.name,
    issuerIdentifier: i.issuerIdentifier,
    frameworkIdentifier: i.frameworkIdentifier,
    assetValueOutstanding: i.valueOutstanding,
    assetCurrencyCode: i.currencyCode,
    dateIssued: i.dateIssued,
    dateMaturity: i.dateMaturity,
    assetVisibility: toVisibility(i.visibility),
    issuerName: i.issuerName,
  }),
  graphql: {
    root: 'Mutation',
    field: 'addAsset',
    returns: 'AssetPayload!',
    nested: true,
    render: async (call, i, ctx) => changePayload(ctx, await call(), 'asset', () => assetOf(ctx, i.identifier)),
  },
});

export const removeAsset = declare({
  ...portfolioChange('removeAsset', "Removes the caller's asset; refused while positions hold it."),
  input: { identifier: assetIdentifier },
  request: (i) => ({ assetIdentifier: i.identifier }),
  graphql: {
    root: 'Mutation',
    field: 'removeAsset',
    returns: 'RemovalPayload!',
    nested: false,
    render: (call, i, ctx, info) => removalPayload(ctx, info, async () => (await assetOf(ctx, i.identifier))?.assetId, call),
  },
});

export const assetOperations = [getAssets, asset, getAssetFrameworkDetails, addAsset, removeAsset];
