import { DocumentFormat } from '@green-impact/proto/greenimpact/common/v1/common';
import {
  DocumentKind,
  JobStatus,
  type DocumentJobEntry,
  type GetDocumentResponse,
  type Job,
  type TransactionLog,
  type TransactionReceipt,
} from '@green-impact/proto/greenimpact/chain/v1/chain';
import { FailedPreconditionError, InternalError } from '@green-impact/shared/errors';
import type { DocumentLinks } from '../../document-links.js';
import { jobStatusV1 } from '../../generated/chain.js';

/**
 * Chain proto messages → the spec's JSON for the blockchain operations (§4.2, §4.12, §4.13 fetch), the
 * checks a read of a written document must pass before anything of it is shown, and the legacy request
 * echo jobs keep. Pure; shared by the catalogue's declarations, GraphQL's objects and the pages.
 */

/** The job of a chain answer; the contract always sets it, so its absence is a breach, not a client error. */
export function jobOf(res: { job?: Job | undefined }): Job {
  if (!res.job) throw new InternalError('Internal error.', { cause: new Error('the chain service answered no job') });
  return res.job;
}

/** eu_gbs: a framework's EU Green Bond Standard document (issue 37), HTML only. */
export type DocumentFamily = 'framework' | 'position_impacts' | 'eu_gbs';
export type DocumentFormatName = 'json' | 'html';

export function documentFormat(format: DocumentFormatName): DocumentFormat {
  return format === 'json' ? DocumentFormat.DOCUMENT_FORMAT_JSON : DocumentFormat.DOCUMENT_FORMAT_HTML;
}

/** The chain's DocumentKind of a family and format. */
export function documentKind(family: DocumentFamily, format: DocumentFormatName): DocumentKind {
  if (family === 'eu_gbs') return DocumentKind.DOCUMENT_KIND_EU_GBS_HTML;
  if (family === 'framework') {
    return format === 'json' ? DocumentKind.DOCUMENT_KIND_FRAMEWORK_JSON : DocumentKind.DOCUMENT_KIND_FRAMEWORK_HTML;
  }
  return format === 'json' ? DocumentKind.DOCUMENT_KIND_POSITION_IMPACTS_JSON : DocumentKind.DOCUMENT_KIND_POSITION_IMPACTS_HTML;
}

/** Family and format of a DocumentKind; undefined for UNSPECIFIED (or a kind this gateway does not know). */
export function documentKindParts(kind: DocumentKind | undefined): { family: DocumentFamily; format: DocumentFormatName } | undefined {
  switch (kind) {
    case DocumentKind.DOCUMENT_KIND_FRAMEWORK_JSON:
      return { family: 'framework', format: 'json' };
    case DocumentKind.DOCUMENT_KIND_FRAMEWORK_HTML:
      return { family: 'framework', format: 'html' };
    case DocumentKind.DOCUMENT_KIND_POSITION_IMPACTS_JSON:
      return { family: 'position_impacts', format: 'json' };
    case DocumentKind.DOCUMENT_KIND_POSITION_IMPACTS_HTML:
      return { family: 'position_impacts', format: 'html' };
    case DocumentKind.DOCUMENT_KIND_EU_GBS_HTML:
      return { family: 'eu_gbs', format: 'html' };
    default:
      return undefined;
  }
}

/** Parameters that must never be echoed into a job's `request` (stored by the chain service, shown by fetch). */
const SECRET_PARAMETERS: ReadonlySet<string> = new Set(['decryption_key', 'encryption_key']);

/**
 * The legacy call as the job's `request` echo (the spec's fetch `info.request`): solution, operation and
 * the validated parameters under their canonical names, without keys. `envelope` adds version and
 * network for the Hash and NFT solutions.
 */
export function requestEcho(
  solution: string,
  operation: string,
  parameters: Readonly<Record<string, unknown>>,
  envelope: { version?: number | undefined; network?: string | undefined } = {},
): Record<string, unknown> {
  const kept = Object.fromEntries(Object.entries(parameters).filter(([name, value]) => value !== undefined && !SECRET_PARAMETERS.has(name)));
  return {
    solution,
    ...(envelope.version !== undefined ? { version: envelope.version } : {}),
    ...(envelope.network !== undefined ? { network: envelope.network } : {}),
    operation,
    parameters: kept,
  };
}

