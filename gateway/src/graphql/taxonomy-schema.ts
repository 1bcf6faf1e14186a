import { rootFieldsSdl } from '../catalogue/sdl.js';
import { getCurrencies, getFxRates } from '../catalogue/taxonomy/currencies.js';
import { getEuObjectives, getSdgs, yearReads } from '../catalogue/taxonomy/taxonomy.js';
import { getLanguages } from '../catalogue/taxonomy/translations.js';

/**
 * SDL of the taxonomy, languages, SDGs, EU objectives, currencies and FX rates (spec §4.3–§4.5): the
 * camelCase counterpart of the taxonomy service's /v1/call reads, their root fields written from their
 * declarations (catalogue/sdl.ts). Appended to schema.ts's typeDefs; the
 * changes are in taxonomy-mutations-schema.ts.
 */
export const taxonomyTypeDefs = /* GraphQL */ `
  extend type Query {${rootFieldsSdl('Query', [getSdgs, getEuObjectives, getLanguages, getCurrencies, getFxRates, ...yearReads])}
  }

  "A UN Sustainable Development Goal (spec SDG)."
  type Sdg {
    "SDG id (spec sdg_id)."
    id: ID!
    "Goal number, e.g. 7 (spec goal_no)."
    goalNo: String!
    "Goal name, e.g. Affordable and Clean Energy (spec sdg)."
    name: String!
    "Name of the language of name, e.g. English."
    language: String!
    "Code of the language of name, e.g. en."
    languageCode: String!
  }

  "An EU environmental objective of the Taxonomy Regulation (spec EU objective)."
  type EuObjective {
    "Objective id (spec eu_objectiv_id)."
    id: ID!
    "Objective number, e.g. 1 (spec objective_no)."
    objectiveNo: String!
    "Objective name, e.g. Climate change mitigation (spec objective)."
    name: String!
    "Name of the language of name."
    language: String!
    "Code of the language of name."
    languageCode: String!
  }

  "A language taxonomy items can be named in (spec language)."
  type Language {
    "Language id."
    id: ID!
    "Language code, e.g. sv or en-GB (spec language_code)."
    code: String!
    "Language name, e.g. Swedish (spec language)."
    name: String!
  }

  "A registered currency (spec currency)."
  type Currency {
    "Currency id."
    id: ID!
    "3-letter currency code, e.g. EUR (spec currency_code)."
    code: String!
  }

  "The FX rate of a currency pair in a year: 1 unit of the denominator currency is worth rate units of the numerator currency."
  type FxRate {
    "FX rate id (spec fx_conversion_id); null for identity and reciprocal pairs derived from stored rates."
    id: ID
    "Reporting year."
    year: Int!
    "Numerator currency code."
    numeratorCurrencyCode: String!
    "Denominator currency code."
    denominatorCurrencyCode: String!
    "numerator / denominator (spec fx_rate)."
    rate: Decimal!
    "True for identity pairs (rate 1) and reciprocals of stored pairs."
    derived: Boolean!
  }

  "A taxonomy category of a reporting year (spec category)."
  type Category implements Node {
    "Globally unique, opaque id for node(id:) and nodes(ids:) (Relay's Node), of the item in this year and language; id is unchanged."
    nodeId: ID!
    "Category id (spec category_id)."
    id: ID!
    "Category name, in the requested language when translated (spec category_name)."
    name: String!
    "Reporting year the category belongs to."
    year: Int!
    "Name of the language of name (spec language)."
    language: String!
    "Code of the language of name."
    languageCode: String!
    "Sub categories of the category."
    subCategories: [SubCategory!]!
    "Super indicators linked to the category."
    superIndicators: [SuperIndicator!]!
  }

  "A sub category of a category (spec sub category)."
  type SubCategory implements Node {
    "Globally unique, opaque id for node(id:) and nodes(ids:) (Relay's Node), of the item in this year and language; id is unchanged."
    nodeId: ID!
    "Sub category id (spec sub_category_id)."
    id: ID!
    "Sub category name (spec sub_category_name)."
    name: String!
    "Reporting year."
    year: Int!
    "Name of the language of name."
    language: String!
    "Code of the language of name."
    languageCode: String!
    "The category it belongs to."
    category: Category!
    "Linked UN SDGs (spec sdg), in goal-number order."
    sdgs: [Sdg!]!
    "Linked EU environmental objectives (spec eu_objective); may be empty."
    euObjectives: [EuObjective!]!
  }

  "A super indicator: a group of indicators, linked to one or more categories (spec super indicator)."
  type SuperIndicator implements Node {
    "Globally unique, opaque id for node(id:) and nodes(ids:) (Relay's Node), of the item in this year and language; id is unchanged."
    nodeId: ID!
    "Super indicator id (spec super_indicator_id)."
    id: ID!
    "Super indicator name (spec super_indicator_name)."
    name: String!
    "Reporting year."
    year: Int!
    "Name of the language of name."
    language: String!
    "Code of the language of name."
    languageCode: String!
    "Categories the super indicator is linked to."
    categories: [Category!]!
    "Indicators of the super indicator."
    indicators: [Indicator!]!
  }

  "An indicator: a measured impact, in a unit (spec indicator)."
  type Indicator implements Node {
    "Globally unique, opaque id for node(id:) and nodes(ids:) (Relay's Node), of the item in this year and language; id is unchanged."
    nodeId: ID!
    "Indicator id (spec indicator_id)."
    id: ID!
    "Indicator name (spec indicator_name)."
    name: String!
    "Reporting year."
    year: Int!
    "Name of the language of name."
    language: String!
    "Code of the language of name."
    languageCode: String!
    "The super indicator it belongs to."
    superIndicator: SuperIndicator!
    "Unit its values are given in."
    unit: Unit!
  }

  "A unit indicator values are given in (spec unit)."
  type Unit implements Node {
    "Globally unique, opaque id for node(id:) and nodes(ids:) (Relay's Node), of the item in this year and language; id is unchanged."
    nodeId: ID!
    "Unit id (spec unit_id)."
    id: ID!
    "Unit name, e.g. tCO2e (spec unit_name)."
    name: String!
    "Reporting year."
    year: Int!
    "Name of the language of name."
    language: String!
    "Code of the language of name."
    languageCode: String!
    "Indicators given in this unit."
    indicators: [Indicator!]!
  }

  "One row of the full taxonomy of a year (spec full taxonomy row)."
  type TaxonomyRow {
    "The row's category."
    category: Category!
    "The row's sub category."
    subCategory: SubCategory!
    "The row's super indicator."
    superIndicator: SuperIndicator!
    "The row's indicator."
    indicator: Indicator!
    "The indicator's unit."
    unit: Unit!
    "SDGs linked to the sub category."
    sdgs: [Sdg!]!
    "EU objectives linked to the sub category."
    euObjectives: [EuObjective!]!
    "Name of the language of the indicator's name (spec language)."
    language: String!
    "Code of that language."
    languageCode: String!
  }
`;
