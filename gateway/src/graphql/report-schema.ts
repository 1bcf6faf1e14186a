import { reportOperations } from '../catalogue/portfolio/reports.js';
import { rootFieldsSdl } from '../catalogue/sdl.js';

/**
 * SDL of the impact report links (catalogue/portfolio/reports.ts; not spec operations), written from their
 * declarations. Appended to schema.ts's typeDefs.
 */
export const reportTypeDefs = /* GraphQL */ `
  extend type Query {${rootFieldsSdl('Query', reportOperations)}
  }
`;
