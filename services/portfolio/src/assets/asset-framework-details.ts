import type { AssetFrameworkDetail } from '@green-impact/proto/greenimpact/portfolio/v1/portfolio';
import { Visibility } from '@green-impact/proto/greenimpact/common/v1/common';
import type { Caller } from '@green-impact/shared/caller';
import { FailedPreconditionError } from '@green-impact/shared/errors';
import { frameworkRead, type FrameworkSource } from '../framework-source.js';
import { MSG } from '../messages.js';
import * as v from '../validation.js';
import { attributeToAsset } from './asset-attribution.js';
import type { AssetStore } from './asset-store.js';

/** getAssetFrameworkDetails: the asset's framework rows of a year, attributed to the asset's share. */
export class AssetFrameworkDetailsReader {
  constructor(
    private readonly assets: AssetStore,
    private readonly frameworks: FrameworkSource,
  ) {}

  async read(caller: Caller, assetIdentifier: string, reportingYear: number, languageCode?: string): Promise<AssetFrameworkDetail> {
    const year = v.reportingYear(reportingYear);
    const asset = await this.assets.requireVisible(caller, assetIdentifier);
    if (asset.valueOutstanding === null) throw new FailedPreconditionError(MSG.assetWithoutValue(asset.assetIdentifier));
    const gone = () => MSG.frameworkGone(asset.frameworkIdentifier, asset.assetIdentifier);
    const [specifics, detail] = await Promise.all([
      frameworkRead(gone, () => this.frameworks.yearSpecifics(caller, asset.frameworkId, year)),
      frameworkRead(gone, () => this.frameworks.details(caller, asset.frameworkId, year, languageCode)),
    ]);
    if (!detail) throw new FailedPreconditionError(gone());
    const [toFramework, toAsset] = await this.frameworks.convert(caller, year, [
      { amount: asset.valueOutstanding, fromCurrencyCode: asset.currencyCode, toCurrencyCode: specifics.frameworkCurrencyCode },
      { amount: 1, fromCurrencyCode: specifics.frameworkCurrencyCode, toCurrencyCode: asset.currencyCode },
    ]);
    const attribution = attributeToAsset({
      assetCurrencyCode: asset.currencyCode,
      assetValueOutstanding: asset.valueOutstanding,
      assetToFrameworkRate: toFramework!.fxRate,
      frameworkToAssetRate: toAsset!.fxRate,
      figures: {
        frameworkIdentifier: specifics.frameworkIdentifier,
        reportingYear: year,
        valueOutstanding: specifics.valueOutstanding,
        allocatedAmount: specifics.allocatedAmount,
        valueOutstandingFramework: specifics.valueOutstandingFramework,
      },
      rows: detail.framework,
    });
    const summary = detail.frameworkSummary;
    return {
      frameworkId: specifics.frameworkId,
      frameworkIdentifier: specifics.frameworkIdentifier,
      frameworkName: specifics.frameworkName,
      frameworkValueOutstanding: specifics.valueOutstanding,
      frameworkAllocatedAmount: specifics.allocatedAmount,
      ...(summary?.frameworkActivePercentage !== undefined ? { frameworkActivePercentage: summary.frameworkActivePercentage } : {}),
      frameworkCurrencyCode: specifics.frameworkCurrencyCode,
      valueOutstandingFramework: specifics.valueOutstandingFramework,
      frameworkVisibility: summary?.frameworkVisibility ?? Visibility.VISIBILITY_UNSPECIFIED,
      assetIdentifier: asset.assetIdentifier,
      assetName: asset.assetName,
      currencyCode: asset.currencyCode,
      attributionShare: attribution.share,
      attributionDenominator: attribution.denominator,
      fxRate: toAsset!.fxRate,
      framework: attribution.rows,
    };
  }
}
