import { frameworkDomainOperations } from '../catalogue/frameworks/projects.js';
import { inputTypesSdl, rootFieldsSdl } from '../catalogue/sdl.js';
import { USER_ERRORS_FIELD } from './user-errors.js';
/**
 * SDL of the changes to frameworks and projects (spec §4.6–§4.7), their root fields and input types written from their declarations (catalogue/sdl.ts). Appended to
 * schema.ts's typeDefs. Any account may have frameworks and projects; only the owner changes them
 * (`Not authorized.`, extensions.code FORBIDDEN).
 */
export const frameworkMutationTypeDefs = /* GraphQL */ `
  extend type Mutation {${rootFieldsSdl('Mutation', frameworkDomainOperations)}
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

${inputTypesSdl(frameworkDomainOperations)}`;
