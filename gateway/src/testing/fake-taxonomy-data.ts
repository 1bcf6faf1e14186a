import type { Category, FxRate, Indicator, SubCategory, SuperIndicator, Unit } from '@green-impact/proto/greenimpact/taxonomy/v1/taxonomy';
import { InvalidArgumentError, NotFoundError } from '@green-impact/shared/errors';
import type { FakeRowNames } from './fake-frameworks.js';

/**
 * The fake TaxonomyService's taxonomy (fake-taxonomy.ts): one reporting year (2024) of fixed data in
 * English with a few Swedish translations, and the messages it answers them with.
 */

export const FAKE_YEAR = 2024;

export const LANGUAGES = [
  { id: 1, languageCode: 'en', language: 'English' },
  { id: 2, languageCode: 'sv', language: 'Swedish' },
];
export const SDGS = [
  { no: '6', en: 'Clean Water and Sanitation', sv: 'Rent vatten och sanitet för alla' },
  { no: '7', en: 'Affordable and Clean Energy', sv: 'Hållbar energi för alla' },
  { no: '13', en: 'Climate Action', sv: 'Bekämpa klimatförändringarna' },
];
export const EU_OBJECTIVES = [
  { no: '1', en: 'Climate change mitigation', sv: 'Begränsning av klimatförändringar' },
  { no: '2', en: 'Climate change adaptation', sv: 'Anpassning till klimatförändringar' },
];

type Named = { id: number; en: string; sv?: string };


export type FakeTaxonomyData = ReturnType<typeof fakeTaxonomyData>;

