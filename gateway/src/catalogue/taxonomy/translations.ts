import { changePayload } from '../../graphql/payloads.js';
import { identifier, int, text } from '../fields.js';
import { declare } from '../operation.js';
import { ESG } from '../renders.js';
import { languageRow } from './rows.js';
import { taxonomyChange, readItem, type Item } from './taxonomy.js';

/**
 * Languages and translations of taxonomy items (spec §4.4). The service answers the spec's messages
 * verbatim (`category translation added`, …) and owns the rules (a known language, 1 to 255 characters).
 * A translation's GraphQL payload carries the item read in the translation's language, so the new name shows.
 */

export const getLanguages = declare({
  solution: ESG,
  operation: 'getLanguages',
  summary: 'Languages taxonomy items can be translated into.',
  input: {},
  service: 'taxonomy',
  method: 'getLanguages',
  request: () => ({}),
  v1: (res) => res.languages.map(languageRow),
  graphql: {
    root: 'Query',
    field: 'languages',
    returns: '[Language!]!',
    nested: false,
    render: async (call) => (await call()).languages,
  },
});

/** The five translations differ only in the item whose id they take (GraphQL: `id`). */
function translation<M extends string>(method: M, item: Item, idName: string, what: string, a = 'a') {
  return {
    ...taxonomyChange(method, `Adds or replaces the name of ${a} ${what} of a year in a language. Operators only.`),
    input: {
      id: int(idName, { doc: `The ${what}.`, graphql: 'ID' }),
      year: int('reporting_year', { doc: 'Reporting year, 4 digits.' }),
      languageCode: identifier('language_code', { doc: 'The language, one of languages.' }),
      translation: text('translation', { doc: 'The name in that language, at most 255 characters.' }),
    },
    graphql: {
      root: 'Mutation' as const,
      field: method,
      nested: true,
      input: { name: 'TranslationInput', doc: 'Input of the add…Translation mutations.', fields: { id: 'Id of the item to translate.' } },
      returns: `${item[0]!.toUpperCase()}${item.slice(1)}Payload!`,
      render: async (
        call: () => Promise<{ message: string; id?: number | undefined }>,
        i: { id: number; year: number; languageCode: string },
        ctx: Parameters<typeof changePayload>[0],
      ) => changePayload(ctx, await call(), item, readItem(ctx, item, i.id, i.year, i.languageCode)),
    },
  };
}

const fields = (i: { year: number; languageCode: string; translation: string }) => ({
  reportingYear: i.year,
  languageCode: i.languageCode,
  translation: i.translation,
});

export const addCategoryTranslation = declare({
  ...translation('addCategoryTranslation', 'category', 'category_id', 'category'),
  request: (i) => ({ categoryId: i.id, ...fields(i) }),
});
export const addSubCategoryTranslation = declare({
  ...translation('addSubCategoryTranslation', 'subCategory', 'sub_category_id', 'sub category'),
  request: (i) => ({ subCategoryId: i.id, ...fields(i) }),
});
export const addSuperIndicatorTranslation = declare({
  ...translation('addSuperIndicatorTranslation', 'superIndicator', 'super_indicator_id', 'super indicator'),
  request: (i) => ({ superIndicatorId: i.id, ...fields(i) }),
});
export const addIndicatorTranslation = declare({
  ...translation('addIndicatorTranslation', 'indicator', 'indicator_id', 'indicator', 'an'),
  request: (i) => ({ indicatorId: i.id, ...fields(i) }),
});
export const addUnitTranslation = declare({
  ...translation('addUnitTranslation', 'unit', 'unit_id', 'unit'),
  request: (i) => ({ unitId: i.id, ...fields(i) }),
});

export const translationOperations = [
  getLanguages,
  addCategoryTranslation,
  addSubCategoryTranslation,
  addSuperIndicatorTranslation,
  addIndicatorTranslation,
  addUnitTranslation,
];
