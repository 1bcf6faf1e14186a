/**
 * The closed vocabularies of the EU Green Bond Standard (issue 37), shared by the taxonomy service (which
 * owns the rules) and the gateway (which declares them as enums on both faces), so the two lists cannot drift.
 */

/** The six environmental objectives of Regulation (EU) 2020/852, Article 9, in its order. */
export const ENVIRONMENTAL_OBJECTIVES = [
  'climate_change_mitigation',
  'climate_change_adaptation',
  'water_and_marine_resources',
  'circular_economy',
  'pollution_prevention_and_control',
  'biodiversity_and_ecosystems',
] as const;
export type EnvironmentalObjective = (typeof ENVIRONMENTAL_OBJECTIVES)[number];

/** Regulation (EU) 2023/2631, Article 4(1): fixed assets, capital expenditure, operating expenditure, financial assets. */
export const ASSET_TYPES = ['fixed_asset', 'capex', 'opex', 'financial_asset'] as const;
export type AssetType = (typeof ASSET_TYPES)[number];

/** The documents of Regulation (EU) 2023/2631's annexes: I factsheet, II allocation report, III impact report. */
export const EU_GBS_DOCUMENTS = ['factsheet', 'allocation_report', 'impact_report'] as const;
export type EuGbsDocument = (typeof EU_GBS_DOCUMENTS)[number];
