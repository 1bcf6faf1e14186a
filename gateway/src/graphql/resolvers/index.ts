import { accountMutations, accountQueries } from './account-resolvers.js';
import { chainMutations } from './chain-mutations.js';
import { chainQueries, chainTypes } from './chain-resolvers.js';
import { frameworkTypes } from './framework-resolvers.js';
import { nftMutations } from './nft-mutations.js';
import { nodeInterface, nodeQueries, nodeTypeResolvers } from './node-resolvers.js';
import { NFT_GUID, nftQueries } from './nft-resolvers.js';
import { portfolioMutations } from './portfolio-mutations.js';
import { portfolioQueries, portfolioTypes } from './portfolio-resolvers.js';
import { recomputeMutations, recomputeQueries, recomputeSubscriptions } from './recompute-resolvers.js';
import { subscriptionResolvers } from './subscription-resolvers.js';
import { taxonomyTypes } from './taxonomy-resolvers.js';
import { servicePaged } from '../pagination.js';
import { catalogue } from '../../catalogue/index.js';
import { frameworksConnection } from '../../catalogue/frameworks/frameworks.js';
import { projectsConnection } from '../../catalogue/frameworks/projects.js';
import { graphqlResolvers } from '../../catalogue/graphql.js';
import { userMutations, userQueries } from './user-resolvers.js';

const byId = (item: { id: string | number }) => item.id;
/** The ids of the lists the services page (positive serials). */
const SERVICE_ID = /^[1-9][0-9]{0,14}$/;
/** Account ids (UUIDs as the identity service issues them; the service refuses one that names no account). */
const ACCOUNT_ID = /^[0-9a-z]+(-[0-9a-z]+)+$/;
/** Recompute job ids (lower-case UUIDs, as the portfolio service answers them). */
const JOB_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** The root lists that grow with an account's data answer pages (pagination.ts); servicePaged: paged by their service. */
const pagedQueries = {
  users: servicePaged(userQueries.users, byId, SERVICE_ID),
  accounts: servicePaged(accountQueries.accounts, byId, ACCOUNT_ID),
  frameworks: servicePaged(frameworksConnection, byId, SERVICE_ID),
  projects: servicePaged(projectsConnection, byId, SERVICE_ID),
  assets: servicePaged(portfolioQueries.assets, byId, SERVICE_ID),
  investors: servicePaged(portfolioQueries.investors, byId, SERVICE_ID),
  positions: servicePaged(portfolioQueries.positions, byId, SERVICE_ID),
  portfolios: servicePaged(portfolioQueries.portfolios, byId, SERVICE_ID),
  documents: servicePaged(chainQueries.documents, byId, SERVICE_ID),
  nfts: servicePaged(nftQueries.nfts, (nft) => nft.guid, NFT_GUID),
  impactRecomputeJobs: servicePaged(recomputeQueries.impactRecomputeJobs, byId, JOB_ID),
};

/** The root fields the catalogue declares (catalogue/graphql.ts). */
const declared = graphqlResolvers(catalogue);

/** The resolver map of the schema; each domain contributes its Query and Mutation fields. */
export const resolvers = {
  Query: {
    ...declared.Query,
    ...accountQueries,
    ...userQueries,
    ...portfolioQueries,
    ...chainQueries,
    ...nftQueries,
    ...recomputeQueries,
    ...nodeQueries,
    ...pagedQueries,
  },
  Mutation: {
    ...declared.Mutation,
    ...accountMutations,
    ...userMutations,
    ...portfolioMutations,
    ...chainMutations,
    ...nftMutations,
    ...recomputeMutations,
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
