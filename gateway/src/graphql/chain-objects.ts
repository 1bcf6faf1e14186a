import { GraphQLScalarType, Kind, type ValueNode } from 'graphql';
import { jsonTooDeep, tooDeepMessage } from '../json-depth.js';
import { badInput } from './scalars.js';
import {
  DocumentKind,
  JobKind,
  JobStatus,
  type DocumentResult,
  type GetDocumentResponse,
  type Job,
} from '@green-impact/proto/greenimpact/chain/v1/chain';
import { documentKindParts, jsonDocument, signedPageUrl } from '../catalogue/chain/job-shapes.js';
import { deprecated, objectType } from '../catalogue/objects.js';
import {
  documentJobEntryObject,
  documentProofObjectWith,
  documentResultObjectWith,
  getDocumentResponseObjectWith,
  jobObjectWith,
  keyValueResultObject,
  networkObject,
  transactionLogObject,
  transactionReceiptObject,
} from '../generated/chain.js';
import { actingPersonObject } from '../generated/common.js';

/**
 * The object types of ChainService's jobs, networks and written documents (chain-schema.ts,
 * job-schema.ts), declared once (catalogue/objects.ts) and resolved from its messages; the proto enums as
 * GraphQL names them, and the JSON scalar.
 */

/** The proto enum value of a GraphQL enum name (GraphQL has checked it is one of the schema's). */
function enumValue<E extends number>(names: Record<string, E | string>, prefix: string, name: string): E {
  return names[`${prefix}${name}`] as E;
}

export const jobStatusFromGql = (s: string) => enumValue<JobStatus>(JobStatus, 'JOB_STATUS_', s);
export const jobKindFromGql = (k: string) => enumValue<JobKind>(JobKind, 'JOB_KIND_', k);
export const documentKindFromGql = (k: string) => enumValue<DocumentKind>(DocumentKind, 'DOCUMENT_KIND_', k);

const contentUrl = (baseUrl: string, cid: string) => `${baseUrl}/ipfs/${cid}`;

/** A request parameter's value as text: a string as it is, anything else as JSON; null stays null. */
function parameterText(value: unknown): string | null {
  if (value === null || value === undefined) return null;
  return typeof value === 'string' ? value : JSON.stringify(value);
}

const requestParameterType = objectType<{ name: string; value: string | null }>('RequestParameter', 'One parameter of the call that created a job.', (field) => ({
  name: field('String!', "The parameter's name as the call gave it (the spec's snake_case for /v1/call).", 'name'),
  value: field('String', 'The value as text: a string as it is, a number or boolean in JSON, a list or object as JSON text; null when null.', 'value'),
}));

/** Job is generated from chain.proto; the gateway adds its request parameters and its document's job id. */
const jobType = jobObjectWith((field) => ({
  after: {
    request: {
      requestParameters: field(
        '[RequestParameter!]!',
        'The parameters of the call that created the job (the legacy info.request) by name, in the order given; each value as text (JSON text for a list or an object).',
        (j) => Object.entries(j.request ?? {}).map(([name, value]) => ({ name, value: parameterText(value) })),
      ),
    },
  },
  // The outcome carries its job's id, which its page's address names (documentResultType).
  resolve: { document: (j) => (j.document ? { ...j.document, jobId: j.id } : null) },
}));

/** DocumentProof is generated from chain.proto; the proto spells the format and method as /v1/call does, GraphQL types them as enum values. */
const documentProofType = documentProofObjectWith(() => ({
  resolve: {
    format: (p) => (p.format === 'greenimpact-document-proof/1' ? 'GREENIMPACT_DOCUMENT_PROOF_1' : p.format),
    method: (p) => p.method.toUpperCase(),
  },
}));

const CONTENT_URL_DOC =
  "Where the gateway serves the content: <base>/ipfs/<cid>, to anyone for a public framework's document, else with the account's X-Api-Key.";

/** DocumentResult is generated from chain.proto; its addresses are the gateway's, the page's named after its job (jobType's document). */
const documentResultType = documentResultObjectWith((field) => ({
  after: {
    proof: {
      contentUrl: field('String!', CONTENT_URL_DOC, (d, _, ctx) => contentUrl(ctx.baseUrl, d.cid)),
      pageUrl: field(
        'String',
        "HTML documents: the verified page, <base>/jobs/<job id>.html, opened with the account's X-Api-Key; document(jobId) { pageUrl } gives a link that opens in a browser.",
        (d, _, ctx) => (documentKindParts(d.kind)?.format === 'html' ? `${ctx.baseUrl}/jobs/${(d as DocumentResult & { jobId: string }).jobId}.html` : null),
      ),
    },
  },
}));

/** A document that passed requireVerifiedDocument: generated from chain.proto, its text, JSON and addresses the gateway's. */
const documentType = getDocumentResponseObjectWith((field) => ({
  resolve: { content: (d) => Buffer.from(d.content).toString('utf8') },
  after: {
    content: {
      json: deprecated(
        field('JSON', 'JSON documents: the content parsed.', (d) => (documentKindParts(d.kind)?.format === 'json' ? jsonDocument(d) : null)),
        "Untyped: parse content, the exact text that was anchored (its SHA-256 is sha256); the framework and position-impacts documents' shapes are in docs/chain.md.",
      ),
      contentUrl: field('String!', CONTENT_URL_DOC, (d, _, ctx) => contentUrl(ctx.baseUrl, d.cid)),
      // Signed, so it opens in a browser.
      pageUrl: field(
        'String',
        'HTML documents: the verified page as a signed, expiring link that opens in a browser without a key (revokeDocumentLinks ends it).',
        (d, _, ctx) => (documentKindParts(d.kind)?.format === 'html' ? signedPageUrl(ctx.documentLinks, ctx.baseUrl, d as GetDocumentResponse & { job: Job }) : null),
      ),
    },
  },
}));

/** Written among job-schema.ts's types, in this order. */
export const jobObjects = [requestParameterType, jobType, actingPersonObject];
export const jobOutcomeObjects = [transactionReceiptObject, transactionLogObject, keyValueResultObject];
export const documentOutcomeObjects = [documentProofType, documentResultType];
/** Written by chain-schema.ts, in this order. */
export const chainObjects = [networkObject, documentJobEntryObject, documentType];

function literal(node: ValueNode): unknown {
  switch (node.kind) {
    case Kind.STRING:
    case Kind.BOOLEAN:
    case Kind.ENUM:
      return node.value;
    case Kind.INT:
    case Kind.FLOAT:
      return Number(node.value);
    case Kind.NULL:
      return null;
    case Kind.LIST:
      return node.values.map(literal);
    case Kind.OBJECT:
      return Object.fromEntries(node.fields.map((f) => [f.name.value, literal(f.value)]));
    default:
      // Variables inside a JSON literal are not supported; no field takes JSON as input.
      return undefined;
  }
}

/**
 * The JSON scalar: any JSON value, passed through as it is; an input nested deeper than MAX_JSON_DEPTH is
 * BAD_USER_INPUT (over the WebSocket too, where no HTTP body check runs).
 */
export const jsonScalar = new GraphQLScalarType({
  name: 'JSON',
  description: 'Any JSON value.',
  serialize: (value) => value,
  parseValue: shallowJson,
  parseLiteral: (node) => shallowJson(literal(node)),
});

function shallowJson(value: unknown): unknown {
  if (jsonTooDeep(value)) throw badInput(tooDeepMessage('A JSON value'));
  return value;
}
