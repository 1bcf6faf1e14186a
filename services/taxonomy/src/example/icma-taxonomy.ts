/**
 * An example taxonomy for one reporting year, built on the core indicators of the ICMA Harmonised
 * Framework for Impact Reporting (green bond categories renewable energy, energy efficiency, clean
 * transportation, green buildings, sustainable water and wastewater management, pollution prevention
 * and control). Sub categories carry the SDGs and EU environmental objectives they contribute to; a
 * few names have Swedish translations. The FX rates are the ECB's 2024 annual averages of its euro
 * reference rates. Example data for trying the service out, not a recommendation.
 */
export interface ExampleItem {
  name: string;
  /** language code → translated name */
  translations?: Readonly<Record<string, string>>;
}

export interface ExampleTaxonomy {
  reportingYear: number;
  /** Original language of every name below. */
  languageCode: string;
  units: readonly ExampleItem[];
  categories: readonly (ExampleItem & {
    subCategories: readonly (ExampleItem & { sdgs: readonly number[]; euObjectives: readonly number[] })[];
  })[];
  superIndicators: readonly (ExampleItem & {
    /** Names of the categories it belongs to. */
    categories: readonly string[];
    indicators: readonly (ExampleItem & { unit: string })[];
  })[];
  fxRates: readonly { numerator: string; denominator: string; rate: number }[];
}

const RE = 'Renewable energy';
const EE = 'Energy efficiency';
const CT = 'Clean transportation';
const GB = 'Green buildings';
const WATER = 'Sustainable water and wastewater management';
const PPC = 'Pollution prevention and control';

export const ICMA_TAXONOMY: ExampleTaxonomy = {
  reportingYear: 2024,
  languageCode: 'en',
  units: [
    { name: 'tCO2e/year', translations: { sv: 'ton CO2e/år' } },
    { name: 'MWh/year', translations: { sv: 'MWh/år' } },
    { name: 'GJ/year', translations: { sv: 'GJ/år' } },
    { name: 'MW' },
    { name: 'm³/year', translations: { sv: 'm³/år' } },
    { name: 't/year', translations: { sv: 'ton/år' } },
    { name: 'number', translations: { sv: 'antal' } },
    { name: 'km' },
    { name: 'm²' },
    { name: 'kWh/m²/year', translations: { sv: 'kWh/m²/år' } },
  ],
  categories: [
    {
      name: RE,
      translations: { sv: 'Förnybar energi' },
      subCategories: [
        { name: 'Solar power', sdgs: [7, 13], euObjectives: [1], translations: { sv: 'Solkraft' } },
        { name: 'Wind power', sdgs: [7, 13], euObjectives: [1], translations: { sv: 'Vindkraft' } },
        { name: 'Hydropower', sdgs: [7, 13], euObjectives: [1] },
      ],
    },
    {
      name: EE,
      translations: { sv: 'Energieffektivisering' },
      subCategories: [
        { name: 'Energy-efficient industrial processes', sdgs: [7, 9, 13], euObjectives: [1] },
        { name: 'Smart grids and energy storage', sdgs: [7, 9], euObjectives: [1] },
        { name: 'District heating and cooling', sdgs: [7, 11], euObjectives: [1] },
      ],
    },
    {
      name: CT,
      translations: { sv: 'Ren transport' },
      subCategories: [
        { name: 'Electric and zero-emission vehicles', sdgs: [11, 13], euObjectives: [1, 5] },
        { name: 'Public transport and rail', sdgs: [9, 11, 13], euObjectives: [1] },
        { name: 'Cycling and walking infrastructure', sdgs: [3, 11], euObjectives: [1] },
      ],
    },
    {
      name: GB,
      translations: { sv: 'Gröna byggnader' },
      subCategories: [
        { name: 'New energy-efficient buildings', sdgs: [7, 11], euObjectives: [1] },
        { name: 'Energy renovation of existing buildings', sdgs: [7, 11, 13], euObjectives: [1] },
      ],
    },
    {
      name: WATER,
      translations: { sv: 'Hållbar vatten- och avloppshantering' },
      subCategories: [
        { name: 'Water supply and efficiency', sdgs: [6], euObjectives: [3] },
        { name: 'Wastewater treatment', sdgs: [6, 14], euObjectives: [3, 5] },
      ],
    },
    {
      name: PPC,
      translations: { sv: 'Förebyggande och kontroll av föroreningar' },
      subCategories: [
        { name: 'Waste prevention, reuse and recycling', sdgs: [11, 12], euObjectives: [4, 5] },
        { name: 'Air pollution control', sdgs: [3, 11], euObjectives: [5] },
      ],
    },
  ],
  superIndicators: [
    {
      name: 'GHG emissions',
      translations: { sv: 'Växthusgasutsläpp' },
      categories: [RE, EE, CT, GB, PPC],
      indicators: [
        {
          name: 'Annual GHG emissions reduced/avoided',
          unit: 'tCO2e/year',
          translations: { sv: 'Årliga minskade/undvikta växthusgasutsläpp' },
        },
      ],
    },
    {
      name: 'Renewable energy generation',
      translations: { sv: 'Produktion av förnybar energi' },
      categories: [RE],
      indicators: [
        { name: 'Annual renewable energy generation', unit: 'MWh/year', translations: { sv: 'Årlig produktion av förnybar energi' } },
        { name: 'Capacity of renewable energy plant(s) constructed or rehabilitated', unit: 'MW' },
      ],
    },
    {
      name: 'Energy savings',
      translations: { sv: 'Energibesparingar' },
      categories: [EE, GB],
      indicators: [
        { name: 'Annual energy savings', unit: 'MWh/year', translations: { sv: 'Årliga energibesparingar' } },
        { name: 'Annual energy savings (heat and fuels)', unit: 'GJ/year' },
      ],
    },
    {
      name: 'Clean transport',
      categories: [CT],
      indicators: [
        { name: 'Number of clean vehicles deployed', unit: 'number' },
        { name: 'Length of clean transport infrastructure built or upgraded', unit: 'km' },
        { name: 'Annual number of passengers using clean transport', unit: 'number' },
      ],
    },
    {
      name: 'Air quality',
      categories: [CT, PPC],
      indicators: [{ name: 'Annual reduction of air pollutants (PM, NOx, SO2)', unit: 't/year' }],
    },
    {
      name: 'Building performance',
      categories: [GB],
      indicators: [
        { name: 'Floor area of certified green buildings', unit: 'm²' },
        { name: 'Energy performance of the buildings', unit: 'kWh/m²/year' },
      ],
    },
    {
      name: 'Water',
      translations: { sv: 'Vatten' },
      categories: [WATER],
      indicators: [
        { name: 'Annual absolute (gross) water use reduction', unit: 'm³/year' },
        { name: 'Annual volume of wastewater treated or avoided', unit: 'm³/year' },
        { name: 'Number of people with access to clean drinking water', unit: 'number' },
      ],
    },
    {
      name: 'Waste',
      translations: { sv: 'Avfall' },
      categories: [PPC],
      indicators: [
        {
          name: 'Waste prevented, minimised, reused or recycled',
          unit: 't/year',
          translations: { sv: 'Avfall som förebyggts, minimerats, återanvänts eller återvunnits' },
        },
      ],
    },
  ],
  fxRates: [
    { numerator: 'SEK', denominator: 'EUR', rate: 11.4325 },
    { numerator: 'USD', denominator: 'EUR', rate: 1.0824 },
  ],
};
