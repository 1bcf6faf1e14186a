import type { DataSource } from 'typeorm';
import type { DocumentJobEntry, GetDocumentResponse, ListDocumentJobsRequest, SubmitDocumentRequest } from '@green-impact/proto/greenimpact/chain/v1/chain';
import { actedByColumns, type Caller } from '@green-impact/shared/caller';
import { FailedPreconditionError, InvalidArgumentError, NotFoundError, UnavailableError } from '@green-impact/shared/errors';
import { DEFAULT_LISTING_LIMITS } from '@green-impact/shared/config';
import { cappedListing, decodePageToken, pageOf, pageSize } from '@green-impact/shared/paging';
import { cidOf, type ContentStore } from '../content/content-store.js';
import { anchorIdOf, readAnchor, type Anchor } from '../contracts/document-registry.js';
import { DocumentEntity, type DocumentRow, type JobRow } from '../jobs/entities.js';
import type { BatchedWrite, JobStore } from '../jobs/job-store.js';
import { DOCUMENT_KINDS, JOB_STATUSES, type DocumentKindName, type DocumentPayload } from '../jobs/job-types.js';
import type { NetworkRegistry } from '../networks/network-registry.js';
import type { ChainNetwork } from '../networks/chain-network.js';
import { verifyDocumentProof, type ProofVerification } from '../proofs/document-proof.js';
import { trustedContractOf, trustedSignerOf } from '../proofs/trust-anchor.js';
import { ChainFactsCache } from './chain-facts.js';
import { documentProofOf } from './document-proofs.js';
import { documentKindName, FRAMEWORK_KINDS, isFrameworkKind, validContent, validReportingYear, validSubject } from './document-rules.js';

/** A document's entry, written with its job (DOCUMENT_ENTRIES); documentId is set once it is written. */
interface DocumentEntry extends Pick<DocumentRow, 'accountId' | 'kind' | 'cid' | 'sha256' | 'contentType' | 'size'> {
  subject: { frameworkIdentifier?: string | undefined; investorIdentifier?: string | undefined; positionId?: number | undefined };
  reportingYear: number | undefined;
  languageCode: string | undefined;
  isPublic: boolean;
  actedBy: ReturnType<typeof actedByColumns>;
  documentId?: number;
}

/**
 * The entries of the documents accepted together (JobStore.accept): one INSERT of every entry, then one
 * UPDATE giving each job its payload (entry id, anchor id, CID, hash, type, size).
 */
const DOCUMENT_ENTRIES: BatchedWrite<DocumentEntry> = {
  async writeAll(m, items) {
    const params: unknown[] = [];
    const tuples = items.map(({ jobId, value: e }) => {
      const values = [
        jobId, e.accountId, e.kind, e.cid, e.sha256, e.contentType, e.size, e.subject.frameworkIdentifier ?? null,
        e.subject.investorIdentifier ?? null, e.subject.positionId ?? null, e.reportingYear ?? null, e.languageCode ?? null, e.isPublic,
        ...e.actedBy,
      ];
      const at = params.length;
      params.push(...values);
      return `(${values.map((_, i) => `$${at + i + 1}`).join(', ')})`;
    });
    const rows = (await m.query(
      `INSERT INTO chain.documents (job_id, account_id, kind, cid, sha256, content_type, size, framework_identifier,
         investor_identifier, position_id, reporting_year, language_code, public, acted_by_subject, acted_by_issuer)
       VALUES ${tuples.join(', ')} RETURNING id, job_id`,
      params,
    )) as { id: string; job_id: string }[];
    const idOf = new Map(rows.map((r) => [r.job_id, Number(r.id)]));
    const payloads = items.map(({ jobId, value: e }) => {
      e.documentId = idOf.get(jobId)!;
      const payload: DocumentPayload = { documentId: e.documentId, anchorId: anchorIdOf(jobId), cid: e.cid, sha256: e.sha256, contentType: e.contentType, size: e.size };
      return [jobId, JSON.stringify(payload)];
    });
    await m.query(
      `UPDATE chain.jobs AS j SET payload = v.payload::jsonb FROM (VALUES ${payloads.map((_, i) => `($${2 * i + 1}::uuid, $${2 * i + 2})`).join(', ')}) AS v(id, payload) WHERE j.id = v.id`,
      payloads.flat(),
    );
  },
};

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

