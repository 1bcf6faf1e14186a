import { GraphQLScalarType, Kind, type ValueNode } from 'graphql';
import {
  DocumentKind,
  JobKind,
  JobStatus,
  type DocumentJobEntry,
  type DocumentProof,
  type DocumentResult,
  type GetDocumentResponse,
  type Job,
  type Network,
  type TransactionReceipt,
} from '@green-impact/proto/greenimpact/chain/v1/chain';
import { InternalError } from '@green-impact/shared/errors';
import type { DocumentLinks } from '../document-links.js';
import { documentKindParts, jsonDocument, signedPageUrl } from '../catalogue/chain/job-shapes.js';
import { toGqlNft } from './nft-objects.js';

/** proto messages of ChainService → the GraphQL objects of chain-schema.ts. Pure. */

/** A proto enum value as its GraphQL name: the proto name without its prefix (JOB_STATUS_COMPLETED → COMPLETED). */
function enumName(names: Record<number, string>, prefix: string, value: number): string {
  const name = names[value];
  if (name === undefined || name.endsWith('_UNSPECIFIED')) {
    throw new InternalError('Internal error.', { cause: new Error(`${prefix}${value} from the chain service`) });
  }
  return name.slice(prefix.length);
}

/** The proto enum value of a GraphQL enum name (GraphQL has checked it is one of the schema's). */
function enumValue<E extends number>(names: Record<string, E | string>, prefix: string, name: string): E {
  return names[`${prefix}${name}`] as E;
}

export const jobStatusToGql = (s: JobStatus) => enumName(JobStatus, 'JOB_STATUS_', s);
export const jobKindToGql = (k: JobKind) => enumName(JobKind, 'JOB_KIND_', k);
export const documentKindToGql = (k: DocumentKind) => enumName(DocumentKind, 'DOCUMENT_KIND_', k);
export const jobStatusFromGql = (s: string) => enumValue<JobStatus>(JobStatus, 'JOB_STATUS_', s);
export const jobKindFromGql = (k: string) => enumValue<JobKind>(JobKind, 'JOB_KIND_', k);
export const documentKindFromGql = (k: string) => enumValue<DocumentKind>(DocumentKind, 'DOCUMENT_KIND_', k);

const contentUrl = (baseUrl: string, cid: string) => `${baseUrl}/ipfs/${cid}`;
const pageUrl = (baseUrl: string, kind: DocumentKind, jobId: string) =>
  documentKindParts(kind)?.format === 'html' ? `${baseUrl}/jobs/${jobId}.html` : null;

function receipt(r: TransactionReceipt) {
  const { type: _type, ...rest } = r;
  return { ...rest, contractAddress: r.contractAddress ?? null, to: r.to ?? null, logs: r.logs.map(({ type: _t, ...log }) => log) };
}

/** A proof as GraphQL types it: the format and method as enum values (the proto spells them as /v1/call does). */
function proofToGql(p: DocumentProof | undefined) {
  if (!p) return null;
  return { ...p, format: p.format === 'greenimpact-document-proof/1' ? 'GREENIMPACT_DOCUMENT_PROOF_1' : p.format, method: p.method.toUpperCase() };
}

function documentResult(d: DocumentResult, jobId: string, baseUrl: string) {
  return { ...d, proof: proofToGql(d.proof), kind: documentKindToGql(d.kind), contentUrl: contentUrl(baseUrl, d.cid), pageUrl: pageUrl(baseUrl, d.kind, jobId) };
}

export type GqlJob = ReturnType<typeof toGqlJob>;

export function toGqlJob(j: Job, baseUrl: string) {
  return {
    id: j.id,
    kind: jobKindToGql(j.kind),
    documentKind: j.documentKind ? documentKindToGql(j.documentKind) : null,
    network: j.network,
    status: jobStatusToGql(j.status),
    request: j.request ?? null,
    requestParameters: Object.entries(j.request ?? {}).map(([name, value]) => ({ name, value: parameterText(value) })),
    txHash: j.txHash ?? null,
    txUrl: j.txUrl ?? null,
    blockNumber: j.blockNumber ?? null,
    receipt: j.receipt ? receipt(j.receipt) : null,
    gasUsed: j.gasUsed === undefined ? null : String(j.gasUsed),
    gasPrice: j.gasPrice ?? null,
    networkCost: j.networkCost ?? null,
    networkFee: j.networkFee ?? null,
    networkTotal: j.networkTotal ?? null,
    result: j.result ?? null,
    error: j.error ?? null,
    attempts: j.attempts,
    createdAt: j.createdAt,
    updatedAt: j.updatedAt,
    completedAt: j.completedAt ?? null,
    idempotencyKey: j.idempotencyKey ?? null,
    frameworkIdentifier: j.frameworkIdentifier ?? null,
    positionId: j.positionId ?? null,
    investorIdentifier: j.investorIdentifier ?? null,
    reportingYear: j.reportingYear ?? null,
    languageCode: j.languageCode ?? null,
    key: j.key ?? null,
    keyValue: j.keyValue ? { ...j.keyValue, value: j.keyValue.value ?? null, valueHex: j.keyValue.valueHex ?? null } : null,
    document: j.document ? documentResult(j.document, j.id, baseUrl) : null,
    nftGuid: j.nftGuid ?? null,
    nftId: j.nftId ?? null,
    nft: j.nft ? toGqlNft(j.nft) : null,
    actedBy: j.actedBy ?? null,
  };
}

export function toGqlNetwork(n: Network) {
  const orNull = (s: string) => s || null;
  return {
    ...n,
    explorerUrl: orNull(n.explorerUrl),
    aliasOf: n.aliasOf ?? null,
    keyValueStoreAddress: orNull(n.keyValueStoreAddress),
    documentRegistryAddress: orNull(n.documentRegistryAddress),
    nftContractAddress: orNull(n.nftContractAddress),
  };
}

export function toGqlDocumentEntry(e: DocumentJobEntry) {
  return {
    id: e.id,
    jobId: e.jobId,
    kind: documentKindToGql(e.kind),
    status: jobStatusToGql(e.status),
    network: e.network,
    reportingYear: e.reportingYear ?? null,
    createdAt: e.createdAt,
  };
}

/** A document that passed requireVerifiedDocument; its page address signed, so it opens in a browser. */
export function toGqlDocument(d: GetDocumentResponse & { job: Job }, baseUrl: string, links: DocumentLinks) {
  const json = documentKindParts(d.kind)?.format === 'json';
  return {
    job: toGqlJob(d.job, baseUrl),
    kind: documentKindToGql(d.kind),
    contentType: d.contentType,
    cid: d.cid,
    sha256: d.sha256,
    anchoredSha256: d.anchoredSha256,
    verified: d.verified,
    proof: proofToGql(d.proof),
    documentId: d.documentId,
    content: Buffer.from(d.content).toString('utf8'),
    json: json ? jsonDocument(d) : null,
    contentUrl: contentUrl(baseUrl, d.cid),
    pageUrl: documentKindParts(d.kind)?.format === 'html' ? signedPageUrl(links, baseUrl, d) : null,
  };
}

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

/** A request parameter's value as text: a string as it is, anything else as JSON; null stays null. */
function parameterText(value: unknown): string | null {
  if (value === null || value === undefined) return null;
  return typeof value === 'string' ? value : JSON.stringify(value);
}

/** The JSON scalar: any JSON value, passed through as it is. */
export const jsonScalar = new GraphQLScalarType({
  name: 'JSON',
  description: 'Any JSON value.',
  serialize: (value) => value,
  parseValue: (value) => value,
  parseLiteral: literal,
});
