import type { GraphqlContext } from '../context.js';
import { changePayload } from '../payloads.js';
import { taxonomyEntities as read } from './taxonomy-entities.js';
import { taxonomyParams, translationFields } from '../../v1/operations/taxonomy-params.js';
import { validateParameters } from '../../v1/parameters.js';
import { prepare } from './taxonomy-mutations.js';

/**
 * Translations of taxonomy items (spec §4.4); the service answers the spec's messages verbatim. The payload
 * carries the item read in the translation's language, so the new name shows.
 */

export interface TranslationInput {
  id: string;
  year: number;
  languageCode: string;
  translation: string;
}

/** The five translation mutations differ only in the item whose id they take. */
const translationInputParams = { id: taxonomyParams.id, ...translationFields } as const;

function translation(input: TranslationInput) {
  const p = validateParameters(
    translationInputParams,
    { id: input.id, reporting_year: input.year, language_code: input.languageCode, translation: input.translation },
    { id: 'input.id', reporting_year: 'input.year', language_code: 'input.languageCode', translation: 'input.translation' },
  );
  return { id: p.id, reportingYear: p.reporting_year, languageCode: p.language_code, translation: p.translation };
}

export const translationMutations = {
  async addCategoryTranslation(_: unknown, { input }: { input: TranslationInput }, ctx: GraphqlContext) {
    const { client, opts } = await prepare(ctx);
    const { id, ...rest } = translation(input);
    const answer = await client.addCategoryTranslation({ categoryId: id, ...rest }, opts);
    return changePayload(ctx, answer, 'category', read.category(ctx, id, rest.reportingYear, rest.languageCode));
  },
  async addSubCategoryTranslation(_: unknown, { input }: { input: TranslationInput }, ctx: GraphqlContext) {
    const { client, opts } = await prepare(ctx);
    const { id, ...rest } = translation(input);
    const answer = await client.addSubCategoryTranslation({ subCategoryId: id, ...rest }, opts);
    return changePayload(ctx, answer, 'subCategory', read.subCategory(ctx, id, rest.reportingYear, rest.languageCode));
  },
  async addSuperIndicatorTranslation(_: unknown, { input }: { input: TranslationInput }, ctx: GraphqlContext) {
    const { client, opts } = await prepare(ctx);
    const { id, ...rest } = translation(input);
    const answer = await client.addSuperIndicatorTranslation({ superIndicatorId: id, ...rest }, opts);
    return changePayload(ctx, answer, 'superIndicator', read.superIndicator(ctx, id, rest.reportingYear, rest.languageCode));
  },
  async addIndicatorTranslation(_: unknown, { input }: { input: TranslationInput }, ctx: GraphqlContext) {
    const { client, opts } = await prepare(ctx);
    const { id, ...rest } = translation(input);
    const answer = await client.addIndicatorTranslation({ indicatorId: id, ...rest }, opts);
    return changePayload(ctx, answer, 'indicator', read.indicator(ctx, id, rest.reportingYear, rest.languageCode));
  },
  async addUnitTranslation(_: unknown, { input }: { input: TranslationInput }, ctx: GraphqlContext) {
    const { client, opts } = await prepare(ctx);
    const { id, ...rest } = translation(input);
    const answer = await client.addUnitTranslation({ unitId: id, ...rest }, opts);
    return changePayload(ctx, answer, 'unit', read.unit(ctx, id, rest.reportingYear, rest.languageCode));
  },
};
