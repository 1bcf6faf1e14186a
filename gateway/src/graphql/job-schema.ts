import { objectTypesSdl } from '../catalogue/objects.js';
import { documentOutcomeObjects, jobObjects, jobOutcomeObjects } from './chain-objects.js';
import { USER_ERRORS_FIELD } from './user-errors.js';

/**
 * SDL of a blockchain job and its outcome (chain-schema.ts reads them, chain-mutations-schema.ts answers
 * them), their object types declared in chain-objects.ts. Appended to schema.ts's typeDefs.
 */
export const jobTypeDefs = /* GraphQL */ `
${objectTypesSdl(jobObjects)}
  "Answer of the mutations that queue a chain job (the document writes, the key-value calls, mintNft, transferNft, claimNft)."
  type JobPayload {
    "The job, QUEUED (or as it is when the same idempotencyKey was given before); poll job(id) or subscribe to jobUpdated for its outcome. Null only with userErrors."
    job: Job${USER_ERRORS_FIELD}
  }

  "A page of jobs."
  type JobConnection {
    "The jobs of the page (the nodes of edges, for clients that need no cursor per item)."
    nodes: [Job!]!
    "The jobs of the page, each with the cursor that resumes right after it (Relay)."
    edges: [JobEdge!]!
    "Where the page starts and ends."
    pageInfo: PageInfo!
  }

  "One of a page of jobs, with its cursor."
  type JobEdge {
    "Pass as after to read the jobs that follow this one."
    cursor: String!
    "The job."
    node: Job!
  }

  "Paging of a list (Relay's PageInfo; lists page forward, with first and after)."
  type PageInfo {
    "True when another page follows."
    hasNextPage: Boolean!
    "True when the page was asked for after a cursor, so items may precede it (forward paging does not look back further)."
    hasPreviousPage: Boolean!
    "The cursor of the page's first item; null on an empty page."
    startCursor: String
    "Pass as after to read the next page; null on an empty page."
    endCursor: String
  }

  "The direction of an ordered list (orderBy)."
  enum OrderDirection {
    "Lowest first; equal values in the order of creation."
    ASC
    "Highest first; equal values newest first."
    DESC
  }

${objectTypesSdl(jobOutcomeObjects)}
  "The proof formats a document's proof may be in (docs/chain.md, Proofs)."
  enum DocumentProofFormat {
    "greenimpact-document-proof/1, as getDocumentProof on /v1/call spells it."
    GREENIMPACT_DOCUMENT_PROOF_1
  }

  "How a document is anchored."
  enum DocumentProofMethod {
    "One of many documents under a Merkle root recorded on DocumentRoots."
    MERKLE
    "Anchored alone on DocumentRegistry (documents written before batching, or a network without DocumentRoots)."
    ANCHOR
  }

${objectTypesSdl(documentOutcomeObjects)}`;
