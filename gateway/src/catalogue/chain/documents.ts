import type { DocumentJobEntry } from '@green-impact/proto/greenimpact/chain/v1/chain';
import { InvalidArgumentError } from '@green-impact/shared/errors';
import {
  frameworkDocumentSubmission,
  positionImpactsDocumentSubmission,
  type DocumentWrite,
  type RenderSettings,
} from '../../composition/document-writes.js';
import type { CompositionContext } from '../../composition/investor-details.js';
import { orNull } from '../../graphql/resolvers/or-null.js';
import { pageFields, SERVICE_ID, type ServicePage } from '../../graphql/pagination.js';
import { listed } from '../../v1/truncation.js';
import { identifier, int, json, oneOf, text, type Fields, type InputOf } from '../fields.js';
import { declare, type CallContext } from '../operation.js';
import { ESG } from '../renders.js';
import { queuedJob } from './faces.js';
import {
  documentLink,
  jobListEntry,
  jobOf,
  jsonDocument,
  requestEcho,
  requireVerifiedDocument,
  signedPageUrl,
  writeAccepted,
  type DocumentFamily,
  type DocumentFormatName,
} from './job-shapes.js';

/**
 * Written report documents (spec §4.2), served by ChainService with the taxonomy and portfolio services
 * rendering them. A write renders the document (composition/document-writes.ts) and hands it to
 * SubmitDocument, which queues the job that stores it by CID and anchors sha256 + CID on the chain; it
 * answers the job at once. Reads go through GetDocument, which re-reads the anchor and verifies the
 * content: nothing unverified is ever answered. The services own every bound (4-digit years, decimals,
 * positions, identifiers, keys, job ids, networks) and its text.
 */

/** The inner solution of the four /v1/call writes (spec §1: "the `solution` value used inside `parameters`"). */
export const SAVE_SOLUTION = 'SVC.Blockchain.Save';
/** The inner operation of the four writes. */
export const SAVE_OPERATION = 'save';

/** A job UUID, or the decimal `id` of a getBlockchainJobsFor* entry (the spec's "entry id"). */
const jobId = identifier('job_id', { doc: "The job's id (UUID), or the id of a document entry.", graphql: 'ID' });
const frameworkIdentifier = identifier('framework_identifier', { doc: "The framework's identifier." });
const positionId = int('position_id', { doc: "The position's id.", graphql: 'ID' });
const investorIdentifier = identifier('investor_identifier', { aliases: ['investor_identfier'], doc: "The investor's identifier." });
const reportingYear = int('reporting_year', { doc: 'Reporting year, 4 digits.' });
const yesNo = (v1: string, doc: string) => oneOf(v1, ['yes', 'no'], { doc }).optional();

/**
 * The inner parameters every /v1/call write shares (spec §4.2). `solution`, `operation`, `version` and
 * `network` are the blockchain call the write makes, named `parameters.…` in their texts so they are not
 * mistaken for the envelope's fields of the same names.
 */
const saveFields = {
  solution: json('solution', { aliases: ['contract'], missingMessage: 'parameters.solution is required.', doc: 'SVC.Blockchain.Save.' }),
  operation: json('operation', { missingMessage: 'parameters.operation is required.', doc: 'save.' }),
  version: json('version', { missingMessage: 'parameters.version is required.', doc: '1.' }),
  network: json('network', { missingMessage: 'parameters.network is required.', doc: 'Network name, one of the chain service’s.' }),
  decimals: int('decimals', { doc: 'Decimals of the figures, 0 to 10; default 2.' }).optional(),
  sdgGoalsIncluded: yesNo('sdg_goals_included', 'yes includes the UN SDGs of each row; default no.'),
  euObjectivesIncluded: yesNo('eu_objectives_included', 'yes includes the EU environmental objectives of each row; default no.'),
  languageCode: identifier('language_code', { doc: "Language of the names; default each item's original language." }).optional(),
} as const satisfies Fields;

const writeFrameworkFields = { frameworkIdentifier, reportingYear, ...saveFields } as const satisfies Fields;
const writePositionImpactsFields = {
  positionId,
  reportingYear,
  ...saveFields,
  writeInvestor: yesNo('write_investor_to_blockchain', "yes includes the investor's PII in the document; default no."),
  /** The spec's table misspells it depryption_key. */
  decryptionKey: text('decryption_key', { aliases: ['depryption_key'], doc: "Decrypts the investor's PII." }).optional(),
} as const satisfies Fields;

/** The checked input under the spec's names, as a job's request echo shows the call. */
function v1Parameters<F extends Fields>(fields: F, input: InputOf<F>): Record<string, unknown> {
  const values = input as Record<string, unknown>;
  return Object.fromEntries(Object.entries(fields).map(([name, field]) => [field.v1, values[name]]));
}

