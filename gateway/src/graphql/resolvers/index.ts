import { accountQueries } from './account-resolvers.js';
import { frameworkTypes } from './framework-resolvers.js';
import { nodeInterface, nodeQueries, nodeTypeResolvers } from './node-resolvers.js';
import { portfolioTypes } from './portfolio-resolvers.js';
import { recomputeSubscriptions } from './recompute-resolvers.js';
import { subscriptionResolvers } from './subscription-resolvers.js';
import { taxonomyTypes } from './taxonomy-resolvers.js';
import { SERVICE_ID, servicePaged } from '../pagination.js';
import { catalogue } from '../../catalogue/index.js';
import { graphqlResolvers } from '../../catalogue/graphql.js';
import { jsonScalar } from '../chain-objects.js';
import { frameworksConnection } from '../../catalogue/frameworks/frameworks.js';
import { projectsConnection } from '../../catalogue/frameworks/projects.js';

const byId = (item: { id: string | number }) => item.id;

/** The root fields the catalogue declares (catalogue/graphql.ts). */
const declared = graphqlResolvers(catalogue);

/**
 * The root lists that grow with an account's data answer pages (pagination.ts); servicePaged: paged by their service.
 * The catalogue's connections are paged by its adapter (GraphqlFace.paged).
 */
const pagedQueries = {
  frameworks: servicePaged(frameworksConnection, byId, SERVICE_ID),
  projects: servicePaged(projectsConnection, byId, SERVICE_ID),
};

/** The resolver map of the schema; each domain contributes its Query and Mutation fields. */
export const resolvers = {
  Query: {
    ...declared.Query,
    ...accountQueries,
    ...nodeQueries,
    ...pagedQueries,
  },
  Mutation: {
    ...declared.Mutation,
  },
  Subscription: { ...subscriptionResolvers, ...recomputeSubscriptions },
  ...withNodeIds({ ...taxonomyTypes, ...frameworkTypes, ...portfolioTypes, JSON: jsonScalar }),
  ...nodeInterface,
};

/** The domains' type resolvers with each Node type's nodeId added (node-resolvers.ts). */
function withNodeIds(types: Record<string, object>): Record<string, object> {
  const merged: Record<string, object> = { ...types };
  for (const [type, fields] of Object.entries(nodeTypeResolvers)) merged[type] = { ...merged[type], ...fields };
  return merged;
}
