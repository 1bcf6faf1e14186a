import type { FrameworkRow } from '@green-impact/proto/greenimpact/taxonomy/v1/taxonomy';
import type { AssetFrameworkRow } from '@green-impact/proto/greenimpact/portfolio/v1/portfolio';
import { attributionDenominator, type FrameworkYearFigures } from '../impacts/impact-math.js';

/**
 * The framework's rows attributed to an asset (getAssetFrameworkDetails, ARCHITECTURE §3), pure:
 *
 *   share              = A_f / D      A_f: asset value outstanding in the framework currency (year-Y rate)
 *   indicator_value    = share · x(k,i)
 *   sub_category_volume = share · s(k) · r    r: asset currency per framework currency unit (year-Y rate)
 *
 * with D as in the impact formula (V when value_outstanding_framework, else max(L, V)).
 */
export interface AssetAttributionInput {
  assetCurrencyCode: string;
  /** A, in the asset's currency. */
  assetValueOutstanding: number;
  /** Framework currency per unit of the asset's currency. */
  assetToFrameworkRate: number;
  /** Asset currency per unit of the framework currency. */
  frameworkToAssetRate: number;
  figures: FrameworkYearFigures;
  rows: readonly FrameworkRow[];
}

export interface AssetAttribution {
  /** A_f. */
  assetValueFramework: number;
  denominator: number;
  share: number;
  rows: AssetFrameworkRow[];
}

export function attributeToAsset(input: AssetAttributionInput): AssetAttribution {
  const denominator = attributionDenominator(input.figures);
  const assetValueFramework = input.assetValueOutstanding * input.assetToFrameworkRate;
  const share = assetValueFramework / denominator;
  return {
    assetValueFramework,
    denominator,
    share,
    rows: input.rows.map((r) => ({
      categoryId: r.categoryId,
      categoryName: r.categoryName,
      subCategoryId: r.subCategoryId,
      subCategoryName: r.subCategoryName,
      subCategoryVolume: share * r.subCategoryVolume * input.frameworkToAssetRate,
      currencyCode: input.assetCurrencyCode,
      superIndicatorId: r.superIndicatorId,
      superIndicatorName: r.superIndicatorName,
      indicatorId: r.indicatorId,
      indicatorName: r.indicatorName,
      indicatorValue: share * r.indicatorValue,
      unitId: r.unitId,
      unitName: r.unitName,
      year: r.year,
      sdg: { ...r.sdg },
      euObjective: { ...r.euObjective },
      language: r.language,
      languageCode: r.languageCode,
    })),
  };
}
