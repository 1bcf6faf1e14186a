import { Visibility } from '@green-impact/proto/greenimpact/common/v1/common';
import type { Caller } from '@green-impact/shared/caller';
import type { TaxonomyClient } from '@green-impact/shared/clients/taxonomy-client';

/**
 * A small taxonomy, FX rates and frameworks for 2023 and 2024, loaded through the taxonomy service's gRPC
 * API by the issuer (an operator account, so it may load reference data too). Figures are chosen so the
 * expected impacts can be worked out by hand:
 *
 * - FX 2024: SEK/EUR 12.5 (1 SEK = 0.08 EUR), USD/EUR 1.25 (1 USD = 0.8 EUR); 2023: SEK/EUR 10.
 * - GB-GREEN (EUR, public): 2024 V = 2 000 000, L = 2 500 000, value_outstanding_framework no → D = 2 500 000;
 *   rows (solar, GHG) s = 1 000 000, x = 12 500; (solar, energy) s = 1 000 000, x = 4 000; (wind, GHG)
 *   s = 500 000, x = 3 000. 2023: V = 1 000 000, L = 400 000, yes → D = 1 000 000; row (solar, GHG)
 *   s = 730 000, x = 730.
 * - GB-PRIVATE (EUR, private to the issuer): 2024 V = 100, L = 0, yes; one row.
 * - Solar power is linked to SDG 7 and EU objective 1; "GHG avoided" has a Swedish name in 2024.
 */
export interface FixtureIds {
  2023: YearIds;
  2024: YearIds;
}

export interface YearIds {
  category: number;
  solar: number;
  wind: number;
  ghg: number;
  energy: number;
  tco2e: number;
  mwh: number;
}

export const FRAMEWORK = 'GB-GREEN';
export const PRIVATE_FRAMEWORK = 'GB-PRIVATE';

export async function loadFixture(taxonomy: TaxonomyClient, issuer: Caller): Promise<FixtureIds> {
  const o = { caller: issuer };
  const years = {} as Record<2023 | 2024, YearIds>;
  for (const reportingYear of [2023, 2024] as const) {
    const category = (await taxonomy.addCategory({ categoryName: 'Renewable energy', reportingYear, languageCode: 'en' }, o)).id!;
    const solar = (await taxonomy.addSubCategory({ subCategoryName: 'Solar power', categoryId: category, reportingYear, languageCode: 'en' }, o)).id!;
    const wind = (await taxonomy.addSubCategory({ subCategoryName: 'Wind power', categoryId: category, reportingYear, languageCode: 'en' }, o)).id!;
    await taxonomy.addGoalObjectiveToSubCategory({ subCategoryId: solar, reportingYear, sdgId: 7, euObjectiveId: 1 }, o);
    const tco2e = (await taxonomy.addUnit({ unitName: 'tCO2e', reportingYear }, o)).id!;
    const mwh = (await taxonomy.addUnit({ unitName: 'MWh', reportingYear }, o)).id!;
    const ghgSuper = (await taxonomy.addSuperIndicator({ superIndicatorName: 'GHG emissions', categoryId: category, reportingYear }, o)).id!;
    const energySuper = (await taxonomy.addSuperIndicator({ superIndicatorName: 'Energy', categoryId: category, reportingYear }, o)).id!;
    const ghg = (await taxonomy.addIndicator({ indicatorName: 'GHG avoided', superIndicatorId: ghgSuper, unitId: tco2e, reportingYear }, o)).id!;
    const energy = (await taxonomy.addIndicator({ indicatorName: 'Renewable energy generated', superIndicatorId: energySuper, unitId: mwh, reportingYear }, o)).id!;
    years[reportingYear] = { category, solar, wind, ghg, energy, tco2e, mwh };
  }
  const y24 = years[2024];
  const y23 = years[2023];
  await taxonomy.addIndicatorTranslation({ indicatorId: y24.ghg, reportingYear: 2024, languageCode: 'sv', translation: 'Undvikna växthusgaser' }, o);

  const rate = (n: string, d: string, q: number, reportingYear: number) =>
    taxonomy.addFxRate({ currencyCodeNumerator: n, currencyCodeDenominator: d, currencyCodeQuota: q, reportingYear }, o);
  await rate('SEK', 'EUR', 12.5, 2024);
  await rate('USD', 'EUR', 1.25, 2024);
  await rate('SEK', 'EUR', 10, 2023);

  await taxonomy.addFramework(
    { frameworkIdentifier: FRAMEWORK, frameworkName: 'Green Bond Framework', frameworkCurrencyCode: 'EUR', frameworkVisibility: Visibility.VISIBILITY_PUBLIC },
    o,
  );
  await taxonomy.addYearSpecificsToFramework(
    { frameworkIdentifier: FRAMEWORK, valueOutstanding: 2_000_000, allocatedAmount: 2_500_000, valueOutstandingFramework: false, reportingYear: 2024 },
    o,
  );
  await taxonomy.addYearSpecificsToFramework(
    { frameworkIdentifier: FRAMEWORK, valueOutstanding: 1_000_000, allocatedAmount: 400_000, valueOutstandingFramework: true, reportingYear: 2023 },
    o,
  );
  const row = (subCategoryId: number, indicatorId: number, subCategoryVolume: number, indicatorValue: number, reportingYear: number, frameworkIdentifier = FRAMEWORK) =>
    taxonomy.addCategoryIndicatorToFramework({ frameworkIdentifier, subCategoryId, subCategoryVolume, indicatorId, indicatorValue, reportingYear }, o);
  await row(y24.solar, y24.ghg, 1_000_000, 12_500, 2024);
  await row(y24.solar, y24.energy, 1_000_000, 4_000, 2024);
  await row(y24.wind, y24.ghg, 500_000, 3_000, 2024);
  await row(y23.solar, y23.ghg, 730_000, 730, 2023);

  await taxonomy.addFramework({ frameworkIdentifier: PRIVATE_FRAMEWORK, frameworkName: 'Private Framework', frameworkCurrencyCode: 'EUR' }, o);
  await taxonomy.addYearSpecificsToFramework(
    { frameworkIdentifier: PRIVATE_FRAMEWORK, valueOutstanding: 100, allocatedAmount: 0, valueOutstandingFramework: true, reportingYear: 2024 },
    o,
  );
  await row(y24.wind, y24.ghg, 50, 10, 2024, PRIVATE_FRAMEWORK);
  return years;
}
