import { accountQueries } from './account-resolvers.js';
import { nodeInterface, nodeQueries, nodeTypeResolvers } from './node-resolvers.js';
import { recomputeSubscriptions } from './recompute-resolvers.js';
import { subscriptionResolvers } from './subscription-resolvers.js';
import { catalogue } from '../../catalogue/index.js';
import { graphqlResolvers } from '../../catalogue/graphql.js';
import { objectResolvers } from '../../catalogue/objects.js';
import { frameworkObjects, taxonomyLayerType } from '../framework-objects.js';
import { portfolioObjects, recomputeJobType } from '../portfolio-objects.js';
import { taxonomyObjects } from '../taxonomy-objects.js';
import { chainObjects, documentOutcomeObjects, jobObjects, jobOutcomeObjects, jsonScalar } from '../chain-objects.js';
import { accountObjects, userObjects } from '../identity-objects.js';
import { nftObjects } from '../nft-objects.js';
import { scalarResolvers } from '../scalars.js';

/** The root fields the catalogue declares (catalogue/graphql.ts); its connections are paged by the adapter (GraphqlFace.paged). */
const declared = graphqlResolvers(catalogue);

/** The resolver map of the schema; each domain contributes its Query and Mutation fields. */
export const resolvers = {
  Query: {
    ...declared.Query,
    ...accountQueries,
    ...nodeQueries,
  },
  Mutation: {
    ...declared.Mutation,
  },
  Subscription: { ...subscriptionResolvers, ...recomputeSubscriptions },
  ...withNodeIds({ ...objectResolvers([
      ...accountObjects,
      ...userObjects,
      ...taxonomyObjects,
      ...frameworkObjects,
      taxonomyLayerType,
      ...portfolioObjects,
      recomputeJobType,
      ...chainObjects,
      ...jobObjects,
      ...jobOutcomeObjects,
      ...documentOutcomeObjects,
      ...nftObjects,
    ]), JSON: jsonScalar, ...scalarResolvers }),
  ...nodeInterface,
};

/** The domains' type resolvers with each Node type's nodeId added (node-resolvers.ts). */
function withNodeIds(types: Record<string, object>): Record<string, object> {
  const merged: Record<string, object> = { ...types };
  for (const [type, fields] of Object.entries(nodeTypeResolvers)) merged[type] = { ...merged[type], ...fields };
  return merged;
}
