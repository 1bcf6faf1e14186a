import {
  TaxonomyServiceService,
  type Category,
  type FxRate,
  type Indicator,
  type SubCategory,
  type SuperIndicator,
  type Unit,
} from '@green-impact/proto/greenimpact/taxonomy/v1/taxonomy';
import type { Caller } from '@green-impact/shared/caller';
import {
  FailedPreconditionError,
  InvalidArgumentError,
  NotAuthorizedError,
  NotFoundError,
  UnauthenticatedError,
} from '@green-impact/shared/errors';
import { implement, type CallContext } from '@green-impact/shared/grpc/server';
import { serveFake } from './fake-server.js';
import { createLogger } from '@green-impact/shared/logger';
import { fakeFrameworkHandlers, type FakeRowNames } from './fake-frameworks.js';

/**
 * A small in-memory TaxonomyService served over real gRPC, for the gateway's own tests. It is not the
 * taxonomy service: one reporting year (2024) of fixed data in English with a few Swedish translations,
 * texts modelled on the service's (services/taxonomy/src/messages.ts) and rules only as faithful as the
 * gateway's tests need. Reads are open to any caller; changes need an operator. Frameworks and
 * projects (any account's, in memory) are in fake-frameworks.ts.
 */
export interface FakeTaxonomy {
  address: string;
  /** Every call received: method name, the request as decoded, and the caller the gateway sent. */
  calls: { method: string; request: unknown; caller: Caller | undefined }[];
  /** Number of calls of one method (e.g. `getCategories`) since the start. */
  count(method: string): number;
  stop(): Promise<void>;
}

export const FAKE_YEAR = 2024;

const LANGUAGES = [
  { id: 1, languageCode: 'en', language: 'English' },
  { id: 2, languageCode: 'sv', language: 'Swedish' },
];
const SDGS = [
  { no: '6', en: 'Clean Water and Sanitation', sv: 'Rent vatten och sanitet för alla' },
  { no: '7', en: 'Affordable and Clean Energy', sv: 'Hållbar energi för alla' },
  { no: '13', en: 'Climate Action', sv: 'Bekämpa klimatförändringarna' },
];
const EU_OBJECTIVES = [
  { no: '1', en: 'Climate change mitigation', sv: 'Begränsning av klimatförändringar' },
  { no: '2', en: 'Climate change adaptation', sv: 'Anpassning till klimatförändringar' },
];

type Named = { id: number; en: string; sv?: string };