export function fakeTaxonomyData() {
  const categories: Named[] = [
    { id: 1, en: 'Renewable energy', sv: 'Förnybar energi' },
    { id: 2, en: 'Green buildings' },
  ];
  const subCategories: (Named & { categoryId: number; sdgs: string[]; eus: string[] })[] = [
    { id: 10, en: 'Solar power', categoryId: 1, sdgs: ['7'], eus: ['1'] },
    { id: 11, en: 'Wind power', categoryId: 1, sdgs: ['13', '7'], eus: [] },
    { id: 12, en: 'New buildings', categoryId: 2, sdgs: [], eus: [] },
  ];
  const superIndicators: Named[] = [
    { id: 20, en: 'GHG emissions', sv: 'Växthusgasutsläpp' },
    { id: 21, en: 'Energy' },
  ];
  const superIndicatorLinks = [
    { superIndicatorId: 20, categoryId: 1 },
    { superIndicatorId: 20, categoryId: 2 },
    { superIndicatorId: 21, categoryId: 1 },
  ];
  const units: Named[] = [
    { id: 40, en: 'tCO2e' },
    { id: 41, en: 'MWh' },
  ];
  const indicators: (Named & { superIndicatorId: number; unitId: number })[] = [
    { id: 30, en: 'Avoided emissions', superIndicatorId: 20, unitId: 40 },
    { id: 31, en: 'Renewable energy produced', superIndicatorId: 21, unitId: 41 },
  ];
  const currencies = ['EUR', 'SEK'];
  const language = (code: string | undefined): 'en' | 'sv' | undefined => {
    if (code === undefined || code === '') return undefined;
    if (code === 'en' || code === 'sv') return code;
    throw new InvalidArgumentError(`Unknown language code ${code}.`);
  };
  const year = (y: number) => {
    if (y < 1900 || y > 2200) throw new InvalidArgumentError(`reporting_year must be a 4-digit year from 1900 to 2200, got ${y}.`);
    return y;
  };
  /** Name in the requested language when translated, else the original (English). */
  const nameOf = (n: { en: string; sv?: string | undefined }, lang: 'en' | 'sv' | undefined) => {
    const sv = lang === 'sv' && n.sv !== undefined;
    return { name: sv ? n.sv! : n.en, language: sv ? 'Swedish' : 'English', languageCode: sv ? 'sv' : 'en' };
  };
  const byId = <T extends { id: number }>(list: T[], id: number) => list.find((x) => x.id === id)!;
  const goals = (list: typeof SDGS, nos: string[], lang: 'en' | 'sv' | undefined) =>
    Object.fromEntries(nos.map((no) => [no, nameOf(list.find((g) => g.no === no)!, lang).name]));
  const inYear = <T>(y: number, rows: () => T[]): T[] => (year(y) === FAKE_YEAR ? rows() : []);

  const category = (c: Named, lang: 'en' | 'sv' | undefined): Category => {
    const n = nameOf(c, lang);
    return { categoryId: c.id, categoryName: n.name, language: n.language, languageCode: n.languageCode, reportingYear: FAKE_YEAR };
  };
  const subCategory = (s: (typeof subCategories)[number], lang: 'en' | 'sv' | undefined): SubCategory => {
    const n = nameOf(s, lang);
    return {
      subCategoryId: s.id,
      subCategoryName: n.name,
      categoryId: s.categoryId,
      categoryName: nameOf(byId(categories, s.categoryId), lang).name,
      sdg: goals(SDGS, s.sdgs, lang),
      euObjective: goals(EU_OBJECTIVES, s.eus, lang),
      language: n.language,
      languageCode: n.languageCode,
      reportingYear: FAKE_YEAR,
    };
  };
  const superIndicator = (l: (typeof superIndicatorLinks)[number], lang: 'en' | 'sv' | undefined): SuperIndicator => {
    const n = nameOf(byId(superIndicators, l.superIndicatorId), lang);
    return {
      superIndicatorId: l.superIndicatorId,
      superIndicatorName: n.name,
      categoryId: l.categoryId,
      categoryName: nameOf(byId(categories, l.categoryId), lang).name,
      language: n.language,
      languageCode: n.languageCode,
      reportingYear: FAKE_YEAR,
    };
  };
  const indicator = (i: (typeof indicators)[number], lang: 'en' | 'sv' | undefined): Indicator => {
    const n = nameOf(i, lang);
    return {
      indicatorId: i.id,
      indicatorName: n.name,
      superIndicatorId: i.superIndicatorId,
      superIndicatorName: nameOf(byId(superIndicators, i.superIndicatorId), lang).name,
      unitId: i.unitId,
      unitName: nameOf(byId(units, i.unitId), lang).name,
      language: n.language,
      languageCode: n.languageCode,
      reportingYear: FAKE_YEAR,
    };
  };
  const unit = (u: Named, lang: 'en' | 'sv' | undefined): Unit => {
    const n = nameOf(u, lang);
    return { unitId: u.id, unitName: n.name, language: n.language, languageCode: n.languageCode, reportingYear: FAKE_YEAR };
  };
  const fxRates = (): FxRate[] => [
    { fxConversionId: 0, year: FAKE_YEAR, numeratorCurrencyCode: 'EUR', denominatorCurrencyCode: 'EUR', fxRate: 1, derived: true },
    { fxConversionId: 0, year: FAKE_YEAR, numeratorCurrencyCode: 'EUR', denominatorCurrencyCode: 'SEK', fxRate: 1 / 11.5, derived: true },
    { fxConversionId: 0, year: FAKE_YEAR, numeratorCurrencyCode: 'SEK', denominatorCurrencyCode: 'SEK', fxRate: 1, derived: true },
    { fxConversionId: 1, year: FAKE_YEAR, numeratorCurrencyCode: 'SEK', denominatorCurrencyCode: 'EUR', fxRate: 11.5, derived: false },
  ];
  const existing = <T extends { id: number }>(list: T[], label: string, id: number, y: number): T => {
    const found = y === FAKE_YEAR ? list.find((x) => x.id === id) : undefined;
    if (!found) throw new NotFoundError(`No such ${label} ${id} in ${y}.`);
    return found;
  };
  const removed = (label: string) => ({ message: `${label} removed.` });
  const rowNames = (subCategoryId: number, indicatorId: number, y: number, lang: 'en' | 'sv' | undefined): FakeRowNames => {
    const sc = subCategory(existing(subCategories, 'sub category', subCategoryId, y), lang);
    const { indicatorName, superIndicatorId, superIndicatorName, unitId, unitName, language, languageCode } = indicator(
      existing(indicators, 'indicator', indicatorId, y),
      lang,
    );
    const { categoryId, categoryName, subCategoryName, sdg, euObjective } = sc;
    return {
      ...{ categoryId, categoryName, subCategoryName, superIndicatorId, superIndicatorName, indicatorName, unitId, unitName },
      ...{ sdg, euObjective, language, languageCode },
    };
  };
  return {
    ...{ categories, subCategories, superIndicators, superIndicatorLinks, units, indicators, currencies },
    ...{ language, nameOf, inYear, category, subCategory, superIndicator, indicator, unit, fxRates, existing, removed, rowNames },
  };
}

export function pickLanguage(n: { language: string; languageCode: string }) {
  return { language: n.language, languageCode: n.languageCode };
}
