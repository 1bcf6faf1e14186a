import { makeExecutableSchema } from '@graphql-tools/schema';
import { resolvers } from './resolvers/index.js';
import { typeDefs } from './schema.js';
import { withUserErrors } from './user-errors.js';

/** The one schema both faces of GraphQL serve: Apollo over HTTP and graphql-ws over WebSocket. */
/** Built, then wired so every change payload answers its userErrors (user-errors.ts). */
export const schema = withUserErrors(makeExecutableSchema({ typeDefs, resolvers }));