export async function startFakeTaxonomy(): Promise<FakeTaxonomy> {
  const log = createLogger('fake-taxonomy', { level: 'silent' });
  const calls: FakeTaxonomy['calls'] = [];
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

  const record = (method: string, request: unknown, ctx: CallContext): Caller => {
    calls.push({ method, request, caller: ctx.caller });
    if (!ctx.caller) throw new UnauthenticatedError();
    return ctx.caller;
  };
  const operator = (method: string, request: unknown, ctx: CallContext) => {
    if (record(method, request, ctx).role !== 'operator') throw new NotAuthorizedError();
  };
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
  const frameworkHandlers = fakeFrameworkHandlers({
    record,
    language,
    currency: (code) => {
      if (!currencies.includes(code)) throw new NotFoundError(`No such currency ${code}.`);
    },
    names: rowNames,
  });

  const implementation = implement(
    'greenimpact.taxonomy.v1.TaxonomyService',
    TaxonomyServiceService,
    {
      // ---- reads ----
      async getSdgs(req, ctx) {
        record('getSdgs', req, ctx);
        const lang = language(req.languageCode);
        return {
          sdgs: SDGS.map((g) => ({ sdgId: Number(g.no), goalNo: g.no, sdg: nameOf(g, lang).name, ...pickLanguage(nameOf(g, lang)) })),
        };
      },
      async getEuObjectives(req, ctx) {
        record('getEuObjectives', req, ctx);
        const lang = language(req.languageCode);
        return {
          euObjectives: EU_OBJECTIVES.map((g) => ({
            euObjectivId: Number(g.no),
            objectiveNo: g.no,
            objective: nameOf(g, lang).name,
            ...pickLanguage(nameOf(g, lang)),
          })),
        };
      },
      async getCategories(req, ctx) {
        record('getCategories', req, ctx);
        const lang = language(req.languageCode);
        return { categories: inYear(req.reportingYear, () => categories.map((c) => category(c, lang))) };
      },
      async getSubCategories(req, ctx) {
        record('getSubCategories', req, ctx);
        const lang = language(req.languageCode);
        return { subCategories: inYear(req.reportingYear, () => subCategories.map((s) => subCategory(s, lang))) };
      },
      async getSuperIndicators(req, ctx) {
        record('getSuperIndicators', req, ctx);
        const lang = language(req.languageCode);
        return { superIndicators: inYear(req.reportingYear, () => superIndicatorLinks.map((l) => superIndicator(l, lang))) };
      },
      async getIndicators(req, ctx) {
        record('getIndicators', req, ctx);
        const lang = language(req.languageCode);
        return { indicators: inYear(req.reportingYear, () => indicators.map((i) => indicator(i, lang))) };
      },
      async getUnits(req, ctx) {
        record('getUnits', req, ctx);
        const lang = language(req.languageCode);
        return { units: inYear(req.reportingYear, () => units.map((u) => unit(u, lang))) };
      },
      async getTaxonomy(req, ctx) {
        record('getTaxonomy', req, ctx);
        const lang = language(req.languageCode);
        const rows = () =>
          subCategories.flatMap((s) =>
            superIndicatorLinks
              .filter((l) => l.categoryId === s.categoryId)
              .flatMap((l) =>
                indicators
                  .filter((i) => i.superIndicatorId === l.superIndicatorId)
                  .map((i) => {
                    const sc = subCategory(s, lang);
                    const ind = indicator(i, lang);
                    return {
                      categoryId: sc.categoryId,
                      categoryName: sc.categoryName,
                      subCategoryId: sc.subCategoryId,
                      subCategoryName: sc.subCategoryName,
                      superIndicatorId: ind.superIndicatorId,
                      superIndicatorName: ind.superIndicatorName,
                      indicatorId: ind.indicatorId,
                      indicatorName: ind.indicatorName,
                      unitId: ind.unitId,
                      unitName: ind.unitName,
                      sdg: sc.sdg,
                      euObjective: sc.euObjective,
                      language: ind.language,
                      languageCode: ind.languageCode,
                    };
                  }),
              ),
          );
        return { rows: inYear(req.reportingYear, rows) };
      },
      async getLanguages(req, ctx) {
        record('getLanguages', req, ctx);
        return { languages: LANGUAGES };
      },
      async getCurrencies(req, ctx) {
        record('getCurrencies', req, ctx);
        return { currencies: currencies.map((code, i) => ({ id: i + 1, currencyCode: code })) };
      },
      async getFxRates(req, ctx) {
        record('getFxRates', req, ctx);
        return { fxRates: inYear(req.reportingYear, fxRates) };
      },

      // ---- changes (operators) ----
      async addCategory(req, ctx) {
        operator('addCategory', req, ctx);
        language(req.languageCode);
        const found = categories.find((c) => c.en === req.categoryName);
        if (found && req.categoryNameChanged !== undefined) {
          found.en = req.categoryNameChanged;
          return { message: 'Category changed.', id: found.id };
        }
        if (found) return { message: `Category already exists with id ${found.id}.`, id: found.id };
        const id = Math.max(...categories.map((c) => c.id)) + 1;
        categories.push({ id, en: req.categoryName });
        return { message: `Category added with id ${id}.`, id };
      },
      async addSubCategory(req, ctx) {
        operator('addSubCategory', req, ctx);
        existing(categories, 'category', req.categoryId, req.reportingYear);
        return { message: 'Sub category added with id 13.', id: 13 };
      },
      async addGoalObjectiveToSubCategory(req, ctx) {
        operator('addGoalObjectiveToSubCategory', req, ctx);
        const s = existing(subCategories, 'sub category', req.subCategoryId, req.reportingYear);
        if (req.sdgId === undefined && req.euObjectiveId === undefined) throw new InvalidArgumentError('Give sdg_id, eu_objective_id or both.');
        const what = [req.sdgId !== undefined ? `SDG ${req.sdgId}` : '', req.euObjectiveId !== undefined ? `EU objective ${req.euObjectiveId}` : '']
          .filter(Boolean)
          .join(' and ');
        return { message: `${what} added to sub category ${s.id}.`, id: s.id };
      },
      async addUnit(req, ctx) {
        operator('addUnit', req, ctx);
        return { message: 'Unit added with id 42.', id: 42 };
      },
      async addSuperIndicator(req, ctx) {
        operator('addSuperIndicator', req, ctx);
        return { message: 'Super indicator added with id 22.', id: 22 };
      },
      async addIndicator(req, ctx) {
        operator('addIndicator', req, ctx);
        if (req.unitId === undefined && req.indicatorNameChanged === undefined) throw new InvalidArgumentError('unit_id is required to add an indicator.');
        return { message: 'Indicator added with id 32.', id: 32 };
      },
      async removeCategory(req, ctx) {
        operator('removeCategory', req, ctx);
        const c = existing(categories, 'category', req.categoryId, req.reportingYear);
        if (subCategories.some((s) => s.categoryId === c.id)) {
          throw new FailedPreconditionError(`Category ${c.id} is still used by sub categories; remove them first.`);
        }
        return removed('Category');
      },
      async removeSubCategory(req, ctx) {
        operator('removeSubCategory', req, ctx);
        existing(subCategories, 'sub category', req.subCategoryId, req.reportingYear);
        return removed('Sub category');
      },
      async removeSuperIndicator(req, ctx) {
        operator('removeSuperIndicator', req, ctx);
        existing(superIndicators, 'super indicator', req.superIndicatorId, req.reportingYear);
        return req.categoryId === undefined ? removed('Super indicator') : { message: `Super indicator removed from category ${req.categoryId}.` };
      },
      async removeIndicator(req, ctx) {
        operator('removeIndicator', req, ctx);
        existing(indicators, 'indicator', req.indicatorId, req.reportingYear);
        return removed('Indicator');
      },
      async removeUnit(req, ctx) {
        operator('removeUnit', req, ctx);
        existing(units, 'unit', req.unitId, req.reportingYear);
        return removed('Unit');
      },
      async removeGoalObjectiveFromSubCategory(req, ctx) {
        operator('removeGoalObjectiveFromSubCategory', req, ctx);
        const s = existing(subCategories, 'sub category', req.subCategoryId, req.reportingYear);
        return { message: `Goal removed from sub category ${s.id}.`, id: s.id };
      },
      async addCategoryTranslation(req, ctx) {
        operator('addCategoryTranslation', req, ctx);
        language(req.languageCode);
        existing(categories, 'category', req.categoryId, req.reportingYear);
        return { message: 'category translation added', id: 1 };
      },
      async addSubCategoryTranslation(req, ctx) {
        operator('addSubCategoryTranslation', req, ctx);
        language(req.languageCode);
        return { message: 'sub category translation changed', id: 2 };
      },
      async addSuperIndicatorTranslation(req, ctx) {
        operator('addSuperIndicatorTranslation', req, ctx);
        language(req.languageCode);
        return { message: 'super indicator translation added', id: 3 };
      },
      async addIndicatorTranslation(req, ctx) {
        operator('addIndicatorTranslation', req, ctx);
        language(req.languageCode);
        return { message: 'indicator translation added', id: 4 };
      },
      async addUnitTranslation(req, ctx) {
        operator('addUnitTranslation', req, ctx);
        language(req.languageCode);
        return { message: 'unit translation changed', id: 5 };
      },
      async addCurrency(req, ctx) {
        operator('addCurrency', req, ctx);
        const known = currencies.indexOf(req.currencyCode);
        if (known >= 0) return { message: `Currency already exists with id ${known + 1}.`, id: known + 1 };
        currencies.push(req.currencyCode);
        return { message: `Currency added with id ${currencies.length}.`, id: currencies.length };
      },
      async removeCurrency(req, ctx) {
        operator('removeCurrency', req, ctx);
        if (!currencies.includes(req.currencyCode)) throw new NotFoundError(`No such currency ${req.currencyCode}.`);
        return { message: 'Currency removed.' };
      },
      async addFxRate(req, ctx) {
        operator('addFxRate', req, ctx);
        if (req.currencyCodeNumerator === req.currencyCodeDenominator) {
          throw new InvalidArgumentError('The numerator and denominator currencies must differ.');
        }
        return { message: 'FX rate added with id 2.', id: 2 };
      },
      async removeFxRate(req, ctx) {
        operator('removeFxRate', req, ctx);
        return { message: 'FX rate removed.' };
      },
      ...frameworkHandlers,
    },
    log,
  );

  const started = await serveFake({ name: 'greenimpact.taxonomy.v1.TaxonomyService', definition: TaxonomyServiceService, implementation, protoFile: 'taxonomy' }, log);
  return {
    address: started.address,
    calls,
    count: (method) => calls.filter((c) => c.method === method).length,
    stop: () => started.shutdown(1_000),
  };
}

function pickLanguage(n: { language: string; languageCode: string }) {
  return { language: n.language, languageCode: n.languageCode };
}
