import { frameworkDomainOperations } from '../catalogue/frameworks/projects.js';
import { objectTypesSdl } from '../catalogue/objects.js';
import { orderTypesSdl, rootFieldsSdl } from '../catalogue/sdl.js';
import { frameworkObjects } from './framework-objects.js';
import { connectionType } from './pagination.js';

/**
 * SDL of frameworks and projects (spec §4.6–§4.7): the camelCase counterpart of getFrameworks,
 * getFrameworkDetails, getProjects and getProjectDetails, their object types declared in
 * framework-objects.ts. Appended to schema.ts's typeDefs; the changes are in framework-mutations-schema.ts. A framework's assets (Framework.assets) come from the portfolio
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

${objectTypesSdl(frameworkObjects)}${connectionType('Framework', 'frameworks')}${connectionType('Project', 'projects')}`;
