import type { GraphqlContext } from '../context.js';
import { messageResult } from '../mappers.js';
import { taxonomyParams, translationFields } from '../../v1/operations/taxonomy-params.js';
import { validateParameters } from '../../v1/parameters.js';
import { prepare } from './taxonomy-mutations.js';

/** Translations of taxonomy items (spec §4.4); the service answers the spec's messages verbatim. */

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
    return messageResult(await client.addCategoryTranslation({ categoryId: id, ...rest }, opts));
  },
  async addSubCategoryTranslation(_: unknown, { input }: { input: TranslationInput }, ctx: GraphqlContext) {
    const { client, opts } = await prepare(ctx);
    const { id, ...rest } = translation(input);
    return messageResult(await client.addSubCategoryTranslation({ subCategoryId: id, ...rest }, opts));
  },
  async addSuperIndicatorTranslation(_: unknown, { input }: { input: TranslationInput }, ctx: GraphqlContext) {
    const { client, opts } = await prepare(ctx);
    const { id, ...rest } = translation(input);
    return messageResult(await client.addSuperIndicatorTranslation({ superIndicatorId: id, ...rest }, opts));
  },
  async addIndicatorTranslation(_: unknown, { input }: { input: TranslationInput }, ctx: GraphqlContext) {
    const { client, opts } = await prepare(ctx);
    const { id, ...rest } = translation(input);
    return messageResult(await client.addIndicatorTranslation({ indicatorId: id, ...rest }, opts));
  },
  async addUnitTranslation(_: unknown, { input }: { input: TranslationInput }, ctx: GraphqlContext) {
    const { client, opts } = await prepare(ctx);
    const { id, ...rest } = translation(input);
    return messageResult(await client.addUnitTranslation({ unitId: id, ...rest }, opts));
  },
};