/** The answer of a job-creating Hash (and NFT) call, spec §4.12: `{statusCode, statusMessage, info: {jobId}}`. */
export function jobAccepted(jobId: string) {
  return { statusCode: 200, statusMessage: '', info: { jobId } };
}

/**
 * The answer of the four writes of §4.2 (not shown in the spec): the Hash/NFT job answer, plus `job_id` at
 * the top level under the name every other §4.2 operation uses for it.
 */
export function writeAccepted(jobId: string) {
  return { ...jobAccepted(jobId), job_id: jobId };
}

function logShape(l: TransactionLog) {
  return {
    _type: l.type,
    address: l.address,
    blockHash: l.blockHash,
    blockNumber: l.blockNumber,
    data: l.data,
    index: l.index,
    topics: l.topics,
    transactionHash: l.transactionHash,
    transactionIndex: l.transactionIndex,
  };
}

/** The spec's `receipt` (ethers v6 TransactionReceipt: `_type`, camelCase; absent addresses are null). */
export function receiptShape(r: TransactionReceipt) {
  return {
    _type: r.type,
    blockHash: r.blockHash,
    blockNumber: r.blockNumber,
    contractAddress: r.contractAddress ?? null,
    cumulativeGasUsed: r.cumulativeGasUsed,
    from: r.from,
    gasPrice: r.gasPrice,
    gasUsed: r.gasUsed,
    hash: r.hash,
    index: r.index,
    logs: r.logs.map(logShape),
    logsBloom: r.logsBloom,
    status: r.status,
    to: r.to ?? null,
  };
}

/**
 * The fetch answer of a job (spec §4.13's fetch result; getJobStatusFromBlockchain and Hash `fetch` answer
 * it too), mapped as docs/api-operations.md says. Every key is present; what the job does not have yet is
 * null. A failed job keeps statusCode 200 (the fetch worked) and says why in statusMessage and `error`.
 */
export function fetchAnswer(job: Job) {
  const failed = job.status === JobStatus.JOB_STATUS_FAILED;
  const nft = job.nft;
  return {
    statusCode: 200,
    statusMessage: failed ? (job.error ?? 'The job failed.') : '',
    info: {
      status: { Value: jobStatusV1(job.status) },
      request: job.request ?? null,
      result: job.result ?? null,
      hash: job.txHash ?? null,
      txnUrl: job.txUrl ?? null,
      receipt: job.receipt ? receiptShape(job.receipt) : null,
      networkCost: job.networkCost ?? null,
      networkFee: job.networkFee ?? null,
      networkTotal: job.networkTotal ?? null,
      // Mint jobs (SVC.NFT.zK new) carry the certificate of trust of the NFT they made.
      ...(nft
        ? {
            certificateOfTrust: nft.certificateOfTrust,
            certificateOfTrustJPG: nft.certificateOfTrustJpg,
            certificateOfTrustUrl: nft.certificateOfTrustUrl,
          }
        : {}),
      guid: job.nftGuid ?? job.id,
      type: { value: 'blockchain-job' },
      timestampInMillis: Date.parse(job.updatedAt),
      ...(job.error !== undefined ? { error: job.error } : {}),
    },
  };
}

/** getBlockchainJobsForFrameworks / getBlockchainJobsForImpacts entries: `{id, job_id}` (§2.9). */
export function jobListEntry(e: DocumentJobEntry) {
  return { id: e.id, job_id: e.jobId };
}

const FAMILY_TEXT: Record<DocumentFamily, string> = { framework: 'framework', position_impacts: 'position impacts', eu_gbs: 'European Green Bond Standard' };
const FORMAT_TEXT: Record<DocumentFormatName, string> = { json: 'JSON', html: 'HTML' };
const READER: Record<DocumentFamily, Partial<Record<DocumentFormatName, string>>> = {
  framework: { json: 'getJsonFrameworkFromBlockchain', html: 'getHtmlFrameworkFromBlockchain' },
  position_impacts: { json: 'getJsonPositionImpactsFromBlockchain', html: 'getHtmlPositionImpactsFromBlockchain' },
  eu_gbs: { html: 'getEuGbsDocumentFromBlockchain' },
};

