import { recomputeJobOperations } from '../catalogue/portfolio/recompute-jobs.js';
import { objectTypesSdl } from '../catalogue/objects.js';
import { rootFieldsSdl } from '../catalogue/sdl.js';
import { connectionType } from './pagination.js';
import { recomputeJobType } from './portfolio-objects.js';
import { USER_ERRORS_FIELD } from './user-errors.js';

/**
 * SDL of impact recompute jobs (not spec operations): a recompute of a whole investor, portfolio or account,
 * or of the impacts a framework or FX change made stale, runs in the portfolio service as a job. Appended to
 * schema.ts's typeDefs, after the Subscription type it extends.
 */
export const recomputeTypeDefs = /* GraphQL */ `
  "What a recompute job recomputes."
  enum RecomputeScope {
    "Every position of an investor (investorIdentifier), for year."
    INVESTOR
    "Every position of a portfolio (portfolioIdentifier), for year."
    PORTFOLIO
    "Every position of the account, for year."
    ACCOUNT
    "Every stale impact of the account, each for its own year (what framework and FX changes start)."
    STALE
  }

  "Where a recompute job is: QUEUED, RUNNING, then COMPLETED or FAILED."
  enum RecomputeStatus {
    "Waiting for a replica of the portfolio service to take it up."
    QUEUED
    "Being recomputed, batch by batch (done counts the positions whose batch committed)."
    RUNNING
    "Every position of the scope recomputed."
    COMPLETED
    "Stopped on the reason in error; the batches done before stay written."
    FAILED
  }

${objectTypesSdl([recomputeJobType])}
  "Answer of startImpactRecompute."
  type StartImpactRecomputePayload {
    "The service's message."
    message: String!
    "False when the same recompute was already queued or running: job is that one. Null only with userErrors."
    created: Boolean
    "The job, QUEUED (or as it is when it was already there); null only with userErrors."
    job: ImpactRecomputeJob${USER_ERRORS_FIELD}
  }

  extend type Query {${rootFieldsSdl('Query', recomputeJobOperations)}
  }

  extend type Mutation {${rootFieldsSdl('Mutation', recomputeJobOperations)}
  }

  extend type Subscription {
    """
    A recompute job as it progresses: its current state first, then each change of status or progress, polled
    from the stored job (any replica's work); the stream ends after COMPLETED or FAILED.
    """
    impactRecomputeJobUpdated("The job's id." id: ID!): ImpactRecomputeJob!
  }
${connectionType('ImpactRecomputeJob', 'recompute jobs')}`;