export interface ReadDocument extends Omit<GetDocumentResponse, 'job'> {
  jobRow: JobRow;
}

/**
 * Report documents (§4.2): a write stores the content in the content-addressed store, then queues the job
 * that anchors sha256 + CID on the registry; a read re-reads the anchor from the chain and checks the
 * stored content against it.
 */
export class Documents {
  /** The chain facts of documents past their network's confirmations (chain-facts.ts). */
  private readonly facts = new ChainFactsCache();

  constructor(
    private readonly ds: DataSource,
    private readonly store: JobStore,
    private readonly networks: NetworkRegistry,
    private readonly content: ContentStore,
    /** MAX_LIST_ITEMS: the most entries an unpaged list answers. */
    private readonly maxListItems = DEFAULT_LISTING_LIMITS.maxListItems,
  ) {}

  async submit(caller: Caller, req: SubmitDocumentRequest): Promise<{ job: JobRow; documentId: number; replayed: boolean }> {
    const kind = documentKindName(req.kind);
    const named = this.networks.resolve(req.network);
    const subject = validSubject(kind, req);
    const content = Buffer.from(req.content);
    const contentType = validContent(kind, content, req.contentType);
    const { sha256 } = cidOf(content);
    if (req.sha256 !== undefined && req.sha256.trim().toLowerCase() !== sha256) {
      throw new InvalidArgumentError(`sha256 does not match the content (computed ${sha256}).`);
    }
    const reportingYear = validReportingYear(req.reportingYear);
    const languageCode = req.languageCode?.trim() || undefined;
    // Only a public framework's document is public; position impacts are always the account's alone.
    const isPublic = req.public === true && isFrameworkKind(kind);
    // Content first: it is addressed by its hash, so a write that fails afterwards leaves only a harmless file.
    const stored = await this.content.put(content, contentType);
    const entry: DocumentEntry = {
      accountId: caller.accountId, kind, cid: stored.cid, sha256: stored.sha256, contentType, size: stored.size, subject,
      reportingYear, languageCode, isPublic, actedBy: actedByColumns(caller),
    };
    const { job, replayed } = await this.store.create(
      {
        caller,
        kind: 'document',
        documentKind: kind,
        network: named.name,
        chainNetwork: named.aliasOf ?? named.name,
        signer: named.network.signerAddress,
        request: req.requestEcho && Object.keys(req.requestEcho).length > 0 ? req.requestEcho : { network: named.name, kind, ...subject },
        payload: {},
        fingerprint: { kind, network: named.name, sha256, ...subject, reportingYear: reportingYear ?? null, languageCode: languageCode ?? null },
        idempotencyKey: req.idempotencyKey,
        subject: { ...subject, reportingYear, languageCode },
      },
      { write: DOCUMENT_ENTRIES, value: entry },
    );
    let documentId = entry.documentId ?? 0;
    if (replayed) documentId = (job.payload as unknown as DocumentPayload).documentId;
    return { job, documentId, replayed };
  }

  /** Reads a completed document of the caller's back and verifies it against the anchor on the chain now. */
  async read(caller: Caller, ref: string): Promise<ReadDocument> {
    return this.verified(await this.store.get(caller, ref));
  }

