import { frameworkDomainOperations } from '../catalogue/frameworks/projects.js';
import { orderTypesSdl, rootFieldsSdl } from '../catalogue/sdl.js';
import { connectionType } from './pagination.js';

/**
 * SDL of frameworks and projects (spec §4.6–§4.7): the camelCase counterpart of getFrameworks,
 * getFrameworkDetails, getProjects and getProjectDetails. Appended to schema.ts's typeDefs; the changes
 * are in framework-mutations-schema.ts. A framework's assets (Framework.assets) come from the portfolio
 * service; the Asset type is in portfolio-schema.ts.
 */
export const frameworkTypeDefs = /* GraphQL */ `
  extend type Query {${rootFieldsSdl('Query', frameworkDomainOperations)}
  }
${orderTypesSdl(frameworkDomainOperations)}
  "Who sees a framework or project. Only its owner changes it, whatever the visibility."
  enum Visibility {
    "Every account sees it."
    PUBLIC
    "Only the owner's account sees it (the default)."
    PRIVATE
  }

  "A green (bond) framework with its figures of one reporting year (spec framework)."
  type Framework implements Node {
    "Globally unique, opaque id for node(id:) and nodes(ids:) (Relay's Node); id is unchanged."
    nodeId: ID!
    "Framework id (spec framework_id)."
    id: ID!
    "The owner's identifier for it, unique per account (spec framework_identifier)."
    identifier: String!
    "Name (spec framework_name)."
    name: String!
    "Currency of its amounts and volumes, 3 letters (spec framework_currency_code)."
    currencyCode: String!
    "Who sees it (spec framework_visibility)."
    visibility: Visibility!
    "True when the caller's account owns it; only the owner changes it."
    owned: Boolean!
    "The reporting year of yearSpecifics, rows and projects."
    year: Int!
    "Funding figures of the year; null when none were added for it."
    yearSpecifics: FrameworkYearSpecifics
    """
    Its (sub category, indicator) rows of the year (spec framework, the detail rows). Null, with an error, only
    for another account's framework whose identifier the caller also uses: a read by identifier gives the caller's own.
    """
    rows(
      "Language of the taxonomy names, one of languages; default: each name's original language."
      languageCode: String
    ): [FrameworkRow!]
    "Projects visible to the caller that are built into this framework, with their figures of the year."
    projects: [Project!]!
    """
    Assets visible to the caller that finance this framework (linked to it when added). Null, with an error, only
    when the portfolio service cannot answer (e.g. SERVICE_UNAVAILABLE): the framework's own fields stand.
    """
    assets: [Asset!]
  }

  "A framework's funding figures of one year (spec addYearSpecificsToFramework)."
  type FrameworkYearSpecifics {
    "Funding raised for the framework in the year, V (spec framework_value_outstanding)."
    valueOutstanding: Decimal!
    "Funding allocated to projects in the year, L (spec framework_allocated_amount)."
    allocatedAmount: Decimal!
    "allocatedAmount ÷ valueOutstanding × 100, 0 when valueOutstanding is 0; may exceed 100 (spec framework_active_percentage)."
    activePercentage: Decimal!
    "True when use of proceeds relates to the value outstanding, false when to the allocated amount (spec value_outstanding_framework yes / no)."
    valueOutstandingFramework: Boolean!
  }

  "A project, built into a framework (spec project)."
  type Project implements Node {
    "Globally unique, opaque id for node(id:) and nodes(ids:) (Relay's Node); id is unchanged."
    nodeId: ID!
    "Project id (spec project_id)."
    id: ID!
    "The owner's identifier for it, unique per account (spec project_identifier)."
    identifier: String!
    "Name (spec project_name)."
    name: String!
    "Currency of its amounts and volumes, 3 letters (spec project_currency_code)."
    currencyCode: String!
    "Who sees it (spec project_visibility)."
    visibility: Visibility!
    "True when the caller's account owns it; only the owner changes it."
    owned: Boolean!
    "The reporting year of allocatedAmount and rows."
    year: Int!
    "Amount allocated to the project in the year, in its currency; null when none was added (spec project_allocated_amount)."
    allocatedAmount: Decimal
    "Identifier of the framework it is built into (spec framework_identifier)."
    frameworkIdentifier: String!
    "The framework it is built into, with its figures of the year; null when that framework is no longer visible to the caller."
    framework: Framework
    """
    Its (sub category, indicator) rows of the year (spec project, the detail rows). Null, with an error, only for
    another account's project whose identifier the caller also uses.
    """
    rows(
      "Language of the taxonomy names, one of languages; default: each name's original language."
      languageCode: String
    ): [FrameworkRow!]
  }

  "One (sub category, indicator) row of a framework, project or asset (attributed) for a year: the volume of the sub category and the indicator's value."
  type FrameworkRow {
    "Category of the sub category."
    category: Category!
    "The sub category funded."
    subCategory: SubCategory!
    "Super indicator of the indicator."
    superIndicator: SuperIndicator!
    "The indicator reported."
    indicator: Indicator!
    "Unit of value."
    unit: Unit!
    "Funding / use of proceeds of the sub category, in currencyCode; the same in every row of the sub category (spec sub_category_volume). An asset's rows: the asset's share of it."
    volume: Decimal!
    "Currency of volume: the framework's, the project's or, in an asset's rows, the asset's (spec framework_currency_code / project_currency_code / currency_code)."
    currencyCode: String!
    "The indicator's value, in its unit (spec indicator_value). An asset's rows: the asset's share of it."
    value: Decimal!
    "Reporting year."
    year: Int!
    "SDGs linked to the sub category (spec sdg)."
    sdgs: [Sdg!]!
    "EU environmental objectives linked to the sub category (spec eu_objective)."
    euObjectives: [EuObjective!]!
    "Name of the language of the indicator's name, e.g. Swedish (spec language)."
    language: String!
    "Code of that language, e.g. sv."
    languageCode: String!
  }
${connectionType('Framework', 'frameworks')}${connectionType('Project', 'projects')}`;
