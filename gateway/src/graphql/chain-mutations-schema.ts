import { documentOperations, revokeDocumentLinks, writeFrameworkDocument, writePositionImpactsDocument } from '../catalogue/chain/documents.js';
import { keyValueOperations } from '../catalogue/chain/key-value.js';
import { inputTypesSdl, rootFieldsSdl } from '../catalogue/sdl.js';
import { USER_ERRORS_FIELD } from './user-errors.js';

/**
 * SDL of the blockchain writes (spec §4.2 writes, §4.12): each queues a job of ChainService and answers it
 * at once, QUEUED, in a JobPayload; follow it with job(id). Appended to schema.ts's typeDefs.
 * `idempotencyKey` plays the HTTP Idempotency-Key header's part: the same key of the account answers the
 * same job.
 */
export const chainMutationTypeDefs = /* GraphQL */ `
  extend type Mutation {${rootFieldsSdl('Mutation', [writeFrameworkDocument, writePositionImpactsDocument, ...keyValueOperations, revokeDocumentLinks])}
  }

  "Answer of revokeDocumentLinks."
  type RevokeDocumentLinksPayload {
    "The document's job and its new link epoch; null only with userErrors."
    revoked: DocumentLinksRevoked${USER_ERRORS_FIELD}
  }

  "Outcome of revokeDocumentLinks."
  type DocumentLinksRevoked {
    "The document's job."
    jobId: ID!
    "The document's new link epoch: links signed for an earlier one no longer open."
    linkEpoch: Int!
  }

  "Format of a written document."
  enum DocumentFormat {
    "UTF-8 JSON."
    JSON
    "A self-contained HTML page."
    HTML
  }

${inputTypesSdl([...documentOperations, ...keyValueOperations])}`;
