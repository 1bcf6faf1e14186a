import type { TaxonomyServiceService } from '@green-impact/proto/greenimpact/taxonomy/v1/taxonomy';
import { requireCaller } from '@green-impact/shared/caller';
import type { UnaryHandlers } from '@green-impact/shared/grpc/server';
import type { TaxonomyStores } from '../stores.js';
import { CURRENCY_MSG } from './messages.js';

/** §4.5 currencies and FX rates, plus GetFxRate / ConvertAmounts for the portfolio service. */
export function currencyHandlers(s: TaxonomyStores): Partial<UnaryHandlers<typeof TaxonomyServiceService>> {
  return {
    async getCurrencies(_req, ctx) {
      requireCaller(ctx.caller);
      return { currencies: (await s.currencies.list()).map((c) => ({ id: c.id, currencyCode: c.code })) };
    },
    async addCurrency(req, ctx) {
      const r = await s.currencies.add(requireCaller(ctx.caller), req.currencyCode);
      return { message: r.created ? CURRENCY_MSG.currencyAdded(r.id) : CURRENCY_MSG.currencyExists(r.id), id: r.id };
    },
    async removeCurrency(req, ctx) {
      const id = await s.currencies.remove(requireCaller(ctx.caller), req.currencyCode);
      return { message: CURRENCY_MSG.currencyRemoved, id };
    },
    async getFxRates(req, ctx) {
      requireCaller(ctx.caller);
      return { fxRates: await s.fxRates.list(req.reportingYear) };
    },
    async addFxRate(req, ctx) {
      const r = await s.fxRates.add(requireCaller(ctx.caller), {
        numerator: req.currencyCodeNumerator,
        denominator: req.currencyCodeDenominator,
        rate: req.currencyCodeQuota,
        reportingYear: req.reportingYear,
      });
      return { message: r.created ? CURRENCY_MSG.fxRateAdded(r.id) : CURRENCY_MSG.fxRateChanged, id: r.id };
    },
    async removeFxRate(req, ctx) {
      const id = await s.fxRates.remove(requireCaller(ctx.caller), req.currencyCode1, req.currencyCode2, req.reportingYear);
      return { message: CURRENCY_MSG.fxRateRemoved, id };
    },
    async getFxRate(req, ctx) {
      requireCaller(ctx.caller);
      return { fxRate: await s.fxRates.get(req.reportingYear, req.numeratorCurrencyCode, req.denominatorCurrencyCode) };
    },
    async convertAmounts(req, ctx) {
      requireCaller(ctx.caller);
      return { conversions: await s.fxRates.convert(req.reportingYear, req.conversions) };
    },
  };
}
