import express, { Router, type Request, type RequestHandler } from 'express';
import { InvalidArgumentError, NotFoundError } from '@green-impact/shared/errors';
import { API_KEY_HEADER, type Authenticate } from './auth.js';
import { chainClient, type GatewayClients } from './clients.js';
import { locals, routeLabel } from './request-context.js';
import { documentKindParts } from './v1/operations/blockchain-params.js';
import { requireVerifiedDocument } from './v1/operations/blockchain-shapes.js';

export interface ChainRoutesOptions {
  authenticate: Authenticate;
  clients: GatewayClients;
  bodyLimitBytes: number;
  /** The rate limits (rate-limit/rate-limit-middleware.ts): per key on /jobs, per address on /ipfs and /rpc. */
  rateLimit: RequestHandler;
}

/** CIDs are base-encoded multihashes: letters and digits only (CIDv1 base32 `bafk…`, CIDv0 `Qm…`). */
const CID_TEXT = /^[A-Za-z0-9]{1,128}$/;
const NETWORK_NAME = /^[A-Za-z0-9._-]{1,64}$/;
/** Written documents are self-contained pages: no scripts, no requests, nothing framed. */
const DOCUMENT_CSP = "default-src 'none'; style-src 'unsafe-inline'; img-src data:; sandbox";
/** Content by CID never changes: a year, immutable (RFC 8246), as IPFS gateways serve it. */
const IMMUTABLE = 'public, max-age=31536000, immutable';

/**
 * The HTTP face of the chain service besides /v1/call and GraphQL:
 * - `GET /jobs/<job_id>.html` — a written HTML document, served only after ChainService.GetDocument
 *   verified it against its anchor on the chain now. Jobs are private to their account, so the page needs
 *   the account's X-Api-Key like every call.
 * - `GET /ipfs/<cid>` — public content of the content-addressed store, immutable by construction.
 * - `POST /rpc/<network>` — public, read-only JSON-RPC relay, so any wallet or script can check what was
 *   written (the chain service answers anything but read methods with a JSON-RPC error).
 */
export function chainRoutes(options: ChainRoutesOptions): Router {
  const router = Router();

  router.get('/jobs/:page', routeLabel('/jobs/:jobId.html'), options.rateLimit, async (req, res, next) => {
    const page = /^(.+)\.html$/.exec(param(req, 'page'));
    if (!page) return next();
    const { requestId } = locals(res);
    const { caller } = await options.authenticate(req.header(API_KEY_HEADER), requestId, locals(res).clientAddress);
    const doc = await chainClient(options.clients).getDocument({ jobId: page[1]! }, { caller, requestId });
    const parts = documentKindParts(doc.kind);
    if (parts?.format !== 'html') {
      throw new NotFoundError(`Job ${doc.job?.id ?? page[1]} has no HTML document${parts ? ': it holds a JSON document' : ''}.`);
    }
    const verified = requireVerifiedDocument(doc, { family: parts.family, format: 'html' });
    // setHeader, not res.set: express would append a charset to the stored content type.
    res.setHeader('Content-Type', verified.contentType || 'text/html; charset=utf-8');
    res.set({
      // Verified per request and private to the account: a cache may keep it but must ask again.
      'Cache-Control': 'private, no-cache',
      ETag: `"${verified.cid}"`,
      'X-Content-Type-Options': 'nosniff',
      'Content-Security-Policy': DOCUMENT_CSP,
      'X-Document-Cid': verified.cid,
      'X-Document-Sha256': verified.sha256,
    });
    res.status(200).send(Buffer.from(verified.content));
  });

  router.get('/ipfs/:cid', routeLabel('/ipfs/:cid'), options.rateLimit, async (req, res) => {
    const cid = param(req, 'cid');
    if (!CID_TEXT.test(cid)) throw new InvalidArgumentError(`"${cid.slice(0, 64)}" is not a CID.`);
    const client = chainClient(options.clients);
    res.set({ 'Access-Control-Allow-Origin': '*', ETag: `"${cid}"` });
    if (matchesEtag(req, cid)) {
      res.set('Cache-Control', IMMUTABLE).status(304).end();
      return;
    }
    const found = await client.getContent({ cid }, { requestId: locals(res).requestId });
    res.setHeader('Content-Type', found.contentType || 'application/octet-stream');
    res.set({
      'Cache-Control': IMMUTABLE,
      'X-Content-Type-Options': 'nosniff',
      'Content-Security-Policy': DOCUMENT_CSP,
    });
    res.status(200).send(Buffer.from(found.content));
  });

  const rawBody = express.raw({ type: () => true, limit: options.bodyLimitBytes });
  router.options('/rpc/:network', routeLabel('/rpc/:network'), (_req, res) => {
    res.set(rpcCors()).set('Access-Control-Max-Age', '86400').status(204).end();
  });
  router.post('/rpc/:network', routeLabel('/rpc/:network'), options.rateLimit, rawBody, async (req, res) => {
    const network = param(req, 'network');
    if (!NETWORK_NAME.test(network)) throw new InvalidArgumentError('The path must name a network, such as /rpc/sepolia.');
    const client = chainClient(options.clients);
    const body = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
    const answer = await client.relayJsonRpc({ network, body }, { requestId: locals(res).requestId });
    res.set(rpcCors()).set('Content-Type', 'application/json').status(200).send(Buffer.from(answer.body));
  });

  return router;
}

/** A named path parameter as one string ('' when absent; only wildcards give arrays). */
export function param(req: Request, name: string): string {
  const value = req.params[name];
  return typeof value === 'string' ? value : '';
}

/** Browser wallets and dapps call JSON-RPC cross-origin; the relay is public and read-only. */
function rpcCors(): Record<string, string> {
  return {
    'Access-Control-Allow-Origin': '*',
    'Access-Control-Allow-Methods': 'POST, OPTIONS',
    'Access-Control-Allow-Headers': 'Content-Type',
  };
}

/** If-None-Match names this CID's ETag: the client has these very bytes, which cannot have changed. */
export function matchesEtag(req: Request, cid: string): boolean {
  const header = req.header('if-none-match');
  if (!header) return false;
  return header.split(',').some((tag) => {
    const t = tag.trim().replace(/^W\//, '');
    return t === `"${cid}"`;
  });
}
