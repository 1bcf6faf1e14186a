/**
 * SDL of the blockchain writes (spec §4.2 writes, §4.12): each queues a job of ChainService and answers it
 * at once, QUEUED; follow it with job(id). Appended to schema.ts's typeDefs. `idempotencyKey` plays the
 * HTTP Idempotency-Key header's part: the same key of the account answers the same job.
 */
export const chainMutationTypeDefs = /* GraphQL */ `
  extend type Mutation {
    "Writes a framework's document of a year to a network (spec writeJsonFrameworkToBlockchain / writeHtmlFrameworkToBlockchain)."
    writeFrameworkDocument("The fields of the change, each described on WriteFrameworkDocumentInput." input: WriteFrameworkDocumentInput!): Job!
    "Writes a position's impacts document of a year to a network (spec writeJsonPositionImpactsToBlockchain / writeHtml…)."
    writePositionImpactsDocument("The fields of the change, each described on WritePositionImpactsDocumentInput." input: WritePositionImpactsDocumentInput!): Job!
    "Stores a string under a key of the caller's namespace (spec insertString)."
    insertString("The fields of the change, each described on KeyValueInput." input: KeyValueInput!): Job!
    "Stores up to 32 bytes under a key of the caller's namespace (spec insertBytes32)."
    insertBytes32("The fields of the change, each described on KeyValueInput." input: KeyValueInput!): Job!
    "Reads a string key; the value arrives in the job's keyValue (spec selectString)."
    selectString("The fields of the change, each described on KeySelectInput." input: KeySelectInput!): Job!
    "Reads a bytes32 key; the value arrives in the job's keyValue (spec selectBytes32)."
    selectBytes32("The fields of the change, each described on KeySelectInput." input: KeySelectInput!): Job!
    "Revokes every signed link to a document handed out so far (Document.pageUrl, getHtml*FromBlockchain): they stop opening at once. Links asked for afterwards open; the account's key still opens the page."
    revokeDocumentLinks("The document's job id (or its entry id)." jobId: ID!): DocumentLinksRevoked!
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

  "Input of writeFrameworkDocument."
  input WriteFrameworkDocumentInput {
    "The framework's identifier (the caller's own, else another account's public one)."
    identifier: String!
    "Reporting year, 4 digits."
    year: Int!
    "JSON or HTML."
    format: DocumentFormat!
    "Network name, one of networks."
    network: String!
    "Decimals of the figures, 0 to 10; default 2."
    decimals: Int
    "Include the UN SDGs of each row; default false."
    sdgGoalsIncluded: Boolean
    "Include the EU environmental objectives of each row; default false."
    euObjectivesIncluded: Boolean
    "Language of the names; default each item's original language."
    languageCode: String
    "Same key, same job: a retry never writes twice."
    idempotencyKey: String
  }

  "Input of writePositionImpactsDocument."
  input WritePositionImpactsDocumentInput {
    "The position's id (one of the caller's)."
    positionId: ID!
    "Reporting year, 4 digits."
    year: Int!
    "JSON or HTML."
    format: DocumentFormat!
    "Network name, one of networks."
    network: String!
    "Decimals of the figures, 0 to 10; default 2."
    decimals: Int
    "Include the UN SDGs of each row; default false."
    sdgGoalsIncluded: Boolean
    "Include the EU environmental objectives of each row; default false."
    euObjectivesIncluded: Boolean
    "Language of the names; default each item's original language."
    languageCode: String
    "Include the investor's name and e-mail (PII) in the document; default false."
    writeInvestor: Boolean
    "Decrypts the investor's PII when it is stored encrypted."
    decryptionKey: String
    "Same key, same job: a retry never writes twice."
    idempotencyKey: String
  }

  "Input of insertString and insertBytes32."
  input KeyValueInput {
    "Network name, one of networks."
    network: String!
    "At most 32 characters."
    key: String!
    "insertBytes32: at most 32 characters and 32 bytes of UTF-8. insertString: up to the network's limit."
    value: String!
    "Same key, same job: a retry never writes twice."
    idempotencyKey: String
  }

  "Input of selectString and selectBytes32."
  input KeySelectInput {
    "Network name, one of networks."
    network: String!
    "At most 32 characters."
    key: String!
    "Same key, same job."
    idempotencyKey: String
  }
`;
