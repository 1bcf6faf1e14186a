import { recomputeJobOperations } from '../catalogue/portfolio/recompute-jobs.js';
import { rootFieldsSdl } from '../catalogue/sdl.js';
import { connectionType } from './pagination.js';
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

  "A recompute of many positions' impacts, run in batches by the portfolio service; its progress as stored."
  type ImpactRecomputeJob implements Node {
    "Globally unique, opaque id for node(id:) and nodes(ids:) (Relay's Node); id is unchanged."
    nodeId: ID!
    "The job's id (UUID)."
    id: ID!
    "What it recomputes."
    scope: RecomputeScope!
    "The investor or portfolio recomputed; null for ACCOUNT and STALE."
    scopeIdentifier: String
    "The year recomputed; null for STALE (each impact keeps its year)."
    year: Int
    "Where it is."
    status: RecomputeStatus!
    "Positions done (STALE: impacts), counted as batches commit."
    done: Int!
    "Positions to do, counted when the job starts running."
    total: Int!
    "Why it failed (e.g. a missing FX rate); null otherwise."
    error: String
    "requested (a client started it) or taxonomy-change (a framework or FX change)."
    reason: String!
    "Times a replica took the job up (more than 1: taken over from one that stopped)."
    attempts: Int!
    "RFC 3339."
    createdAt: DateTime!
    "When a replica first took it up, RFC 3339; null while QUEUED."
    startedAt: DateTime
    "When it completed or failed, RFC 3339."
    finishedAt: DateTime
    "Who asked for the recompute: set when a bearer token authenticated the request; null for an API key or the service itself."
    actedBy: ActingPerson
  }

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
