import { createHash } from 'node:crypto';
import { ChainServiceService, DocumentKind, JobKind, JobStatus, type DocumentJobEntry } from '@green-impact/proto/greenimpact/chain/v1/chain';
import { FailedPreconditionError, InvalidArgumentError, NotFoundError } from '@green-impact/shared/errors';
import type { UnaryHandlers } from '@green-impact/shared/grpc/server';
import { decodePageToken, pageOf, pageSize } from '@green-impact/shared/paging';
import type { FakeChainCore } from './fake-chain.js';

export const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

/**
 * The document methods of the fake ChainService (fake-chain.ts): a submitted document is stored by a
 * CID made from its SHA-256 and anchored by a job; it is read back (verified against the anchor) once the
 * job is completed, and by CID as the chain service serves content (by visibility and account).
 */
export function fakeDocumentHandlers(core: FakeChainCore): Partial<UnaryHandlers<typeof ChainServiceService>> {
  const { jobs, content, record, recordAnonymous, find, resolve, create } = core;
  let nextDocumentId = 1;
  return {
    async submitDocument(req, ctx) {
      const c = record('submitDocument', req, ctx);
      const n = resolve(req.network);
      if (req.kind === DocumentKind.DOCUMENT_KIND_UNSPECIFIED) throw new InvalidArgumentError('kind is required.');
      const framework = req.kind === DocumentKind.DOCUMENT_KIND_FRAMEWORK_JSON || req.kind === DocumentKind.DOCUMENT_KIND_FRAMEWORK_HTML;
      if (framework && !req.frameworkIdentifier) throw new InvalidArgumentError('framework_identifier is required for framework documents.');
      if (!framework && !req.investorIdentifier) throw new InvalidArgumentError('investor_identifier is required for position impacts documents.');
      if (!framework && !req.positionId) throw new InvalidArgumentError('position_id is required for position impacts documents (a positive integer).');
      const hash = sha256(req.content);
      if (req.sha256 !== undefined && req.sha256 !== hash) throw new InvalidArgumentError(`sha256 does not match the content (computed ${hash}).`);
      const cid = `bafkrei${hash.slice(0, 52)}`;
      content.set(cid, { bytes: Buffer.from(req.content), contentType: req.contentType });
      const subject = framework
        ? { frameworkIdentifier: req.frameworkIdentifier! }
        : { investorIdentifier: req.investorIdentifier!, positionId: req.positionId! };
      const documentId = nextDocumentId;
      const { job, replayed } = create(
        c,
        { kind: JobKind.JOB_KIND_DOCUMENT, network: n.name, request: req.requestEcho, idempotencyKey: req.idempotencyKey, fingerprint: [req.kind, n.name, hash, subject] },
        { documentKind: req.kind, ...subject, ...(req.reportingYear !== undefined ? { reportingYear: req.reportingYear } : {}) },
        { doc: { id: documentId, kind: req.kind, cid, sha256: hash, contentType: req.contentType, public: framework && req.public === true, linkEpoch: 0 } },
      );
      if (!replayed) nextDocumentId++;
      return { job, documentId: jobs.get(job.id)!.doc!.id, replayed };
    },
    async getDocument(req, ctx) {
      // A link the gateway checked: no caller, the job's UUID and the epoch it was signed for.
      const linked = req.linkEpoch !== undefined && !ctx.caller;
      if (linked) recordAnonymous('getDocument', req, ctx);
      const s = linked ? jobs.get(req.jobId.toLowerCase()) : find(record('getDocument', req, ctx), req.jobId);
      if (linked && (!s?.doc || s.doc.linkEpoch !== req.linkEpoch)) throw new NotFoundError(`No such job ${req.jobId}.`);
      if (!s?.doc) throw new FailedPreconditionError(`Job ${s?.job.id} is not a document job.`);
      if (s.job.status !== JobStatus.JOB_STATUS_COMPLETED) {
        throw new FailedPreconditionError(`Job ${s.job.id} is not completed; the document can be read once it is completed.`);
      }
      const stored = content.get(s.doc.cid)!;
      const actual = sha256(stored.bytes);
      return {
        job: s.job, kind: s.doc.kind, content: stored.bytes, contentType: s.doc.contentType, cid: s.doc.cid,
        sha256: actual, anchoredSha256: s.doc.sha256, verified: actual === s.doc.sha256, documentId: s.doc.id, linkEpoch: s.doc.linkEpoch,
      };
    },
    async revokeDocumentLinks(req, ctx) {
      const s = find(record('revokeDocumentLinks', req, ctx), req.jobId);
      if (!s.doc) throw new FailedPreconditionError(`Job ${s.job.id} is not a document job; it has no links to revoke.`);
      s.doc.linkEpoch += 1;
      return { jobId: s.job.id, linkEpoch: s.doc.linkEpoch };
    },
    async listDocumentJobs(req, ctx) {
      const c = record('listDocumentJobs', req, ctx);
      if (!req.frameworkIdentifier && !(req.investorIdentifier && req.positionId !== undefined)) {
        throw new InvalidArgumentError('framework_identifier, or investor_identifier with position_id, is required.');
      }
      const entries: DocumentJobEntry[] = [...jobs.values()]
        .filter((s) => s.account === c.accountId && s.doc)
        .filter((s) =>
          req.frameworkIdentifier
            ? s.job.frameworkIdentifier === req.frameworkIdentifier
            : s.job.investorIdentifier === req.investorIdentifier && s.job.positionId === req.positionId,
        )
        .map((s) => ({
          id: s.doc!.id, jobId: s.job.id, kind: s.doc!.kind, status: s.job.status, network: s.job.network,
          ...(s.job.reportingYear !== undefined ? { reportingYear: s.job.reportingYear } : {}), createdAt: s.job.createdAt,
        }))
        .sort((a, b) => a.id - b.id);
      if (req.pageSize === undefined) return { jobs: entries, nextPageToken: '' };
      // Paged as the service pages (Documents.list): id order, keyset after the token's entry id.
      const size = pageSize(req.pageSize);
      const after = decodePageToken(req.pageToken);
      const page = pageOf(entries.filter((e) => !after || e.id > after.id).slice(0, size + 1), size, after, (e) => e.id);
      return { jobs: page.items, nextPageToken: page.nextPageToken, totalCount: entries.length };
    },
    async getContent(req, ctx) {
      recordAnonymous('getContent', req, ctx);
      const cid = req.cid.trim();
      const found = content.get(cid);
      // As the chain service: documents by visibility and account, NFT files to anyone.
      const docs = [...jobs.values()].filter((s) => s.doc?.cid === cid);
      const open = docs.length === 0 || docs.some((s) => s.doc!.public);
      if (!found || (!open && !docs.some((s) => s.account === ctx.caller?.accountId))) throw new NotFoundError(`No content with CID ${cid}.`);
      return { content: found.bytes, contentType: found.contentType, cid, public: open };
    },
  };
}
