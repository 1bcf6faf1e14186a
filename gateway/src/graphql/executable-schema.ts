import { makeExecutableSchema } from '@graphql-tools/schema';
import { resolvers } from './resolvers/index.js';
import { typeDefs } from './schema.js';

/** The one schema both faces of GraphQL serve: Apollo over HTTP and graphql-ws over WebSocket. */
export const schema = makeExecutableSchema({ typeDefs, resolvers });