  /**
   * A capability read (no caller): the gateway checked a signed link to this job for this link epoch.
   * A revoked epoch, a job that is no document, or no job at all: the same NOT_FOUND as an unknown job.
   */
  async readByLink(jobId: string, linkEpoch: number): Promise<ReadDocument> {
    const id = jobId.trim().toLowerCase();
    const rows: { job_id: string }[] = UUID.test(id)
      ? await this.ds.query(`SELECT job_id FROM chain.documents WHERE job_id = $1 AND link_epoch = $2`, [id, linkEpoch])
      : [];
    const job = rows[0] ? await this.store.load(rows[0].job_id) : null;
    if (!job) throw new NotFoundError(`No such job ${jobId.trim()}.`);
    return this.verified(job);
  }

  /** Revokes every link signed so far to one of the caller's documents: its link epoch moves on. */
  async revokeLinks(caller: Caller, ref: string): Promise<{ jobId: string; linkEpoch: number }> {
    const job = await this.store.get(caller, ref);
    // A CTE, so the statement is a SELECT: TypeORM answers UPDATE … RETURNING as [rows, count].
    const [updated]: { link_epoch: number }[] = await this.ds.query(
      `WITH bumped AS (
         UPDATE chain.documents SET link_epoch = link_epoch + 1 WHERE job_id = $1 AND account_id = $2 RETURNING link_epoch)
       SELECT link_epoch FROM bumped`,
      [job.id, caller.accountId],
    );
    if (!updated) throw new FailedPreconditionError(`Job ${job.id} is not a document job; it has no links to revoke.`);
    return { jobId: job.id, linkEpoch: Number(updated.link_epoch) };
  }

  private async verified(job: JobRow): Promise<ReadDocument> {
    if (job.kind !== 'document') throw new FailedPreconditionError(`Job ${job.id} is not a document job.`);
    if (job.status !== 'completed') {
      throw new FailedPreconditionError(
        job.status === 'failed'
          ? `Job ${job.id} failed; there is no document to read: ${job.error ?? 'no reason recorded'}`
          : `Job ${job.id} is ${job.status}; the document can be read once it is completed.`,
      );
    }
    const doc = await this.ds.getRepository(DocumentEntity).findOneByOrFail({ jobId: job.id });
    const payload = job.payload as unknown as DocumentPayload;
    const network = this.networks.byCanonicalName(job.chainNetwork);
    if (!network) throw new FailedPreconditionError(`Network ${job.chainNetwork} of job ${job.id} is not configured in this service.`);
    const stored = (job.outcome as { document?: { registryAddress?: string } } | null)?.document?.registryAddress;
    if (job.proof) return this.verifiedInBatch(job, doc, network, stored ?? network.contracts.documentRoots ?? '');
    let anchor: Anchor | undefined;
    let chainReadAt: Date;
    try {
      // The anchor's answer is kept once its block is confirmed; the content is hashed below every time.
      ({ result: anchor, readAt: chainReadAt } = await this.facts.read(`${network.instanceId}\0${job.id}`, network, (rpc) => readAnchor(network, payload.anchorId, rpc), (a) => a?.blockNumber));
    } catch (err) {
      throw new UnavailableError(`Network ${job.network} did not answer; please retry.`, { cause: err });
    }
    if (!anchor) {
      throw new FailedPreconditionError(
        network.embedded
          ? `The anchor of document ${doc.id} is not on network ${job.network}: embedded networks start empty on every start of the service.`
          : `The anchor of document ${doc.id} is not on network ${job.network} (registry ${network.contracts.documentRegistry}).`,
      );
    }
    const found = await this.content.get(anchor.cid);
    if (!found) throw new FailedPreconditionError(`The content of document ${doc.id} (CID ${anchor.cid}) is missing from the content store.`);
    const proof = documentProofOf(job, network, stored ?? network.contracts.documentRegistry ?? '');
    const contentMatches = found.sha256 === anchor.sha256 && cidOf(found.content).cid === anchor.cid && anchor.cid === doc.cid;
    // Trusted as the offline verifier trusts (trust-anchor.ts): the proof names this deployment's registry, and its signer wrote the anchor.
    const trust = this.networks.trustAnchor();
    const unverifiedReason = proof && proof.contract.toLowerCase() !== (trustedContractOf(trust, network.chainId, 'anchor') ?? '').toLowerCase()
      ? 'contract not trusted'
      : anchor.writer.toLowerCase() !== (trustedSignerOf(trust, network.chainId) ?? '').toLowerCase()
        ? 'writer not trusted'
        : contentMatches ? '' : 'content changed';
    return {
      jobRow: job,
      kind: DOCUMENT_KINDS[doc.kind],
      content: found.content,
      contentType: doc.contentType,
      cid: anchor.cid,
      sha256: found.sha256,
      anchoredSha256: anchor.sha256,
      verified: unverifiedReason === '',
      unverifiedReason,
      documentId: doc.id,
      linkEpoch: doc.linkEpoch,
      ...(proof ? { proof } : {}),
      chainReadAt: chainReadAt.toISOString(),
    };
  }

