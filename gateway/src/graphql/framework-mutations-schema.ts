import { USER_ERRORS_FIELD } from './user-errors.js';
/**
 * SDL of the changes to frameworks and projects (spec §4.6–§4.7), with their input types. Appended to
 * schema.ts's typeDefs. Any account may have frameworks and projects; only the owner changes them
 * (`Not authorized.`, extensions.code PERMISSION_DENIED).
 */
export const frameworkMutationTypeDefs = /* GraphQL */ `
  extend type Mutation {
    "Adds a framework to the caller's account, or updates the caller's one with this identifier (spec addFramework)."
    addFramework("The fields of the change, each described on AddFrameworkInput." input: AddFrameworkInput!): FrameworkPayload!
    "Adds or replaces a framework's funding figures of a year (spec addYearSpecificsToFramework)."
    addYearSpecificsToFramework("The fields of the change, each described on FrameworkYearSpecificsInput." input: FrameworkYearSpecificsInput!): FrameworkPayload!
    "Adds or updates a (sub category, indicator) row of a framework for a year (spec addCategoryIndicatorToFramework)."
    addCategoryIndicatorToFramework("The fields of the change, each described on CategoryIndicatorInput." input: CategoryIndicatorInput!): FrameworkPayload!
    "Removes one (sub category, indicator) row of a framework for a year (spec removeIndicatorFromFramework)."
    removeIndicatorFromFramework("The fields of the change, each described on RemoveIndicatorRowInput." input: RemoveIndicatorRowInput!): FrameworkPayload!
    "Removes every row of a sub category from a framework for a year (spec removeCategoryFromFramework)."
    removeCategoryFromFramework("The fields of the change, each described on RemoveSubCategoryRowsInput." input: RemoveSubCategoryRowsInput!): FrameworkPayload!
    "Removes a framework's funding figures of a year; its rows stay (spec removeFrameworkYearSpecifics)."
    removeFrameworkYearSpecifics(
      "The framework's identifier."
      identifier: String!
      "Reporting year, 4 digits."
      year: Int!
    ): FrameworkPayload!
    "Removes a framework with its figures and rows of every year; refused while projects are built into it (spec removeFramework)."
    removeFramework("The framework's identifier." identifier: String!): RemovalPayload!
    "Adds a project to the caller's account, or updates the caller's one with this identifier (spec addProject)."
    addProject("The fields of the change, each described on AddProjectInput." input: AddProjectInput!): ProjectPayload!
    "Adds or replaces the amount allocated to a project in a year (spec addYearSpecificsToProject)."
    addYearSpecificsToProject("The fields of the change, each described on ProjectYearSpecificsInput." input: ProjectYearSpecificsInput!): ProjectPayload!
    "Adds or updates a (sub category, indicator) row of a project for a year (spec addCategoryIndicatorToProject)."
    addCategoryIndicatorToProject("The fields of the change, each described on CategoryIndicatorInput." input: CategoryIndicatorInput!): ProjectPayload!
    """
    Replaces a framework's rows of a year with the sums of the caller's projects built into it, volumes converted
    to the framework currency (spec buildFrameworkFromProjects).
    """
    buildFrameworkFromProjects(
      "The framework's identifier."
      identifier: String!
      "Reporting year, 4 digits; the framework needs year specifics for it."
      year: Int!
    ): FrameworkPayload!
    "Removes one (sub category, indicator) row of a project for a year (spec removeIndicatorFromProject)."
    removeIndicatorFromProject("The fields of the change, each described on RemoveIndicatorRowInput." input: RemoveIndicatorRowInput!): ProjectPayload!
    "Removes every row of a sub category from a project for a year (spec removeCategoryFromProject)."
    removeCategoryFromProject("The fields of the change, each described on RemoveSubCategoryRowsInput." input: RemoveSubCategoryRowsInput!): ProjectPayload!
    "Removes the amount allocated to a project in a year; its rows stay (spec removeYearSpecificsFromProject)."
    removeYearSpecificsFromProject(
      "The project's identifier."
      identifier: String!
      "Reporting year, 4 digits."
      year: Int!
    ): ProjectPayload!
    "Removes a project with its figures and rows of every year (spec removeProject)."
    removeProject("The project's identifier." identifier: String!): RemovalPayload!
  }

  "Answer of addFramework and the other changes of a framework that leave it in place."
  type FrameworkPayload {
    "The service's message, as /v1/call returns it."
    message: String!
    "Id of the item created, changed or removed, when the service answers one."
    id: ID
    "The framework as framework(identifier, year) reads it for the caller after the change; null when the caller cannot read it."
    framework(
      "Year of its year-specific fields (yearSpecifics, rows, projects); default: the change's year, else (addFramework) the current UTC year."
      year: Int
    ): Framework${USER_ERRORS_FIELD}
  }

  "Answer of addProject and the other changes of a project that leave it in place."
  type ProjectPayload {
    "The service's message, as /v1/call returns it."
    message: String!
    "Id of the item created, changed or removed, when the service answers one."
    id: ID
    "The project as project(identifier, year) reads it for the caller after the change; null when the caller cannot read it."
    project(
      "Year of its year-specific fields (allocatedAmount, rows, framework); default: the change's year, else (addProject) the current UTC year."
      year: Int
    ): Project${USER_ERRORS_FIELD}
  }

  "Input of addFramework."
  input AddFrameworkInput {
    "The caller's identifier for the framework, at most 255 characters on one line."
    identifier: String!
    "Name, at most 255 characters."
    name: String!
    "A registered currency, 3 letters."
    currencyCode: String!
    "Who sees it; PRIVATE on add and unchanged on update when omitted."
    visibility: Visibility
  }

  "Input of addYearSpecificsToFramework. Amounts are finite, from 0 to 10^15, in the framework currency."
  input FrameworkYearSpecificsInput {
    "The framework's identifier."
    identifier: String!
    "Reporting year, 4 digits."
    year: Int!
    "Funding raised for the framework in the year, V."
    valueOutstanding: Float!
    "Funding allocated to projects in the year, L."
    allocatedAmount: Float!
    "True when use of proceeds relates to the value outstanding, false when to the allocated amount."
    valueOutstandingFramework: Boolean!
  }

  "Input of addCategoryIndicatorToFramework and addCategoryIndicatorToProject."
  input CategoryIndicatorInput {
    "The framework's or project's identifier."
    identifier: String!
    "Reporting year, 4 digits; the sub category and indicator must be of this year."
    year: Int!
    "Sub category id."
    subCategoryId: ID!
    """
    Funding / use of proceeds of the sub category, in the framework's or project's currency; from 0 to 10^15.
    One per sub category: it replaces the volume in the sub category's other rows.
    """
    volume: Float!
    "Indicator id."
    indicatorId: ID!
    "The indicator's value in its unit, from 0 to 10^15."
    value: Float!
  }

  "Identifies one (sub category, indicator) row of a framework or project."
  input RemoveIndicatorRowInput {
    "The framework's or project's identifier."
    identifier: String!
    "Reporting year, 4 digits."
    year: Int!
    "Sub category id."
    subCategoryId: ID!
    "Indicator id."
    indicatorId: ID!
  }

  "Identifies the rows of one sub category of a framework or project."
  input RemoveSubCategoryRowsInput {
    "The framework's or project's identifier."
    identifier: String!
    "Reporting year, 4 digits."
    year: Int!
    "Sub category id."
    subCategoryId: ID!
  }

  "Input of addProject."
  input AddProjectInput {
    "The caller's identifier for the project, at most 255 characters on one line."
    identifier: String!
    "Name, at most 255 characters."
    name: String!
    "A registered currency, 3 letters."
    currencyCode: String!
    "The framework it is built into: the caller's own with this identifier, else a public one."
    frameworkIdentifier: String!
    "Who sees it; PRIVATE on add and unchanged on update when omitted."
    visibility: Visibility
  }

  "Input of addYearSpecificsToProject."
  input ProjectYearSpecificsInput {
    "The project's identifier."
    identifier: String!
    "Reporting year, 4 digits."
    year: Int!
    "Amount allocated to the project in the year, in its currency; from 0 to 10^15."
    allocatedAmount: Float!
  }
`;