/**
 * The inner `solution` (SVC.Blockchain.Save), `operation` (save) and `version` (1) of a /v1/call write:
 * the legacy protocol's nested call, exact spellings as the envelope's names are case-sensitive. The
 * network is the chain service's to know.
 */
function saveNetwork(i: InputOf<typeof saveFields>): string {
  if (i.solution !== SAVE_SOLUTION) throw new InvalidArgumentError(`parameters.solution must be ${SAVE_SOLUTION}.`, { field: 'solution' });
  if (i.operation !== SAVE_OPERATION) throw new InvalidArgumentError(`parameters.operation must be ${SAVE_OPERATION}.`, { field: 'operation' });
  // A number or its text, as the envelope's version (spec §9: "an integer version inside parameters").
  if (i.version !== 1 && i.version !== '1') throw new InvalidArgumentError('parameters.version must be 1.', { field: 'version' });
  if (typeof i.network !== 'string') throw new InvalidArgumentError('parameters.network must be a network name such as sepolia.', { field: 'network' });
  return i.network;
}

const renderOf = (i: { decimals?: number | undefined; languageCode?: string | undefined; sdg: boolean; eu: boolean }): RenderSettings => ({
  languageCode: i.languageCode,
  decimals: i.decimals,
  sdgGoalsIncluded: i.sdg,
  euObjectivesIncluded: i.eu,
});

/** The composition's context: the writes are called with a key, so the caller is there. */
export function composition(ctx: CallContext): CompositionContext {
  if (!ctx.caller) throw new Error('a document write made without a caller');
  return { caller: ctx.caller, requestId: ctx.requestId, clients: ctx.clients };
}

/** The document write of a /v1/call write: format, network, year, render settings, key and echo. */
function v1Write(operation: string, format: DocumentFormatName, fields: Fields, i: InputOf<typeof saveFields> & { reportingYear: number }, ctx: CallContext): DocumentWrite {
  return {
    format,
    network: saveNetwork(i),
    reportingYear: i.reportingYear,
    render: renderOf({ ...i, sdg: i.sdgGoalsIncluded === 'yes', eu: i.euObjectivesIncluded === 'yes' }),
    idempotencyKey: ctx.idempotencyKey,
    requestEcho: requestEcho(ESG, operation, v1Parameters(fields, i)),
  };
}

function writeFramework(operation: string, format: DocumentFormatName) {
  return declare({
    solution: ESG,
    operation,
    summary: `Writes a framework's ${format.toUpperCase()} document of a year to a network; answers the job at once.`,
    input: writeFrameworkFields,
    service: 'chain',
    method: 'submitDocument',
    request: (i, ctx) => frameworkDocumentSubmission(i.frameworkIdentifier, v1Write(operation, format, writeFrameworkFields, i, ctx), composition(ctx)),
    v1: (res) => writeAccepted(jobOf(res).id),
  });
}

function writePositionImpacts(operation: string, format: DocumentFormatName) {
  return declare({
    solution: ESG,
    operation,
    summary: `Writes a position's impacts ${format.toUpperCase()} document of a year to a network; answers the job at once.`,
    input: writePositionImpactsFields,
    service: 'chain',
    method: 'submitDocument',
    request: (i, ctx) => {
      const position = { positionId: i.positionId, writeInvestor: i.writeInvestor === 'yes', decryptionKey: i.decryptionKey };
      return positionImpactsDocumentSubmission(position, v1Write(operation, format, writePositionImpactsFields, i, ctx), composition(ctx));
    },
    v1: (res) => writeAccepted(jobOf(res).id),
  });
}

/**
 * The input GraphQL's two writes share: the format is a field there, and the flags are GraphQL Booleans
 * (the schema has checked their type; absent is false).
 */
const graphqlWriteFields = {
  year: reportingYear,
  format: oneOf('format', ['JSON', 'HTML'], { doc: 'JSON or HTML.', graphql: 'DocumentFormat' }),
  decimals: saveFields.decimals,
  sdgGoalsIncluded: json('sdg_goals_included', { doc: 'Include the UN SDGs of each row; default false.', graphql: 'Boolean' }).optional(),
  euObjectivesIncluded: json('eu_objectives_included', { doc: 'Include the EU environmental objectives of each row; default false.', graphql: 'Boolean' }).optional(),
  languageCode: saveFields.languageCode,
} as const satisfies Fields;

const yesNoOf = (flag: unknown) => (flag === true ? 'yes' : 'no');

/**
 * The document write of a GraphQL write, its job echoing the call in its legacy /v1/call spelling so a job
 * reads the same whichever face created it.
 */