  /**
   * A document anchored in a batch: the stored content against its Merkle proof, the root held by
   * DocumentRoots now and the batch's transaction — the same checks the standalone verifier makes.
   */
  private async verifiedInBatch(job: JobRow, doc: DocumentRow, network: ChainNetwork, contract: string): Promise<ReadDocument> {
    const proof = documentProofOf(job, network, contract)!;
    const found = await this.content.get(doc.cid);
    if (!found) throw new FailedPreconditionError(`The content of document ${doc.id} (CID ${doc.cid}) is missing from the content store.`);
    // The node's answers (root, receipt) are kept once the batch's block is confirmed; the proof's content
    // checks (sha256, CID, leaf, path) run on the stored bytes every time.
    const { result: check, readAt } = await this.facts.read(`${network.instanceId}\0${job.id}`, network, (rpc) => verifyDocumentProof(proof, rpc, found.content, this.networks.trustAnchor()), (c) => confirmedBlockOf(c));
    const unanswered = check.checks.find((c) => c.check === 'node' && !c.ok);
    if (unanswered) throw new UnavailableError(`Network ${job.network} did not answer; please retry.`);
    const onChain = check.checks.find((c) => c.check === 'root on chain');
    if (onChain && !onChain.ok) {
      throw new FailedPreconditionError(
        network.embedded
          ? `The root anchoring document ${doc.id} is not on network ${job.network}: embedded networks start empty on every start of the service.`
          : `The root anchoring document ${doc.id} is not on network ${job.network} (contract ${contract}).`,
      );
    }
    return {
      jobRow: job,
      kind: DOCUMENT_KINDS[doc.kind],
      content: found.content,
      contentType: doc.contentType,
      cid: doc.cid,
      sha256: found.sha256,
      anchoredSha256: proof.documentSha256,
      verified: check.verified,
      unverifiedReason: check.reason ?? '',
      documentId: doc.id,
      linkEpoch: doc.linkEpoch,
      proof,
      chainReadAt: readAt.toISOString(),
    };
  }

  /**
   * getBlockchainJobsForFrameworks / getBlockchainJobsForImpacts: the caller's entries, oldest first (id
   * order), at most MAX_LIST_ITEMS (`totalCount` set only when cut). With page_size, one page of them: keyset after the token's entry id (LIMIT size + 1 rows),
   * the same filters, and their number from one COUNT.
   */
  async list(caller: Caller, req: ListDocumentJobsRequest): Promise<{ jobs: DocumentJobEntry[]; nextPageToken: string; totalCount?: number }> {
    const { where, params } = listing(caller, req);
    const select = `SELECT d.id, d.job_id, d.kind, j.status, j.network, d.reporting_year, d.created_at
         FROM chain.documents d JOIN chain.jobs j ON j.id = d.job_id WHERE ${where}`;
    if (req.pageSize === undefined) {
      const rows: EntryRow[] = await this.ds.query(`${select} ORDER BY d.id LIMIT $${params.length + 1}`, [...params, this.maxListItems]);
      const { items, totalCount } = await cappedListing(rows, this.maxListItems, async () => {
        const [counted]: { count: string | number }[] = await this.ds.query(`SELECT count(*) AS count FROM chain.documents d WHERE ${where}`, params);
        return Number(counted?.count ?? 0);
      });
      return { jobs: items.map(toEntry), nextPageToken: '', ...(totalCount !== undefined ? { totalCount } : {}) };
    }
    const size = pageSize(req.pageSize);
    const after = decodePageToken(req.pageToken);
    const [counted]: { count: string | number }[] = await this.ds.query(`SELECT count(*) AS count FROM chain.documents d WHERE ${where}`, params);
    const rows: EntryRow[] = await this.ds.query(
      `${select} AND d.id > $${params.length + 1} ORDER BY d.id LIMIT $${params.length + 2}`,
      [...params, after?.id ?? 0, size + 1],
    );
    const { items, nextPageToken } = pageOf(rows, size, after, (r) => Number(r.id));
    return { jobs: items.map(toEntry), nextPageToken, totalCount: Number(counted?.count ?? 0) };
  }
}

