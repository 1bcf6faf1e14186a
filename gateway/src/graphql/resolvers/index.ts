import { accountMutations, accountQueries } from './account-resolvers.js';
import { chainMutations } from './chain-mutations.js';
import { chainQueries, chainTypes } from './chain-resolvers.js';
import { frameworkMutations } from './framework-mutations.js';
import { frameworkQueries, frameworkTypes } from './framework-resolvers.js';
import { nftMutations } from './nft-mutations.js';
import { nodeInterface, nodeQueries, nodeTypeResolvers } from './node-resolvers.js';
import { NFT_GUID, nftQueries } from './nft-resolvers.js';
import { portfolioTypes } from './portfolio-resolvers.js';
import { recomputeSubscriptions } from './recompute-resolvers.js';
import { subscriptionResolvers } from './subscription-resolvers.js';
import { taxonomyMutations } from './taxonomy-mutations.js';
import { taxonomyQueries, taxonomyTypes } from './taxonomy-resolvers.js';
import { translationMutations } from './translation-mutations.js';
import { servicePaged } from '../pagination.js';
import { catalogue } from '../../catalogue/index.js';
import { graphqlResolvers } from '../../catalogue/graphql.js';
import { userMutations, userQueries } from './user-resolvers.js';

const byId = (item: { id: string | number }) => item.id;
/** The ids of the lists the services page (positive serials). */
const SERVICE_ID = /^[1-9][0-9]{0,14}$/;
/** Account ids (UUIDs as the identity service issues them; the service refuses one that names no account). */
const ACCOUNT_ID = /^[0-9a-z]+(-[0-9a-z]+)+$/;

/**
 * The root lists that grow with an account's data answer pages (pagination.ts); servicePaged: paged by their service.
 * The catalogue's connections are paged by its adapter (GraphqlFace.paged).
 */
const pagedQueries = {
  users: servicePaged(userQueries.users, byId, SERVICE_ID),
  accounts: servicePaged(accountQueries.accounts, byId, ACCOUNT_ID),
  frameworks: servicePaged(frameworkQueries.frameworks, byId, SERVICE_ID),
  projects: servicePaged(frameworkQueries.projects, byId, SERVICE_ID),
  documents: servicePaged(chainQueries.documents, byId, SERVICE_ID),
  nfts: servicePaged(nftQueries.nfts, (nft) => nft.guid, NFT_GUID),
};

/** The root fields the catalogue declares (catalogue/graphql.ts). */
const declared = graphqlResolvers(catalogue);

/** The resolver map of the schema; each domain contributes its Query and Mutation fields. */
export const resolvers = {
  Query: {
    ...declared.Query,
    ...accountQueries,
    ...userQueries,
    ...taxonomyQueries,
    ...frameworkQueries,
    ...chainQueries,
    ...nftQueries,
    ...nodeQueries,
    ...pagedQueries,
  },
  Mutation: {
    ...declared.Mutation,
    ...accountMutations,
    ...userMutations,
    ...taxonomyMutations,
    ...translationMutations,
    ...frameworkMutations,
    ...chainMutations,
    ...nftMutations,
  },
  Subscription: { ...subscriptionResolvers, ...recomputeSubscriptions },
  ...withNodeIds({ ...taxonomyTypes, ...frameworkTypes, ...portfolioTypes, ...chainTypes }),
  ...nodeInterface,
};

/** The domains' type resolvers with each Node type's nodeId added (node-resolvers.ts). */
function withNodeIds(types: Record<string, object>): Record<string, object> {
  const merged: Record<string, object> = { ...types };
  for (const [type, fields] of Object.entries(nodeTypeResolvers)) merged[type] = { ...merged[type], ...fields };
  return merged;
}
