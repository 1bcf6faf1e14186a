import { defineOperation } from '../operation.js';
import { addFxRateParams, currencyParams, fxYearParams, removeFxRateParams } from './taxonomy-params.js';
import { currencyRow, fxRateRow } from './taxonomy-shapes.js';
import { call, messageOnly, taxonomy } from './taxonomy.js';

/** /v1/call operations of spec §4.5: currencies and FX rates (TaxonomyService). */

const ESG = 'SVC.ESG.Credits';

export const currencyOperations = [
  defineOperation({
    solution: ESG,
    operation: 'getCurrencies',
    params: {},
    async handler(_p, ctx) {
      return (await taxonomy(ctx).getCurrencies({}, call(ctx))).currencies.map(currencyRow);
    },
  }),
  defineOperation({
    solution: ESG,
    operation: 'getFXrates',
    params: fxYearParams,
    async handler(p, ctx) {
      return (await taxonomy(ctx).getFxRates({ reportingYear: p.reporting_year }, call(ctx))).fxRates.map(fxRateRow);
    },
  }),
  defineOperation({
    solution: ESG,
    operation: 'addCurrency',
    params: currencyParams,
    async handler(p, ctx) {
      return messageOnly(await taxonomy(ctx).addCurrency({ currencyCode: p.currency_code }, call(ctx)));
    },
  }),
  defineOperation({
    solution: ESG,
    operation: 'addFXrate',
    params: addFxRateParams,
    async handler(p, ctx) {
      const req = {
        currencyCodeNumerator: p.currency_code_numerator,
        currencyCodeDenominator: p.currency_code_denominator,
        currencyCodeQuota: p.currency_code_quota,
        reportingYear: p.reporting_year,
      };
      return messageOnly(await taxonomy(ctx).addFxRate(req, call(ctx)));
    },
  }),
  defineOperation({
    solution: ESG,
    operation: 'removeCurrency',
    params: currencyParams,
    async handler(p, ctx) {
      return messageOnly(await taxonomy(ctx).removeCurrency({ currencyCode: p.currency_code }, call(ctx)));
    },
  }),
  defineOperation({
    solution: ESG,
    operation: 'removeFXrate',
    params: removeFxRateParams,
    async handler(p, ctx) {
      const req = { currencyCode1: p.currency_code_1, currencyCode2: p.currency_code_2, reportingYear: p.reporting_year };
      return messageOnly(await taxonomy(ctx).removeFxRate(req, call(ctx)));
    },
  }),
];
