import { documentOperations } from '../catalogue/chain/documents.js';
import { jobOperations, jobOrderSdl } from '../catalogue/chain/jobs.js';
import { objectTypesSdl } from '../catalogue/objects.js';
import { rootFieldsSdl } from '../catalogue/sdl.js';
import { chainObjects } from './chain-objects.js';
import { connectionType } from './pagination.js';

/**
 * SDL of blockchain jobs, networks and written documents (spec §4.2 reads, §4.12, §2.9): the camelCase
 * counterpart of the /v1/call blockchain reads, served by ChainService, their object types declared in
 * chain-objects.ts. Appended to schema.ts's typeDefs; the writes are in chain-mutations-schema.ts. Jobs are private to the account that created them.
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

${objectTypesSdl(chainObjects)}${connectionType('DocumentEntry', 'document entries')}`;
