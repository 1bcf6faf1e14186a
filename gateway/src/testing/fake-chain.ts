import { randomBytes, randomUUID } from 'node:crypto';
import {
  ChainServiceService,
  DocumentKind,
  JobKind,
  JobStatus,
  type Job,
  type Network,
} from '@green-impact/proto/greenimpact/chain/v1/chain';
import type { Caller } from '@green-impact/shared/caller';
import { FailedPreconditionError, InvalidArgumentError, NotFoundError, UnauthenticatedError } from '@green-impact/shared/errors';
import { implement, type CallContext } from '@green-impact/shared/grpc/server';
import { serveFake } from './fake-server.js';
import { createLogger } from '@green-impact/shared/logger';
import { fakeNfts, rpcReceipt } from './fake-chain-nfts.js';
import { fakeDocumentHandlers } from './fake-chain-documents.js';
import { fakeJobWatch } from './fake-chain-watch.js';

/**
 * A small in-memory ChainService served over real gRPC, for the gateway's own tests. It is not the chain
 * service (services/chain): nothing is mined; a test moves a job on with `complete` or `fail`, as the
 * worker would (WatchJobs streams see each change), and `tamper` changes a stored document behind its anchor. Texts and rules (networks and
 * the `mumbai` alias, key and value limits, Idempotency-Key, account scoping) are only as faithful as the
 * gateway's tests need. sepolia's insertString limit is 64 bytes, so the network's own limit can be seen.
 * The document methods are in fake-chain-documents.ts, the NFT methods in fake-chain-nfts.ts.
 */
export interface FakeChain {
  address: string;
  /** Every call received: method name, the request as decoded, and the caller the gateway sent. */
  calls: { method: string; request: unknown; caller: Caller | undefined }[];
  count(method: string): number;
  /** Completes a job as the worker would: transaction, receipt, costs, and the outcome (a select reads the store). */
  complete(jobId: string): void;
  fail(jobId: string, error: string): void;
  /** Open WatchJobs streams (subscriptions the gateway holds). */
  openWatches(): number;
  /** Changes a written document's stored content: GetDocument then answers `verified: false`. */
  tamper(jobId: string): void;
  stop(): Promise<void>;
}

/** The PUBLIC_BASE_URL the fake's NFT links start with. */
export const FAKE_PUBLIC_BASE_URL = 'https://impact.example.org';

const NETWORKS: Network[] = [
  network('sepolia', 11155111, 'https://sepolia.etherscan.io'),
  network('amoy', 80002, ''),
  { ...network('mumbai', 80002, ''), aliasOf: 'amoy' },
];
const MAX_STRING_BYTES: Record<string, number> = { sepolia: 64, amoy: 4096 };

function network(name: string, chainId: number, explorerUrl: string): Network {
  return {
    name, chainId, embedded: false, rpcUrl: `https://rpc.example/${name}`, explorerUrl, confirmations: 1,
    signerAddress: '0x' + 'a'.repeat(40), nativeCurrencySymbol: 'ETH', keyValueStoreAddress: '0x' + 'b'.repeat(40),
    documentRegistryAddress: '0x' + 'c'.repeat(40), nftContractAddress: '',
  };
}

export interface Stored {
  job: Job;
  account: string;
  /** Key-value jobs: what to write or read. */
  kv?: { op: 'insertString' | 'selectString' | 'insertBytes32' | 'selectBytes32'; key: string; value?: string };
  /** Document jobs; public ones are served by CID to anyone, the others to their account (content-access.ts). */
  doc?: { id: number; kind: DocumentKind; cid: string; sha256: string; contentType: string; public: boolean; linkEpoch: number };
  fingerprint: string;
}

