import { accountMutations, accountQueries } from './account-resolvers.js';
import { chainMutations } from './chain-mutations.js';
import { chainQueries, chainTypes } from './chain-resolvers.js';
import { currencyMutations } from './currency-mutations.js';
import { frameworkMutations } from './framework-mutations.js';
import { frameworkQueries, frameworkTypes } from './framework-resolvers.js';
import { nftMutations } from './nft-mutations.js';
import { nftQueries } from './nft-resolvers.js';
import { portfolioMutations } from './portfolio-mutations.js';
import { portfolioQueries, portfolioTypes } from './portfolio-resolvers.js';
import { subscriptionResolvers } from './subscription-resolvers.js';
import { taxonomyMutations } from './taxonomy-mutations.js';
import { taxonomyQueries, taxonomyTypes } from './taxonomy-resolvers.js';
import { translationMutations } from './translation-mutations.js';
import { userMutations, userQueries } from './user-resolvers.js';

/** The resolver map of the schema; each domain contributes its Query and Mutation fields. */
export const resolvers = {
  Query: { ...accountQueries, ...userQueries, ...taxonomyQueries, ...frameworkQueries, ...portfolioQueries, ...chainQueries, ...nftQueries },
  Mutation: {
    ...accountMutations,
    ...userMutations,
    ...taxonomyMutations,
    ...translationMutations,
    ...currencyMutations,
    ...frameworkMutations,
    ...portfolioMutations,
    ...chainMutations,
    ...nftMutations,
  },
  Subscription: subscriptionResolvers,
  ...taxonomyTypes,
  ...frameworkTypes,
  ...portfolioTypes,
  ...chainTypes,
};