/**
 * A document read back from the chain service may be shown only when it is the kind asked for and it
 * verified against its anchor on the chain now. A document whose content no longer matches its anchor is
 * FAILED_PRECONDITION (400): the request is fine, the stored document is not, and it is never served as
 * genuine (docs/chain.md).
 */
export function requireVerifiedDocument(
  doc: GetDocumentResponse,
  wanted: { family?: DocumentFamily; format?: DocumentFormatName },
): GetDocumentResponse & { job: Job } {
  const job = doc.job;
  if (!job) throw new InternalError('Internal error.', { cause: new Error('GetDocument answered no job') });
  const parts = documentKindParts(doc.kind);
  if (!parts) throw new FailedPreconditionError(`Job ${job.id} holds no report document.`);
  if (wanted.family !== undefined && parts.family !== wanted.family) {
    throw new FailedPreconditionError(
      `Job ${job.id} holds a ${FAMILY_TEXT[parts.family]} document, not a ${FAMILY_TEXT[wanted.family]} document.`,
    );
  }
  if (wanted.format !== undefined && parts.format !== wanted.format) {
    throw new FailedPreconditionError(
      `Job ${job.id} holds a ${FORMAT_TEXT[parts.format]} ${FAMILY_TEXT[parts.family]} document; read it with ${READER[parts.family][parts.format]}.`,
    );
  }
  if (!doc.verified && (doc.unverifiedReason === 'contract not trusted' || doc.unverifiedReason === 'writer not trusted')) {
    throw new FailedPreconditionError(
      `The document of job ${job.id} is not verified: ${doc.unverifiedReason} (its proof names ${doc.proof?.contract || 'a contract'} on network ${job.network}, not this deployment's trust anchor): it is not served.`,
    );
  }
  if (!doc.verified) {
    throw new FailedPreconditionError(
      `The document of job ${job.id} does not match its anchor on network ${job.network} ` +
        `(content sha256 ${doc.sha256 || 'unknown'}, anchored ${doc.anchoredSha256 || 'unknown'}): it is not served.`,
    );
  }
  return { ...doc, job };
}

/** The content of a verified JSON document, as written. */
export function jsonDocument(doc: GetDocumentResponse): unknown {
  try {
    return JSON.parse(Buffer.from(doc.content).toString('utf8'));
  } catch (err) {
    // JSON kinds are checked to be JSON when written, and the content verified against its hash since.
    throw new InternalError('Internal error.', { cause: err });
  }
}

const LINK_TEXT: Record<DocumentFamily, string> = {
  framework: 'Framework document on the blockchain',
  position_impacts: 'Position impacts document on the blockchain',
  eu_gbs: 'EU Green Bond Standard document on the blockchain',
};

/** `{jobs_url}`: where the gateway serves written HTML documents (GET /jobs/<job_id>.html). */
export function jobsUrl(baseUrl: string): string {
  return `${baseUrl}/jobs`;
}

/** `{jobs_url}/<job_id>.html`: the page's address, which opens with the account's X-Api-Key. */
export function pageUrl(baseUrl: string, jobId: string): string {
  return `${jobsUrl(baseUrl)}/${encodeURIComponent(jobId)}.html`;
}

/**
 * The page's address signed for the document's current link epoch: it opens in a browser without a key
 * until it expires or the owner revokes the document's links (document-links.ts).
 */
export function signedPageUrl(links: DocumentLinks, baseUrl: string, doc: { job: { id: string }; linkEpoch: number }): string {
  return links.sign(pageUrl(baseUrl, doc.job.id), doc.job.id, doc.linkEpoch);
}

/** getHtml*FromBlockchain: one key carrying a link text, valued `{jobs_url}/<job_id>.html` and its signature (spec §4.2). */
export function documentLink(family: DocumentFamily, url: string): Record<string, string> {
  return { [LINK_TEXT[family]]: url };
}