function graphqlWrite(legacyName: 'Framework' | 'PositionImpacts', i: InputOf<typeof graphqlWriteFields>, subject: Record<string, unknown>, ctx: CallContext): DocumentWrite {
  const format = i.format === 'JSON' ? 'json' : 'html';
  const network = ctx.envelope?.network ?? '';
  const flags = { sdg_goals_included: yesNoOf(i.sdgGoalsIncluded), eu_objectives_included: yesNoOf(i.euObjectivesIncluded) };
  const operation = `write${format === 'json' ? 'Json' : 'Html'}${legacyName}ToBlockchain`;
  const echoed = { ...subject, reporting_year: i.year, decimals: i.decimals, language_code: i.languageCode, solution: SAVE_SOLUTION, operation: SAVE_OPERATION, version: 1, network, ...flags };
  return {
    format,
    network,
    reportingYear: i.year,
    render: renderOf({ ...i, sdg: i.sdgGoalsIncluded === true, eu: i.euObjectivesIncluded === true }),
    idempotencyKey: ctx.idempotencyKey,
    requestEcho: requestEcho(ESG, operation, echoed),
  };
}

export const writeFrameworkDocument = declare({
  solution: ESG,
  summary: "Writes a framework's document of a year to a network (spec writeJsonFrameworkToBlockchain / writeHtmlFrameworkToBlockchain).",
  input: { identifier: frameworkIdentifier, ...graphqlWriteFields },
  service: 'chain',
  method: 'submitDocument',
  envelope: { network: 'required' },
  request: (i, ctx) =>
    frameworkDocumentSubmission(i.identifier, graphqlWrite('Framework', i, { framework_identifier: i.identifier }, ctx), composition(ctx)),
  graphql: queuedJob('writeFrameworkDocument', { order: ['identifier', 'year', 'format', 'network', 'decimals', 'sdgGoalsIncluded', 'euObjectivesIncluded', 'languageCode', 'idempotencyKey'] }),
});

export const writePositionImpactsDocument = declare({
  solution: ESG,
  summary: "Writes a position's impacts document of a year to a network (spec writeJsonPositionImpactsToBlockchain / writeHtml…).",
  input: {
    positionId,
    ...graphqlWriteFields,
    writeInvestor: json('write_investor_to_blockchain', { doc: "Include the investor's name and e-mail (PII) in the document; default false.", graphql: 'Boolean' }).optional(),
    decryptionKey: writePositionImpactsFields.decryptionKey,
  },
  service: 'chain',
  method: 'submitDocument',
  envelope: { network: 'required' },
  request: (i, ctx) => {
    const subject = { position_id: i.positionId, decryption_key: i.decryptionKey, write_investor_to_blockchain: yesNoOf(i.writeInvestor) };
    const position = { positionId: i.positionId, writeInvestor: i.writeInvestor === true, decryptionKey: i.decryptionKey };
    return positionImpactsDocumentSubmission(position, graphqlWrite('PositionImpacts', i, subject, ctx), composition(ctx));
  },
  graphql: queuedJob('writePositionImpactsDocument', {
    order: ['positionId', 'year', 'format', 'network', 'decimals', 'sdgGoalsIncluded', 'euObjectivesIncluded', 'languageCode', 'writeInvestor', 'decryptionKey', 'idempotencyKey'],
  }),
});

function readDocument(operation: string, family: DocumentFamily, format: DocumentFormatName) {
  return declare({
    solution: ESG,
    operation,
    summary:
      format === 'json'
        ? 'The verified JSON document a job wrote, as written.'
        : "A signed link to the verified HTML document a job wrote: it opens in a browser without a key until it expires or is revoked.",
    input: { jobId },
    service: 'chain',
    method: 'getDocument',
    request: (i) => ({ jobId: i.jobId }),
    v1: (res, _i, ctx) => {
      const doc = requireVerifiedDocument(res, { family, format });
      // `{"<link text>": "{jobs_url}/<job_id>.html?v=…&exp=…&sig=…"}`: the link serves what was checked.
      return format === 'json' ? jsonDocument(doc) : documentLink(family, signedPageUrl(ctx.documentLinks, ctx.http.baseUrl, doc));
    },
  });
}

const getBlockchainJobsForFrameworks = declare({
  solution: ESG,
  operation: 'getBlockchainJobsForFrameworks',
  summary: "The document jobs of a framework: `{id, job_id}` entries.",
  input: { frameworkIdentifier },
  service: 'chain',
  method: 'listDocumentJobs',
  request: (i) => ({ frameworkIdentifier: i.frameworkIdentifier, kinds: [] }),
  v1: (res, _i, ctx) => listed(ctx, res, res.jobs.map(jobListEntry)),
});

const getBlockchainJobsForImpacts = declare({
  solution: ESG,
  operation: 'getBlockchainJobsForImpacts',
  summary: "The document jobs of an investor's position: `{id, job_id}` entries.",
  input: { investorIdentifier, positionId },
  service: 'chain',
  method: 'listDocumentJobs',
  request: (i) => ({ investorIdentifier: i.investorIdentifier, positionId: i.positionId, kinds: [] }),
  v1: (res, _i, ctx) => listed(ctx, res, res.jobs.map(jobListEntry)),
});

