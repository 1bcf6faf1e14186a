import { changePayload, removalPayload } from '../../graphql/payloads.js';
import type { GraphqlContext } from '../../graphql/context.js';
import { callerOf, declare } from '../operation.js';
import { identifier, int, number } from '../fields.js';
import { messageOnly, ESG } from '../renders.js';
import { taxonomyChange } from './taxonomy.js';

/**
 * Currencies and FX rates (spec §4.5), served by TaxonomyService. The service owns every rule: 3-letter
 * codes (any case, stored upper case), 4-digit years, a positive rate, and the refusals' texts.
 */

const currencyCode = identifier('currency_code', { doc: '3-letter currency code, e.g. SEK.' });
const year = int('reporting_year', { doc: 'Reporting year, 4 digits.' });

const sameCode = (a: string, b: string) => a.toUpperCase() === b.toUpperCase();

export const getCurrencies = declare({
  solution: ESG,
  operation: 'getCurrencies',
  summary: 'Registered currencies.',
  input: {},
  service: 'taxonomy',
  method: 'getCurrencies',
  request: () => ({}),
  v1: (res) => res.currencies.map((c) => ({ id: c.id, currency_code: c.currencyCode })),
  graphql: { root: 'Query', field: 'currencies', returns: '[Currency!]!', nested: false, render: async (call) => (await call()).currencies },
});

export const getFxRates = declare({
  solution: ESG,
  operation: 'getFXrates',
  summary: 'The FX rates of a year, with identity pairs (1.0) and reciprocal pairs.',
  input: { year },
  service: 'taxonomy',
  method: 'getFxRates',
  request: (i) => ({ reportingYear: i.year }),
  v1: (res) =>
    res.fxRates.map((r) => ({
      fx_conversion_id: r.fxConversionId,
      year: r.year,
      numerator_currency_code: r.numeratorCurrencyCode,
      denominator_currency_code: r.denominatorCurrencyCode,
      fx_rate: r.fxRate,
    })),
  graphql: { root: 'Query', field: 'fxRates', returns: '[FxRate!]!', nested: false, render: async (call) => (await call()).fxRates },
});

/** The currency with this code, as currencies lists it (for a change's payload). */
const readCurrency = (ctx: GraphqlContext, code: string) => async () =>
  (await getCurrencies.call({}, await callerOf(ctx))).currencies.find((c) => sameCode(c.currencyCode, code));

/** The stored rates of a year (for a change's payload). */
const readRates = async (ctx: GraphqlContext, year: number) =>
  (await getFxRates.call({ year }, await callerOf(ctx))).fxRates.filter((r) => !r.derived);

export const addCurrency = declare({
  ...taxonomyChange('addCurrency', 'Registers a currency. Operators only.'),
  input: { currencyCode },
  request: (i) => ({ currencyCode: i.currencyCode }),
  graphql: {
    root: 'Mutation',
    field: 'addCurrency',
    returns: 'CurrencyPayload!',
    nested: false,
    render: async (call, i, ctx) => changePayload(ctx, await call(), 'currency', readCurrency(ctx, i.currencyCode)),
  },
});

export const removeCurrency = declare({
  ...taxonomyChange('removeCurrency', 'Removes a currency; refused while FX rates, frameworks or projects use it. Operators only.'),
  input: { currencyCode },
  request: (i) => ({ currencyCode: i.currencyCode }),
  graphql: {
    root: 'Mutation',
    field: 'removeCurrency',
    returns: 'RemovalPayload!',
    nested: false,
    render: (call, i, ctx, info) => removalPayload(ctx, info, async () => (await readCurrency(ctx, i.currencyCode)())?.id, call),
  },
});

export const addFxRate = declare({
  solution: ESG,
  operation: 'addFXrate',
  summary: 'Adds or replaces the rate of a currency pair for a year. Operators only.',
  input: {
    numeratorCurrencyCode: identifier('currency_code_numerator', { doc: 'The numerator currency, 3 letters.' }),
    denominatorCurrencyCode: identifier('currency_code_denominator', { doc: 'The denominator currency, 3 letters.' }),
    rate: number('currency_code_quota', { doc: 'numerator / denominator; positive.' }),
    year,
  },
  service: 'taxonomy',
  method: 'addFxRate',
  request: (i) => ({
    currencyCodeNumerator: i.numeratorCurrencyCode,
    currencyCodeDenominator: i.denominatorCurrencyCode,
    currencyCodeQuota: i.rate,
    reportingYear: i.year,
  }),
  v1: messageOnly,
  graphql: {
    root: 'Mutation',
    field: 'addFxRate',
    returns: 'FxRatePayload!',
    nested: true,
    render: async (call, i, ctx) =>
      changePayload(ctx, await call(), 'fxRate', async () =>
        (await readRates(ctx, i.year)).find((r) => sameCode(r.numeratorCurrencyCode, i.numeratorCurrencyCode) && sameCode(r.denominatorCurrencyCode, i.denominatorCurrencyCode)),
      ),
  },
});

export const removeFxRate = declare({
  solution: ESG,
  operation: 'removeFXrate',
  summary: 'Removes the rate of a pair (in both directions) for a year. Operators only.',
  input: {
    currencyCode1: identifier('currency_code_1', { doc: 'One currency of the pair.' }),
    currencyCode2: identifier('currency_code_2', { doc: 'The other currency of the pair.' }),
    year,
  },
  service: 'taxonomy',
  method: 'removeFxRate',
  request: (i) => ({ currencyCode1: i.currencyCode1, currencyCode2: i.currencyCode2, reportingYear: i.year }),
  v1: messageOnly,
  graphql: {
    root: 'Mutation',
    field: 'removeFxRate',
    returns: 'RemovalPayload!',
    nested: true,
    render: (call, i, ctx, info) => {
      const pair = (a: string, b: string) => sameCode(a, i.currencyCode1) && sameCode(b, i.currencyCode2);
      const removedId = async () => (await readRates(ctx, i.year)).find((r) => pair(r.numeratorCurrencyCode, r.denominatorCurrencyCode) || pair(r.denominatorCurrencyCode, r.numeratorCurrencyCode))?.fxConversionId;
      return removalPayload(ctx, info, removedId, call);
    },
  },
});

export const currencyOperations = [getCurrencies, getFxRates, addCurrency, removeCurrency, addFxRate, removeFxRate];
