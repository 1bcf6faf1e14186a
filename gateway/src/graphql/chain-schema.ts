import { documentOperations } from '../catalogue/chain/documents.js';
import { jobOperations, jobOrderSdl } from '../catalogue/chain/jobs.js';
import { rootFieldsSdl } from '../catalogue/sdl.js';
import { connectionType } from './pagination.js';

/**
 * SDL of blockchain jobs, networks and written documents (spec §4.2 reads, §4.12, §2.9): the camelCase
 * counterpart of the /v1/call blockchain reads, served by ChainService. Appended to schema.ts's typeDefs;
 * the writes are in chain-mutations-schema.ts. Jobs are private to the account that created them.
 */
export const chainTypeDefs = /* GraphQL */ `
  "Any JSON value, as the service stored it (a job's request echo and legacy result)."
  scalar JSON

  extend type Query {${rootFieldsSdl('Query', [...jobOperations, ...documentOperations])}
  }
${jobOrderSdl}
  "Status of a job: QUEUED → SUBMITTED → COMPLETED or FAILED (the legacy info.status.Value in upper case)."
  enum JobStatus {
    "Accepted and stored; not yet sent to the network."
    QUEUED
    "Transaction sent; waiting for confirmations. For selects: scheduled."
    SUBMITTED
    "Confirmed; the outcome is set."
    COMPLETED
    "Given up; error says why."
    FAILED
  }

  "What a job does."
  enum JobKind {
    "insertString."
    KV_INSERT_STRING
    "selectString."
    KV_SELECT_STRING
    "insertBytes32."
    KV_INSERT_BYTES32
    "selectBytes32."
    KV_SELECT_BYTES32
    "A report document write; documentKind says which."
    DOCUMENT
    "An NFT mint (spec new)."
    NFT_MINT
    "An NFT transfer to a wallet address."
    NFT_TRANSFER
    "A transfer completing an e-mailed NFT send."
    NFT_CLAIM
  }

  "Which report a document job writes."
  enum DocumentKind {
    "A framework's document as JSON (writeJsonFrameworkToBlockchain)."
    FRAMEWORK_JSON
    "A framework's document as an HTML page (writeHtmlFrameworkToBlockchain)."
    FRAMEWORK_HTML
    "A position's impacts as JSON (writeJsonPositionImpactsToBlockchain)."
    POSITION_IMPACTS_JSON
    "A position's impacts as an HTML page (writeHtmlPositionImpactsToBlockchain)."
    POSITION_IMPACTS_HTML
    "A framework's EU Green Bond Standard factsheet, allocation or impact report as an HTML page (writeEuGbsDocumentToBlockchain)."
    EU_GBS_HTML
  }

  "A network jobs can be sent to."
  type Network {
    "The name clients pass as network."
    name: String!
    "EVM chain id (an integer)."
    chainId: Float!
    "True for the local networks of the embedded default."
    embedded: Boolean!
    "JSON-RPC URL: the gateway's /rpc/<name> for embedded networks, else the node's origin."
    rpcUrl: String!
    "Block explorer base URL; null when there is none."
    explorerUrl: String
    "Confirmations awaited before a job is COMPLETED."
    confirmations: Int!
    "Set when this name is an alias kept for legacy clients: the network it stands for."
    aliasOf: String
    "Address the service signs with."
    signerAddress: String!
    "Symbol of the native coin costs are given in (ETH, POL, …)."
    nativeCurrencySymbol: String!
    "Address of the key-value contract; null when not deployed."
    keyValueStoreAddress: String
    "Address of the document registry contract; null when not deployed."
    documentRegistryAddress: String
    "Address of the NFT contract; null when not deployed."
    nftContractAddress: String
  }

  "A written document about a framework or a position (spec job list entry: id and job_id)."
  type DocumentEntry {
    "Entry id (the legacy id)."
    id: ID!
    "The job (the legacy job_id)."
    jobId: ID!
    "Which report."
    kind: DocumentKind!
    "Status of the job."
    status: JobStatus!
    "Network name as requested."
    network: String!
    "Reporting year written."
    reportingYear: Int
    "RFC 3339."
    createdAt: DateTime!
  }

  "A written document, verified against its anchor on the chain."
  type Document {
    "The job that wrote it."
    job: Job!
    "Which report."
    kind: DocumentKind!
    "application/json or text/html; charset=utf-8."
    contentType: String!
    "CID of the content, as anchored."
    cid: String!
    "SHA-256 of the content read, equal to anchoredSha256."
    sha256: String!
    "SHA-256 read from the registry contract now."
    anchoredSha256: String!
    "Always true: a document that does not verify is an error, never an answer."
    verified: Boolean!
    "The proof checked for verified: anyone re-checks it with greenimpact-verify-document against a node of the network."
    proof: DocumentProof
    "Entry id of the document."
    documentId: ID!
    "The content as text (UTF-8)."
    content: String!
    "JSON documents: the content parsed."
    json: JSON @deprecated(reason: "Untyped: parse content, the exact text that was anchored (its SHA-256 is sha256); the framework and position-impacts documents' shapes are in docs/chain.md.")
    "Where the gateway serves the content: <base>/ipfs/<cid>, to anyone for a public framework's document, else with the account's X-Api-Key."
    contentUrl: String!
    "HTML documents: the verified page as a signed, expiring link that opens in a browser without a key (revokeDocumentLinks ends it)."
    pageUrl: String
  }
${connectionType('DocumentEntry', 'document entries')}`;
