import { inputTypesSdl, rootFieldsSdl } from '../catalogue/sdl.js';
import { currencyOperations } from '../catalogue/taxonomy/currencies.js';
import { taxonomyOperations } from '../catalogue/taxonomy/taxonomy.js';
import { translationOperations } from '../catalogue/taxonomy/translations.js';
import { payloadType } from './payloads.js';
import { USER_ERRORS_FIELD } from './user-errors.js';

/**
 * SDL of the changes to the taxonomy, its translations, currencies and FX rates (spec §4.3–§4.5), with
 * their payloads; the root fields and input types are written from their declarations (catalogue/sdl.ts).
 * Appended to schema.ts's typeDefs.
 */
const TAXONOMY_CHANGES = [...taxonomyOperations, ...translationOperations, ...currencyOperations];
const READ_AS = 'read after the change as categories(year) would show it';
const payloadTypeDefs =
  payloadType('CategoryPayload', 'Answer of addCategory and addCategoryTranslation.', 'category', 'Category', `The category, ${READ_AS}: in its original language, or the translation's language for addCategoryTranslation.`) +
  payloadType('SubCategoryPayload', 'Answer of addSubCategory, its goal links and translation.', 'subCategory', 'SubCategory', `The sub category, ${READ_AS.replace('categories', 'subCategories')}: in its original language, or the translation's language.`) +
  payloadType('SuperIndicatorPayload', 'Answer of addSuperIndicator and addSuperIndicatorTranslation.', 'superIndicator', 'SuperIndicator', `The super indicator, ${READ_AS.replace('categories', 'superIndicators')}: in its original language, or the translation's language.`) +
  payloadType('IndicatorPayload', 'Answer of addIndicator and addIndicatorTranslation.', 'indicator', 'Indicator', `The indicator, ${READ_AS.replace('categories', 'indicators')}: in its original language, or the translation's language.`) +
  payloadType('UnitPayload', 'Answer of addUnit and addUnitTranslation.', 'unit', 'Unit', `The unit, ${READ_AS.replace('categories', 'units')}: in its original language, or the translation's language.`) +
  payloadType('CurrencyPayload', 'Answer of addCurrency.', 'currency', 'Currency', 'The currency, as currencies shows it.') +
  payloadType('FxRatePayload', 'Answer of addFxRate.', 'fxRate', 'FxRate', 'The stored rate of the pair as given (numerator / denominator), as fxRates(year) shows it.');

export const taxonomyMutationTypeDefs = /* GraphQL */ `
  extend type Mutation {${rootFieldsSdl('Mutation', TAXONOMY_CHANGES)}
  }

  "Answer of removeSuperIndicator."
  type RemoveSuperIndicatorPayload {
    "The service's message, as /v1/call returns it."
    message: String!
    "Id of the item created, changed or removed, when the service answers one."
    id: ID
    "The super indicator's id when it was removed (no categoryId given); null when only its link to a category went."
    removedId: ID
    "With categoryId: the super indicator, still linked to its other categories, as superIndicators(year) shows it; null otherwise."
    superIndicator: SuperIndicator${USER_ERRORS_FIELD}
  }
${payloadTypeDefs}
${inputTypesSdl(TAXONOMY_CHANGES)}`;
