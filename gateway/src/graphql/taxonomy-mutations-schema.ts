import { payloadType } from './payloads.js';
import { USER_ERRORS_FIELD } from './user-errors.js';

/**
 * SDL of the changes to the taxonomy, its translations, currencies and FX rates (spec §4.3–§4.5), with
 * their input types and payloads. Appended to schema.ts's typeDefs.
 */
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
  extend type Mutation {
    "Adds a category, or renames one with newName (spec addCategory). Operators only."
    addCategory("The fields of the change, each described on AddCategoryInput." input: AddCategoryInput!): CategoryPayload!
    "Adds a sub category, or renames / moves one (spec addSubCategory). Operators only."
    addSubCategory("The fields of the change, each described on AddSubCategoryInput." input: AddSubCategoryInput!): SubCategoryPayload!
    "Links an SDG and/or an EU objective to a sub category (spec addGoalObjectiveToSubCategory). Operators only."
    addGoalObjectiveToSubCategory("The fields of the change, each described on GoalObjectiveInput." input: GoalObjectiveInput!): SubCategoryPayload!
    "Unlinks an SDG and/or an EU objective from a sub category (removeGoalObjectiveFromSubCategory). Operators only."
    removeGoalObjectiveFromSubCategory("The fields of the change, each described on GoalObjectiveInput." input: GoalObjectiveInput!): SubCategoryPayload!
    "Adds a unit, or renames one (spec addUnit). Operators only."
    addUnit("The fields of the change, each described on AddUnitInput." input: AddUnitInput!): UnitPayload!
    "Adds a super indicator to a category, or renames / moves one (spec addSuperIndicator). Operators only."
    addSuperIndicator("The fields of the change, each described on AddSuperIndicatorInput." input: AddSuperIndicatorInput!): SuperIndicatorPayload!
    "Adds an indicator, or renames / re-parents one / changes its unit (spec addIndicator). Operators only."
    addIndicator("The fields of the change, each described on AddIndicatorInput." input: AddIndicatorInput!): IndicatorPayload!
    "Removes a category and its translations; refused while anything uses it (removeCategory). Operators only."
    removeCategory("The fields of the change, each described on RemoveTaxonomyItemInput." input: RemoveTaxonomyItemInput!): RemovalPayload!
    "Removes a sub category, its goal links and translations; refused while anything uses it (removeSubCategory). Operators only."
    removeSubCategory("The fields of the change, each described on RemoveTaxonomyItemInput." input: RemoveTaxonomyItemInput!): RemovalPayload!
    "Removes a super indicator from one category, or from all of them (removeSuperIndicator). Operators only."
    removeSuperIndicator("The fields of the change, each described on RemoveSuperIndicatorInput." input: RemoveSuperIndicatorInput!): RemoveSuperIndicatorPayload!
    "Removes an indicator and its translations; refused while anything uses it (removeIndicator). Operators only."
    removeIndicator("The fields of the change, each described on RemoveTaxonomyItemInput." input: RemoveTaxonomyItemInput!): RemovalPayload!
    "Removes a unit and its translations; refused while indicators use it (removeUnit). Operators only."
    removeUnit("The fields of the change, each described on RemoveTaxonomyItemInput." input: RemoveTaxonomyItemInput!): RemovalPayload!
    "Adds or replaces a category's name in a language (spec addCategoryTranslation). Operators only."
    addCategoryTranslation("The fields of the change, each described on TranslationInput." input: TranslationInput!): CategoryPayload!
    "Adds or replaces a sub category's name in a language (spec addSubCategoryTranslation). Operators only."
    addSubCategoryTranslation("The fields of the change, each described on TranslationInput." input: TranslationInput!): SubCategoryPayload!
    "Adds or replaces a super indicator's name in a language (spec addSuperIndicatorTranslation). Operators only."
    addSuperIndicatorTranslation("The fields of the change, each described on TranslationInput." input: TranslationInput!): SuperIndicatorPayload!
    "Adds or replaces an indicator's name in a language (spec addIndicatorTranslation). Operators only."
    addIndicatorTranslation("The fields of the change, each described on TranslationInput." input: TranslationInput!): IndicatorPayload!
    "Adds or replaces a unit's name in a language (spec addUnitTranslation). Operators only."
    addUnitTranslation("The fields of the change, each described on TranslationInput." input: TranslationInput!): UnitPayload!
    "Registers a currency (spec addCurrency). Operators only."
    addCurrency("3-letter currency code, e.g. SEK." currencyCode: String!): CurrencyPayload!
    "Removes a currency; refused while FX rates, frameworks or projects use it (spec removeCurrency). Operators only."
    removeCurrency("3-letter currency code." currencyCode: String!): RemovalPayload!
    "Adds or replaces the FX rate of a currency pair for a year (spec addFXrate). Operators only."
    addFxRate("The fields of the change, each described on AddFxRateInput." input: AddFxRateInput!): FxRatePayload!
    "Removes the FX rate of a currency pair for a year, in both directions (spec removeFXrate). Operators only."
    removeFxRate("The fields of the change, each described on RemoveFxRateInput." input: RemoveFxRateInput!): RemovalPayload!
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
  "Input of addCategory."
  input AddCategoryInput {
    "Name to add, or the current name of the category to rename; at most 255 characters."
    name: String!
    "Reporting year, 4 digits."
    year: Int!
    "Original language of the name, one of languages."
    languageCode: String!
    "New name when renaming."
    newName: String
  }

  "Input of addSubCategory."
  input AddSubCategoryInput {
    "Name to add, or the current name of the sub category to change."
    name: String!
    "Category it belongs to (and is looked up in when changing)."
    categoryId: ID!
    "Reporting year, 4 digits."
    year: Int!
    "Original language of the name, one of languages."
    languageCode: String!
    "New name when renaming."
    newName: String
    "New category when moving it (spec category_id_changed)."
    newCategoryId: ID
  }

  "Input of addGoalObjectiveToSubCategory and removeGoalObjectiveFromSubCategory; give sdgId, euObjectiveId or both."
  input GoalObjectiveInput {
    "Sub category id."
    subCategoryId: ID!
    "Reporting year, 4 digits."
    year: Int!
    "SDG id."
    sdgId: ID
    "EU objective id."
    euObjectiveId: ID
  }

  "Input of addUnit."
  input AddUnitInput {
    "Name to add, or the current name of the unit to rename."
    name: String!
    "Reporting year, 4 digits."
    year: Int!
    "Original language of the name; default en."
    languageCode: String
    "New name when renaming."
    newName: String
  }

  "Input of addSuperIndicator."
  input AddSuperIndicatorInput {
    "Name to add, or the current name of the super indicator to change."
    name: String!
    "Category to link it to."
    categoryId: ID!
    "Reporting year, 4 digits."
    year: Int!
    "Original language of the name; default en."
    languageCode: String
    "New name when renaming."
    newName: String
    "Moves the link with categoryId to this category."
    newCategoryId: ID
  }

  "Input of addIndicator."
  input AddIndicatorInput {
    "Name to add, or the current name of the indicator to change."
    name: String!
    "Super indicator it belongs to (and is looked up in when changing)."
    superIndicatorId: ID!
    "Unit of its values; required when adding."
    unitId: ID
    "Reporting year, 4 digits."
    year: Int!
    "Original language of the name; default en."
    languageCode: String
    "New name when renaming."
    newName: String
    "New super indicator when re-parenting."
    newSuperIndicatorId: ID
    "New unit."
    newUnitId: ID
  }

  "Identifies a taxonomy item of a year to remove."
  input RemoveTaxonomyItemInput {
    "Id of the item."
    id: ID!
    "Reporting year, 4 digits."
    year: Int!
  }

  "Input of removeSuperIndicator."
  input RemoveSuperIndicatorInput {
    "Super indicator id."
    id: ID!
    "Reporting year, 4 digits."
    year: Int!
    "Only the link to this category; omitted: from every category, and the super indicator itself."
    categoryId: ID
  }

  "Input of the add…Translation mutations."
  input TranslationInput {
    "Id of the item to translate."
    id: ID!
    "Reporting year, 4 digits."
    year: Int!
    "Language of the translation, one of languages."
    languageCode: String!
    "The translated name, at most 255 characters."
    translation: String!
  }

  "Input of addFxRate."
  input AddFxRateInput {
    "Numerator currency code, 3 letters (spec currency_code_numerator)."
    numeratorCurrencyCode: String!
    "Denominator currency code, 3 letters (spec currency_code_denominator)."
    denominatorCurrencyCode: String!
    "numerator / denominator, positive (spec currency_code_quota)."
    rate: Float!
    "Reporting year, 4 digits."
    year: Int!
  }

  "Input of removeFxRate: the pair in either order."
  input RemoveFxRateInput {
    "One currency code of the pair."
    currencyCode1: String!
    "The other currency code."
    currencyCode2: String!
    "Reporting year, 4 digits."
    year: Int!
  }
`;