/** What the fake's method groups share (the NFT methods have their own deps, fake-chain-nfts.ts). */
export interface FakeChainCore {
  jobs: Map<string, Stored>;
  /** Stored content by CID: documents and NFT files. */
  content: Map<string, { bytes: Buffer; contentType: string }>;
  /** Records the call and answers the caller (UNAUTHENTICATED without one). */
  record(method: string, request: unknown, ctx: CallContext): Caller;
  /** Records a call that may come without a caller (links, public content). */
  recordAnonymous(method: string, request: unknown, ctx: CallContext): void;
  /** The caller's job by UUID or document id; NOT_FOUND otherwise. */
  find(c: Caller, ref: string): Stored;
  resolve(name: string): Network;
  create(
    c: Caller,
    fields: { kind: JobKind; network: string; request: Record<string, unknown> | undefined; idempotencyKey: string | undefined; fingerprint: unknown },
    extra: Partial<Job>,
    attach: Omit<Stored, 'job' | 'account' | 'fingerprint'>,
  ): { job: Job; replayed: boolean };
}

const resolve = (name: string): Network => {
  const found = NETWORKS.find((n) => n.name === name.trim());
  if (!found) throw new InvalidArgumentError(`Unknown network "${name}"; expected one of ${NETWORKS.map((n) => n.name).join(', ')}.`, { field: 'network' });
  return found;
};
const chars = (s: string) => [...s].length;