/** The block of a verification whose every chain check held ("mined in block N"); undefined otherwise: nothing is kept. */
function confirmedBlockOf(check: ProofVerification): number | undefined {
  const chainChecks = check.checks.filter((c) => ['trusted contract', 'network', 'root on chain', 'trusted writer', 'anchor on chain', 'transaction'].includes(c.check));
  if (chainChecks.length === 0 || !chainChecks.every((c) => c.ok)) return undefined;
  const mined = /^mined in block (\d+)/.exec(check.checks.find((c) => c.check === 'transaction')?.detail ?? '');
  return mined ? Number(mined[1]) : undefined;
}

interface EntryRow {
  id: string; job_id: string; kind: DocumentKindName; status: keyof typeof JOB_STATUSES; network: string;
  reporting_year: number | null; created_at: Date;
}

/** The filters of a document listing, on chain.documents d: the caller's documents about one subject, of its kinds. */
/** A listing's identifier filters are lookup keys of at most 255 characters, as the services store them. */
const MAX_IDENTIFIER = 255;
function filterKey(field: string, value: string | undefined): string | undefined {
  const key = value?.trim() || undefined;
  if (key !== undefined && key.length > MAX_IDENTIFIER) {
    throw new InvalidArgumentError(`${field} must be at most ${MAX_IDENTIFIER} characters.`, { field });
  }
  return key;
}

function listing(caller: Caller, req: ListDocumentJobsRequest): { where: string; params: unknown[] } {
  const framework = filterKey('framework_identifier', req.frameworkIdentifier);
  const investor = filterKey('investor_identifier', req.investorIdentifier);
  const kinds = req.kinds.map(documentKindName);
  let where: string;
  const params: unknown[] = [caller.accountId];
  if (framework) {
    params.push(framework);
    where = `d.framework_identifier = $2`;
    if (kinds.length === 0) kinds.push(...FRAMEWORK_KINDS);
  } else if (investor && req.positionId !== undefined) {
    params.push(investor, req.positionId);
    where = `d.investor_identifier = $2 AND d.position_id = $3`;
    if (kinds.length === 0) kinds.push('position_impacts_json', 'position_impacts_html');
  } else {
    throw new InvalidArgumentError('framework_identifier, or investor_identifier with position_id, is required.');
  }
  params.push(kinds.filter((k) => isFrameworkKind(k) === Boolean(framework)));
  return { where: `d.account_id = $1 AND ${where} AND d.kind = ANY($${params.length}::varchar[])`, params };
}

function toEntry(r: EntryRow): DocumentJobEntry {
  return {
    id: Number(r.id),
    jobId: r.job_id,
    kind: DOCUMENT_KINDS[r.kind],
    status: JOB_STATUSES[r.status],
    network: r.network,
    ...(r.reporting_year !== null ? { reportingYear: r.reporting_year } : {}),
    createdAt: new Date(r.created_at).toISOString(),
  };
}
