import { accountMutations, accountQueries } from './account-resolvers.js';
import { userMutations, userQueries } from './user-resolvers.js';

/** The resolver map handed to Apollo; each domain contributes its Query and Mutation fields. */
export const resolvers = {
  Query: { ...accountQueries, ...userQueries },
  Mutation: { ...accountMutations, ...userMutations },
};