export async function startFakeChain(): Promise<FakeChain> {
  const log = createLogger('fake-chain', { level: 'silent' });
  const calls: FakeChain['calls'] = [];
  const jobs = new Map<string, Stored>();
  const content = new Map<string, { bytes: Buffer; contentType: string }>();
  const kvStore = new Map<string, string>();
  const idempotency = new Map<string, string>();
  const watch = fakeJobWatch((jobId) => jobs.get(jobId));

  const record = (method: string, request: unknown, ctx: CallContext): Caller => {
    calls.push({ method, request, caller: ctx.caller });
    if (!ctx.caller) throw new UnauthenticatedError();
    return ctx.caller;
  };
  const find = (c: Caller, ref: string): Stored => {
    const text = ref.trim();
    const s = /^\d+$/.test(text)
      ? [...jobs.values()].find((j) => j.doc?.id === Number(text))
      : jobs.get(text.toLowerCase());
    if (!s || s.account !== c.accountId) throw new NotFoundError(`No such job ${text}.`);
    return s;
  };
  const create = (
    c: Caller,
    fields: { kind: JobKind; network: string; request: Record<string, unknown> | undefined; idempotencyKey: string | undefined; fingerprint: unknown },
    extra: Partial<Job>,
    attach: Omit<Stored, 'job' | 'account' | 'fingerprint'>,
  ): { job: Job; replayed: boolean } => {
    const fingerprint = JSON.stringify(fields.fingerprint);
    const key = fields.idempotencyKey?.trim();
    if (key) {
      const existing = jobs.get(idempotency.get(`${c.accountId}\u0000${key}`) ?? '');
      if (existing && existing.fingerprint !== fingerprint) {
        throw new FailedPreconditionError(`Idempotency-Key "${key}" was already used for a different request (job ${existing.job.id}).`);
      }
      if (existing) return { job: existing.job, replayed: true };
    }
    const now = new Date().toISOString();
    const job: Job = {
      id: randomUUID(), kind: fields.kind, network: fields.network, status: JobStatus.JOB_STATUS_QUEUED,
      request: fields.request && Object.keys(fields.request).length > 0 ? fields.request : { network: fields.network },
      attempts: 0, createdAt: now, updatedAt: now, ...(key ? { idempotencyKey: key } : {}), ...extra,
    };
    jobs.set(job.id, { job, account: c.accountId, fingerprint, ...attach });
    if (key) idempotency.set(`${c.accountId}\u0000${key}`, job.id);
    watch.publish(job, c.accountId, undefined);
    return { job, replayed: false };
  };
  const keyValue = (op: NonNullable<Stored['kv']>['op'], kind: JobKind) =>
    async (
      req: { network: string; key: string; value?: string; idempotencyKey?: string | undefined; requestEcho?: Record<string, unknown> | undefined },
      ctx: CallContext,
    ) => {
      const c = record(op, req, ctx);
      const n = resolve(req.network);
      if (!req.key) throw new InvalidArgumentError('key is required.', { field: 'key' });
      if (chars(req.key) > 32) throw new InvalidArgumentError(`key must be at most 32 characters, got ${chars(req.key)}.`, { field: 'key' });
      const value = op.startsWith('insert') ? (req.value ?? '') : undefined;
      const limit = op === 'insertBytes32' ? 32 : (MAX_STRING_BYTES[n.aliasOf ?? n.name] ?? 4096);
      if (value !== undefined && Buffer.byteLength(value) > limit) {
        throw new InvalidArgumentError(`value is too large for network ${n.name}: at most ${limit} bytes (UTF-8), got ${Buffer.byteLength(value)}.`, { field: 'value' });
      }
      const { job, replayed } = create(
        c,
        { kind, network: n.name, request: req.requestEcho, idempotencyKey: req.idempotencyKey, fingerprint: [op, n.name, req.key, value ?? null] },
        { key: req.key },
        { kv: { op, key: req.key, ...(value !== undefined ? { value } : {}) } },
      );
      return { jobId: job.id, job, replayed };
    };
  const recordAnonymous = (method: string, request: unknown, ctx: CallContext) => void calls.push({ method, request, caller: ctx.caller });
  const core: FakeChainCore = { jobs, content, record, recordAnonymous, find, resolve, create };
  const nfts = fakeNfts({
    record,
    recordAnonymous,
    resolve,
    create: (c, fields, extra) => create(c, fields, extra, {}),
    content,
    publicBaseUrl: FAKE_PUBLIC_BASE_URL,
  });

  const implementation = implement(
    'greenimpact.chain.v1.ChainService',
    ChainServiceService,
    {
      async getJob(req, ctx) {
        return { job: find(record('getJob', req, ctx), req.jobId).job };
      },
      async listJobs(req, ctx) {
        const c = record('listJobs', req, ctx);
        const mine = [...jobs.values()]
          .filter((s) => s.account === c.accountId)
          .map((s) => s.job)
          .filter((j) => (req.kind === undefined || j.kind === req.kind) && (req.status === undefined || j.status === req.status))
          .filter((j) => (req.network === undefined || j.network === req.network) && (req.frameworkIdentifier === undefined || j.frameworkIdentifier === req.frameworkIdentifier))
          .reverse();
        const size = req.pageSize > 0 ? Math.min(req.pageSize, 500) : 50;
        const from = Number(req.pageToken || 0);
        const page = mine.slice(from, from + size);
        return { jobs: page, nextPageToken: from + size < mine.length ? String(from + size) : '', cursors: page.map((_, i) => String(from + i + 1)) };
      },
      insertString: keyValue('insertString', JobKind.JOB_KIND_KV_INSERT_STRING),
      selectString: keyValue('selectString', JobKind.JOB_KIND_KV_SELECT_STRING),
      insertBytes32: keyValue('insertBytes32', JobKind.JOB_KIND_KV_INSERT_BYTES32),
      selectBytes32: keyValue('selectBytes32', JobKind.JOB_KIND_KV_SELECT_BYTES32),
      ...fakeDocumentHandlers(core),
      ...nfts.handlers,
      async listNetworks(req, ctx) {
        record('listNetworks', req, ctx);
        return { networks: NETWORKS };
      },
      async relayJsonRpc(req, ctx) {
        calls.push({ method: 'relayJsonRpc', request: req, caller: ctx.caller });
        resolve(req.network);
        let body: { id?: unknown; method?: unknown; params?: unknown[] };
        try {
          body = JSON.parse(Buffer.from(req.body).toString('utf8')) as typeof body;
        } catch {
          return { body: Buffer.from(JSON.stringify({ jsonrpc: '2.0', id: null, error: { code: -32700, message: 'Parse error' } })) };
        }
        const tx = typeof body.params?.[0] === 'string' ? [...jobs.values()].find((s) => s.job.txHash === body.params![0])?.job : undefined;
        const call = (body.params?.[0] ?? {}) as { to?: string; data?: string };
        const answer =
          body.method === 'eth_blockNumber'
            ? { result: '0x2a' }
            : body.method === 'eth_getTransactionReceipt'
              ? { result: tx ? rpcReceipt(tx) : null }
              : body.method === 'eth_getTransactionByHash'
                ? { result: tx ? { hash: tx.txHash } : null }
                : body.method === 'eth_call'
                  ? { result: nfts.ownerOfWord(call.to ?? '', call.data ?? '') ?? '0x' }
                  : { error: { code: -32601, message: `Method ${String(body.method)} is not relayed (read methods only)` } };
        return { body: Buffer.from(JSON.stringify({ jsonrpc: '2.0', id: body.id ?? null, ...answer })) };
      },
    },
    log,
  );
  (implementation as Record<string, unknown>)['watchJobs'] = watch.handler;

  const started = await serveFake({ name: 'greenimpact.chain.v1.ChainService', definition: ChainServiceService, implementation, protoFile: 'chain' }, log);

  const stored = (jobId: string) => {
    const s = jobs.get(jobId);
    if (!s) throw new Error(`fake chain: no job ${jobId}`);
    return s;
  };
  return {
    address: started.address,
    calls,
    count: (method) => calls.filter((c) => c.method === method).length,
    complete(jobId) {
      const s = stored(jobId);
      const n = resolve(s.job.network);
      const hash = `0x${randomBytes(32).toString('hex')}`;
      const now = new Date().toISOString();
      const receipt = {
        type: 'TransactionReceipt', blockHash: `0x${'1'.repeat(64)}`, blockNumber: 7, cumulativeGasUsed: '50000', from: n.signerAddress,
        gasPrice: '1000000000', gasUsed: '50000', hash, index: 0, logsBloom: `0x${'0'.repeat(512)}`, status: 1, to: n.documentRegistryAddress,
        logs: [{ type: 'log', address: n.documentRegistryAddress, blockHash: `0x${'1'.repeat(64)}`, blockNumber: 7, data: '0x', index: 0, topics: [`0x${'2'.repeat(64)}`], transactionHash: hash, transactionIndex: 0 }],
      };
      let outcome: Partial<Job> = {};
      if (s.kv) {
        const slot = `${s.account}\u0000${s.kv.op.endsWith('Bytes32') ? 'b' : 's'}\u0000${s.kv.key}`;
        if (s.kv.value !== undefined) kvStore.set(slot, s.kv.value);
        const value = s.kv.value ?? kvStore.get(slot);
        outcome = {
          result: { key: s.kv.key, value: value ?? null },
          keyValue: { key: s.kv.key, ...(value !== undefined ? { value } : {}), found: value !== undefined, contractAddress: n.keyValueStoreAddress },
        };
      }
      if (s.doc) {
        outcome = {
          result: { id: s.doc.id, job_id: s.job.id, cid: s.doc.cid, sha256: s.doc.sha256 },
          document: { documentId: s.doc.id, kind: s.doc.kind, cid: s.doc.cid, sha256: s.doc.sha256, contentType: s.doc.contentType, size: content.get(s.doc.cid)!.bytes.length, registryAddress: n.documentRegistryAddress },
        };
      }
      const nftOutcome = nfts.complete(s.job, { ...receipt, to: receipt.to }, n.explorerUrl);
      if (nftOutcome) outcome = nftOutcome;
      const select = s.kv?.op.startsWith('select');
      const previous = s.job.status;
      s.job = {
        ...s.job, status: JobStatus.JOB_STATUS_COMPLETED, updatedAt: now, completedAt: now, attempts: 1, ...outcome,
        ...(select ? { networkCost: 0, networkFee: 0, networkTotal: 0 } : {
          txHash: hash, ...(n.explorerUrl ? { txUrl: `${n.explorerUrl}/tx/${hash}` } : {}), blockNumber: 7, receipt: outcome.receipt ?? receipt,
          gasUsed: 50000, gasPrice: '1000000000', networkCost: 0.00005, networkFee: 0, networkTotal: 0.00005,
        }),
      };
      watch.publish(s.job, s.account, previous);
    },
    fail(jobId, error) {
      const s = stored(jobId);
      const previous = s.job.status;
      s.job = { ...s.job, status: JobStatus.JOB_STATUS_FAILED, error, updatedAt: new Date().toISOString() };
      watch.publish(s.job, s.account, previous);
    },
    openWatches: () => watch.open(),
    tamper(jobId) {
      const s = stored(jobId);
      const c = content.get(s.doc!.cid)!;
      content.set(s.doc!.cid, { ...c, bytes: Buffer.concat([Buffer.from(c.bytes), Buffer.from('<!-- changed -->')]) });
    },
    stop: () => started.shutdown(1_000),
  };
}
