import { TaxonomyServiceService } from '@green-impact/proto/greenimpact/taxonomy/v1/taxonomy';
import type { Caller } from '@green-impact/shared/caller';
import { NotAuthorizedError, NotFoundError, UnauthenticatedError } from '@green-impact/shared/errors';
import { implement, type CallContext } from '@green-impact/shared/grpc/server';
import { serveFake } from './fake-server.js';
import { createLogger } from '@green-impact/shared/logger';
import { fakeFrameworkHandlers } from './fake-frameworks.js';
import { fakeTaxonomyChanges } from './fake-taxonomy-changes.js';
import { EU_OBJECTIVES, LANGUAGES, SDGS, fakeTaxonomyData, pickLanguage } from './fake-taxonomy-data.js';

/**
 * A small in-memory TaxonomyService served over real gRPC, for the gateway's own tests. It is not the
 * taxonomy service: one reporting year (2024) of fixed data in English with a few Swedish translations,
 * texts modelled on the service's (services/taxonomy/src/messages.ts) and rules only as faithful as the
 * gateway's tests need. Reads are open to any caller; changes need an operator
 * (fake-taxonomy-changes.ts). The data is in fake-taxonomy-data.ts; frameworks and projects (any
 * account's, in memory) are in fake-frameworks.ts.
 */
export interface FakeTaxonomy {
  address: string;
  /** Every call received: method name, the request as decoded, and the caller the gateway sent. */
  calls: { method: string; request: unknown; caller: Caller | undefined }[];
  /** Number of calls of one method (e.g. `getCategories`) since the start. */
  count(method: string): number;
  stop(): Promise<void>;
}

export { FAKE_YEAR } from './fake-taxonomy-data.js';

export async function startFakeTaxonomy(): Promise<FakeTaxonomy> {
  const log = createLogger('fake-taxonomy', { level: 'silent' });
  const calls: FakeTaxonomy['calls'] = [];

  const record = (method: string, request: unknown, ctx: CallContext): Caller => {
    calls.push({ method, request, caller: ctx.caller });
    if (!ctx.caller) throw new UnauthenticatedError();
    return ctx.caller;
  };
  const operator = (method: string, request: unknown, ctx: CallContext) => {
    if (record(method, request, ctx).role !== 'operator') throw new NotAuthorizedError();
  };
  const data = fakeTaxonomyData();
  const { categories, subCategories, superIndicatorLinks, units, indicators, currencies, language, nameOf, inYear } = data;
  const { category, subCategory, superIndicator, indicator, unit, fxRates, rowNames } = data;
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

      ...fakeTaxonomyChanges(data, operator),
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
