import { USER_ERRORS_FIELD } from './user-errors.js';

/**
 * SDL of a blockchain job and its outcome (chain-schema.ts reads them, chain-mutations-schema.ts answers
 * them). Appended to schema.ts's typeDefs.
 */
export const jobTypeDefs = /* GraphQL */ `
  "One parameter of the call that created a job."
  type RequestParameter {
    "The parameter's name as the call gave it (the spec's snake_case for /v1/call)."
    name: String!
    "The value as text: a string as it is, a number or boolean in JSON, a list or object as JSON text; null when null."
    value: String
  }

  "A blockchain job: asynchronous, followed by its status."
  type Job implements Node {
    "Globally unique, opaque id for node(id:) and nodes(ids:) (Relay's Node); id is unchanged."
    nodeId: ID!
    "UUID; the legacy info.jobId."
    id: ID!
    "What the job does."
    kind: JobKind!
    "Document jobs: which report they write."
    documentKind: DocumentKind
    "Network name as requested."
    network: String!
    "Where the job is: QUEUED, SUBMITTED, COMPLETED or FAILED."
    status: JobStatus!
    "Echo of the call that created the job (the legacy info.request)."
    request: JSON @deprecated(reason: "Untyped: read requestParameters.")
    "The parameters of the call that created the job (the legacy info.request) by name, in the order given; each value as text (JSON text for a list or an object)."
    requestParameters: [RequestParameter!]!
    "Hash of the (last) transaction; set from SUBMITTED on. Selects send none."
    txHash: String
    "Explorer URL of the transaction, when the network has an explorer."
    txUrl: String
    "Block of the transaction, once mined."
    blockNumber: Int
    "Receipt of the transaction, once completed (or reverted)."
    receipt: TransactionReceipt
    "Gas used, decimal text."
    gasUsed: String
    "Effective gas price in wei, decimal text."
    gasPrice: String
    "Gas used × gas price, in the network's native coin."
    networkCost: Decimal
    "What the service charges on top, in the native coin."
    networkFee: Decimal
    "networkCost + networkFee."
    networkTotal: Decimal
    "The result in the legacy info.result shape; keyValue and document are its typed form."
    result: JSON @deprecated(reason: "Untyped: read keyValue, document or nft, its typed forms.")
    "Why the job failed."
    error: String
    "Submissions so far (resubmissions with a gas bump count)."
    attempts: Int!
    "RFC 3339."
    createdAt: DateTime!
    "RFC 3339; the last status change."
    updatedAt: DateTime!
    "RFC 3339; set when COMPLETED."
    completedAt: DateTime
    "The Idempotency-Key the job was created with."
    idempotencyKey: String
    "Document jobs about a framework: its identifier."
    frameworkIdentifier: String
    "Document jobs about a position: its id."
    positionId: ID
    "Document jobs about a position: its investor."
    investorIdentifier: String
    "Document jobs: the reporting year written."
    reportingYear: Int
    "Document jobs: the language the document was rendered in."
    languageCode: String
    "Key-value jobs: the key."
    key: String
    "Outcome of a completed key-value job."
    keyValue: KeyValueResult
    "Outcome of a completed document job."
    document: DocumentResult
    "Who asked for the job: set when an OpenID Connect bearer token authenticated the request, null for an API key."
    actedBy: ActingPerson
  }

  "The person who acted for an account: the subject and issuer of the bearer token that authenticated the request."
  type ActingPerson {
    "The token's sub: the identity provider's stable id of the person."
    subject: String!
    "The token's iss: the issuer URL that vouched for the subject."
    issuer: String!
  }

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

  "A transaction receipt (ethers v6 TransactionReceipt)."
  type TransactionReceipt {
    "Hash of the block."
    blockHash: String!
    "Number of the block."
    blockNumber: Int!
    "Set only for contract creations."
    contractAddress: String
    "Gas used in the block up to this transaction, decimal text."
    cumulativeGasUsed: String!
    "Sender: the service's signer."
    from: String!
    "Effective gas price in wei, decimal text."
    gasPrice: String!
    "Gas used, decimal text."
    gasUsed: String!
    "Transaction hash."
    hash: String!
    "Position of the transaction in its block."
    index: Int!
    "Event logs."
    logs: [TransactionLog!]!
    "Bloom filter of the logs."
    logsBloom: String!
    "1 success, 0 reverted."
    status: Int!
    "Contract called."
    to: String
  }

  "An event log of a receipt."
  type TransactionLog {
    "Contract that emitted it."
    address: String!
    "Hash of the block."
    blockHash: String!
    "Number of the block."
    blockNumber: Int!
    "0x-prefixed hex data."
    data: String!
    "Position of the log in its block."
    index: Int!
    "0x-prefixed 32-byte topics."
    topics: [String!]!
    "Transaction hash."
    transactionHash: String!
    "Position of the transaction in its block."
    transactionIndex: Int!
  }

  "Outcome of a key-value job."
  type KeyValueResult {
    "The key, at most 32 characters."
    key: String!
    "Inserts: the value written. Selects: the value read; null when the key was never written."
    value: String
    "bytes32 jobs: the raw 32 bytes as 0x-prefixed hex."
    valueHex: String
    "Selects: whether the key has a value."
    found: Boolean!
    "Address of the key-value contract."
    contractAddress: String!
  }

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

  "A document's proof: its hash, its Merkle path and root, the network, contract and transaction (docs/chain.md, Proofs). Anyone re-checks it with greenimpact-verify-document against a node of the network."
  type DocumentProof {
    "The proof's format."
    format: DocumentProofFormat!
    "How the document is anchored."
    method: DocumentProofMethod!
    "Lower-case hex SHA-256 of the content."
    documentSha256: String!
    "CID of the content in the content-addressed store."
    cid: String!
    "0x + 64 hex: the job UUID's 16 bytes right-padded, the document's id on chain."
    anchorId: ID!
    "MERKLE: keccak256(anchorId ‖ sha256 ‖ cid); empty for ANCHOR."
    leaf: String!
    "MERKLE: sibling hashes from the leaf up, each pair hashed smaller first."
    path: [String!]!
    "MERKLE: the root recorded on chain; empty for ANCHOR."
    root: String!
    "The network the anchoring transaction is on."
    network: String!
    "The network's EIP-155 chain id."
    chainId: Int!
    "Address of the contract holding the root (DocumentRoots) or the anchor (DocumentRegistry)."
    contract: String!
    "Hash of the anchoring transaction."
    transaction: String!
    "Number of the block that holds the anchoring transaction."
    blockNumber: Int!
  }

  "Outcome of a document job."
  type DocumentResult {
    "Entry id of the document (the id of documents entries)."
    documentId: ID!
    "Which report."
    kind: DocumentKind!
    "CID of the content in the content-addressed store."
    cid: String!
    "Lower-case hex SHA-256 of the content, as anchored."
    sha256: String!
    "application/json or text/html; charset=utf-8."
    contentType: String!
    "Size in bytes."
    size: Int!
    "Address of the contract the anchor is on: DocumentRoots for a document anchored in a batch, DocumentRegistry for one anchored alone."
    registryAddress: String!
    "How anyone checks the document against the chain without this service (docs/chain.md, Proofs); null until completed."
    proof: DocumentProof
    "Where the gateway serves the content: <base>/ipfs/<cid>, to anyone for a public framework's document, else with the account's X-Api-Key."
    contentUrl: String!
    "HTML documents: the verified page, <base>/jobs/<job id>.html, opened with the account's X-Api-Key; document(jobId) { pageUrl } gives a link that opens in a browser."
    pageUrl: String
  }
`;