/** One page of the caller's documents about a framework or a position, paged by the chain service (GraphqlFace.paged). */
export const documents = declare({
  solution: ESG,
  summary: "The caller's written documents about a framework (frameworkIdentifier), or about an investor's position (investorIdentifier and positionId), oldest first.",
  input: {
    frameworkIdentifier: frameworkIdentifier.optional(),
    investorIdentifier: investorIdentifier.optional(),
    positionId: positionId.optional(),
  },
  service: 'chain',
  method: 'listDocumentJobs',
  // Without a subject the chain service says what it needs.
  request: (i, ctx) =>
    i.frameworkIdentifier
      ? { frameworkIdentifier: i.frameworkIdentifier, kinds: [], ...pageFields(ctx.page) }
      : { investorIdentifier: i.investorIdentifier, positionId: i.positionId, kinds: [], ...pageFields(ctx.page) },
  graphql: {
    root: 'Query',
    field: 'documents',
    returns: 'DocumentEntryConnection!',
    nested: false,
    paged: { idOf: (entry: { id: string | number }) => entry.id, idPattern: SERVICE_ID },
    render: async (call): Promise<ServicePage<DocumentJobEntry>> => {
      const res = await call();
      return { items: res.jobs, nextPageToken: res.nextPageToken, totalCount: res.totalCount ?? res.jobs.length };
    },
  },
});

const document = declare({
  solution: ESG,
  summary:
    'A written document read back: its anchor is re-read from the chain now and the content checked against it. Null when the account has no such job; an error (CONFLICT) while the job is not completed, or when the content does not match its anchor, which is never served.',
  input: { jobId },
  service: 'chain',
  method: 'getDocument',
  request: (i) => ({ jobId: i.jobId }),
  graphql: {
    root: 'Query',
    field: 'document',
    returns: 'Document',
    nested: false,
    render: async (call) => {
      const doc = await orNull(call());
      return doc ? requireVerifiedDocument(doc, {}) : null;
    },
  },
});

/** Not in the spec: a document's proof and whether it verifies now, for anyone to re-check (docs/chain.md "Proofs"). */
const getDocumentProof = declare({
  solution: ESG,
  operation: 'getDocumentProof',
  summary:
    "A written document's proof (greenimpact-document-proof/1) and whether the content verifies against it, the chain now and the deployment's trust anchor; when not, reason says why (\"contract not trusted\", \"writer not trusted\", \"content changed\", …).",
  input: { jobId },
  service: 'chain',
  method: 'getDocument',
  request: (i) => ({ jobId: i.jobId }),
  v1: (res) => ({ job_id: res.job!.id, verified: res.verified, ...(res.verified ? {} : { reason: res.unverifiedReason }), proof: res.proof ?? null }),
});

/** Not in the spec: every signed link to the document handed out so far stops opening (docs/decisions.md). */
export const revokeDocumentLinks = declare({
  solution: ESG,
  operation: 'revokeDocumentLinks',
  summary: 'Revokes every signed link to a document handed out so far: they stop opening at once. Links asked for afterwards open; the account\'s key still opens the page.',
  input: { jobId },
  service: 'chain',
  method: 'revokeDocumentLinks',
  request: (i) => ({ jobId: i.jobId }),
  v1: (res) => ({ message: `The links to the document of job ${res.jobId} are revoked.` }),
  graphql: { root: 'Mutation', field: 'revokeDocumentLinks', returns: 'RevokeDocumentLinksPayload!', nested: false, render: async (call) => ({ revoked: await call() }) },
});

export const documentOperations = [
  writeFramework('writeHtmlFrameworkToBlockchain', 'html'),
  writeFramework('writeJsonFrameworkToBlockchain', 'json'),
  writePositionImpacts('writeHtmlPositionImpactsToBlockchain', 'html'),
  writePositionImpacts('writeJsonPositionImpactsToBlockchain', 'json'),
  writeFrameworkDocument,
  writePositionImpactsDocument,
  readDocument('getHtmlFrameworkFromBlockchain', 'framework', 'html'),
  readDocument('getJsonFrameworkFromBlockchain', 'framework', 'json'),
  readDocument('getHtmlPositionImpactsFromBlockchain', 'position_impacts', 'html'),
  readDocument('getJsonPositionImpactsFromBlockchain', 'position_impacts', 'json'),
  readDocument('getEuGbsDocumentFromBlockchain', 'eu_gbs', 'html'),
  getBlockchainJobsForFrameworks,
  getBlockchainJobsForImpacts,
  documents,
  document,
  getDocumentProof,
  revokeDocumentLinks,
];
