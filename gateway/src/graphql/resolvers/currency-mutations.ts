import type { GraphqlContext } from '../context.js';
import type { GraphQLResolveInfo } from 'graphql';
import { changePayload, removalPayload } from '../payloads.js';
import { taxonomyEntities as read } from './taxonomy-entities.js';
import { addFxRateParams, currencyParams, removeFxRateParams } from '../../v1/operations/taxonomy-params.js';
import { validateParameters } from '../../v1/parameters.js';
import { prepare } from './taxonomy-mutations.js';

/** Currencies and FX rates (spec §4.5), served by the taxonomy service. */

export interface AddFxRateInput {
  numeratorCurrencyCode: string;
  denominatorCurrencyCode: string;
  rate: number;
  year: number;
}

export interface RemoveFxRateInput {
  currencyCode1: string;
  currencyCode2: string;
  year: number;
}

export const currencyMutations = {
  async addCurrency(_: unknown, args: { currencyCode: string }, ctx: GraphqlContext) {
    const { client, opts } = await prepare(ctx);
    const p = validateParameters(currencyParams, { currency_code: args.currencyCode }, { currency_code: 'currencyCode' });
    const answer = await client.addCurrency({ currencyCode: p.currency_code }, opts);
    return changePayload(ctx, answer, 'currency', read.currency(ctx, p.currency_code));
  },
  async removeCurrency(_: unknown, args: { currencyCode: string }, ctx: GraphqlContext, info: GraphQLResolveInfo) {
    const { client, opts } = await prepare(ctx);
    const p = validateParameters(currencyParams, { currency_code: args.currencyCode }, { currency_code: 'currencyCode' });
    const removedId = async () => (await read.currency(ctx, p.currency_code)())?.id;
    return removalPayload(ctx, info, removedId, () => client.removeCurrency({ currencyCode: p.currency_code }, opts));
  },
  async addFxRate(_: unknown, { input }: { input: AddFxRateInput }, ctx: GraphqlContext) {
    const { client, opts } = await prepare(ctx);
    const p = validateParameters(
      addFxRateParams,
      {
        currency_code_numerator: input.numeratorCurrencyCode,
        currency_code_denominator: input.denominatorCurrencyCode,
        currency_code_quota: input.rate,
        reporting_year: input.year,
      },
      {
        currency_code_numerator: 'input.numeratorCurrencyCode',
        currency_code_denominator: 'input.denominatorCurrencyCode',
        currency_code_quota: 'input.rate',
        reporting_year: 'input.year',
      },
    );
    const req = {
      currencyCodeNumerator: p.currency_code_numerator,
      currencyCodeDenominator: p.currency_code_denominator,
      currencyCodeQuota: p.currency_code_quota,
      reportingYear: p.reporting_year,
    };
    const answer = await client.addFxRate(req, opts);
    return changePayload(ctx, answer, 'fxRate', read.fxRate(ctx, req.currencyCodeNumerator, req.currencyCodeDenominator, req.reportingYear));
  },
  async removeFxRate(_: unknown, { input }: { input: RemoveFxRateInput }, ctx: GraphqlContext, info: GraphQLResolveInfo) {
    const { client, opts } = await prepare(ctx);
    const p = validateParameters(
      removeFxRateParams,
      { currency_code_1: input.currencyCode1, currency_code_2: input.currencyCode2, reporting_year: input.year },
      { currency_code_1: 'input.currencyCode1', currency_code_2: 'input.currencyCode2', reporting_year: 'input.year' },
    );
    const req = { currencyCode1: p.currency_code_1, currencyCode2: p.currency_code_2, reportingYear: p.reporting_year };
    const removedId = async () => (await read.storedFxRate(ctx, req.currencyCode1, req.currencyCode2, req.reportingYear)())?.id;
    return removalPayload(ctx, info, removedId, () => client.removeFxRate(req, opts));
  },
};
