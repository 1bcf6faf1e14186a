import { NETWORK_NAME } from '@green-impact/proto/rules';
import express, { Router, type Request, type RequestHandler, type Response } from 'express';
import type { RenderDocumentPageRequest } from '@green-impact/proto/greenimpact/chain/v1/chain';
import type { Caller } from '@green-impact/shared/caller';
import { InvalidArgumentError } from '@green-impact/shared/errors';
import { API_KEY_HEADER, type Authenticate } from './auth.js';
import { chainClient, type ChainClient, type GatewayClients } from './clients.js';
import { DocumentLinks } from './document-links.js';
import { noRenderer, pageFormat, pdfHref, sendPdf, type PrintPdf } from './pages/pdf.js';
import { asPages, openLink } from './pages/signed-link-pages.js';
import { locals, routeLabel } from './request-context.js';

export interface ChainRoutesOptions {
  authenticate: Authenticate;
  clients: GatewayClients;
  bodyLimitBytes: number;
  /** The rate limits (rate-limit/rate-limit-middleware.ts): per key on /jobs, per address on /ipfs and /rpc. */
  rateLimit: RequestHandler;
  /** Checks the signed links to pages (document-links.ts). */
  documentLinks: DocumentLinks;
  /** Prints pages to PDF (pages/pdf.ts); without it `.pdf` answers 503 and pages offer no PDF. */
  printPdf?: PrintPdf | undefined;
}

/** CIDs are base-encoded multihashes: letters and digits only (CIDv1 base32 `bafk…`, CIDv0 `Qm…`). */
const CID_TEXT = /^[A-Za-z0-9]{1,128}$/;
/** Written documents are self-contained pages: no scripts, no requests, nothing framed. */
const DOCUMENT_CSP = "default-src 'none'; style-src 'unsafe-inline'; img-src data:; sandbox";
/** Content by CID never changes: a year, immutable (RFC 8246), as IPFS gateways serve it. */
const IMMUTABLE = 'public, max-age=31536000, immutable';
/** Served because of who asks: the browser may keep it, no shared cache may, and every use asks again. */
const PRIVATE = 'private, no-cache';

/**
 * The HTTP face of the chain service besides /v1/call and GraphQL:
 * - `GET /jobs/<job_id>.html` — a written HTML document, rendered by ChainService.RenderDocumentPage (with
 *   its anchoring facts around it) only after it verified it against its anchor on the chain now: to the account's X-Api-Key, or without any header
 *   through a signed link (`?v=…&exp=…&sig=…`, document-links.ts) as getHtml*FromBlockchain hands out.
 *   `GET /jobs/<job_id>.pdf` (or `.html?format=pdf`) is the same page printed, authorized the same way.
 * - `GET /ipfs/<cid>` — content of the content-addressed store: public content to anyone; documents of
 *   private frameworks and position impacts only with a key of the account that wrote them; 404 otherwise.
 * - `POST /rpc/<network>` — public, read-only JSON-RPC relay, so any wallet or script can check what was
 *   written (the chain service answers anything but read methods with a JSON-RPC error).
 * - `GET /trust-anchor.json` — public: the deployment's trust anchor as ChainService.GetTrustAnchor
 *   renders it (docs/chain.md "Trust anchor"), for greenimpact-verify-document --trust.
 */
export function chainRoutes(options: ChainRoutesOptions): Router {
  const router = Router();

  router.get('/jobs/:page', routeLabel('/jobs/:jobId.html'), options.rateLimit, async (req, res, next) => {
    const asked = pageFormat(req, param(req, 'page'));
    if (!asked) return next();
    const jobId = asked.name;
    // A browser follows a signed link: even its refusals (no renderer for the PDF) are pages.
    if (DocumentLinks.isLinkQuery(req.query)) return linkedPage(jobId, req.query, () => pageView(req, asked.pdf, options.printPdf), res);
    const view = pageView(req, asked.pdf, options.printPdf);
    const { requestId } = locals(res);
    const { caller } = await options.authenticate(req.header(API_KEY_HEADER), requestId, locals(res).clientAddress);
    await sendPage(chainClient(options.clients), res, { jobId }, caller, PRIVATE, view);
  });

  /**
   * A signed link: judged by its signature alone (any X-Api-Key is ignored), answered as pages since a
   * browser follows it. Altered, revoked, unknown: the 404 of an unknown job. Expired: 403, said so.
   */
  async function linkedPage(jobId: string, query: Request['query'], viewOf: () => PageView, res: Response): Promise<void> {
    await asPages(res, async () => {
      const view = viewOf();
      const link = openLink(options.documentLinks.check(jobId, query), `No such job ${jobId.slice(0, 64)}.`);
      // Never stored: a revoked link must stop opening, also from the browser's cache.
      await sendPage(chainClient(options.clients), res, { jobId, linkEpoch: link.linkEpoch }, undefined, 'private, no-store', view);
    });
  }

  router.get('/ipfs/:cid', routeLabel('/ipfs/:cid'), options.rateLimit, async (req, res) => {
    const cid = param(req, 'cid');
    if (!CID_TEXT.test(cid)) throw new InvalidArgumentError(`"${cid.slice(0, 64)}" is not a CID.`);
    const { requestId } = locals(res);
    // A key shows the account's own private documents; without one only public content is served.
    const apiKey = req.header(API_KEY_HEADER);
    const caller = apiKey ? (await options.authenticate(apiKey, requestId, locals(res).clientAddress)).caller : undefined;
    const found = await chainClient(options.clients).getContent({ cid }, { caller, requestId });
    res.set({ ETag: `"${cid}"`, Vary: 'X-Api-Key', 'Cache-Control': found.public ? IMMUTABLE : PRIVATE });
    if (found.public) res.set('Access-Control-Allow-Origin', '*');
    if (matchesEtag(req, cid)) {
      res.status(304).end();
      return;
    }
    res.setHeader('Content-Type', found.contentType || 'application/octet-stream');
    res.set({ 'X-Content-Type-Options': 'nosniff', 'Content-Security-Policy': DOCUMENT_CSP });
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

  router.get('/trust-anchor.json', routeLabel('/trust-anchor.json'), options.rateLimit, async (_req, res) => {
    const answer = await chainClient(options.clients).getTrustAnchor({}, { requestId: locals(res).requestId });
    // Changes only with the deployment's configuration; anyone may fetch it, from anywhere.
    res.set({ 'Content-Type': 'application/json', 'Cache-Control': 'public, max-age=300', 'Access-Control-Allow-Origin': '*', 'X-Content-Type-Options': 'nosniff' });
    res.status(200).send(Buffer.from(answer.body));
  });

  return router;
}

/**
 * How a document page is asked for: `raw=1` answers the anchored bytes alone; otherwise the page carries
 * the anchoring facts around them (pages/anchoring.ts), and `rawUrl` is where the bytes alone are.
 */
interface PageView {
  raw: boolean;
  rawUrl: string;
  /** Asked as PDF: the printer. */
  print?: PrintPdf | undefined;
  /** Where the page's PDF is, when PDFs can be printed. */
  pdfUrl?: string | undefined;
}

function pageView(req: Request, pdf: boolean, printPdf: PrintPdf | undefined): PageView {
  const raw = req.query['raw'];
  if (raw !== undefined && raw !== '1') throw new InvalidArgumentError('raw is 1 (the anchored document alone) or absent.');
  if (pdf && raw === '1') throw new InvalidArgumentError('raw=1 is the anchored HTML alone; its PDF is the whole page, without raw.');
  if (pdf && !printPdf) throw noRenderer();
  const url = new URL(req.originalUrl, 'http://page');
  url.pathname = url.pathname.replace(/\.pdf$/, '.html');
  url.searchParams.delete('format');
  url.searchParams.set('raw', '1');
  return { raw: raw === '1', rawUrl: `${url.pathname}${url.search}`, print: pdf ? printPdf : undefined, pdfUrl: printPdf && !pdf ? pdfHref(req.originalUrl) : undefined };
}

/**
 * A verified HTML document page as the chain service rendered it (the anchoring facts around the document
 * unless the bytes alone were asked for), with the headers that keep it self-contained and private.
 */
async function sendPage(client: ChainClient, res: Response, asked: Pick<RenderDocumentPageRequest, 'jobId' | 'linkEpoch'>, caller: Caller | undefined, cache: string, view: PageView): Promise<void> {
  const page = await client.renderDocumentPage(
    // The page printed to PDF carries no link to itself.
    { ...asked, raw: view.raw, rawUrl: view.rawUrl, pdfUrl: view.print ? '' : (view.pdfUrl ?? '') },
    { caller, requestId: locals(res).requestId },
  );
  if (view.print) {
    await sendPdf(res, view.print, Buffer.from(page.content).toString('utf8'), `${page.jobId || asked.jobId}.pdf`, cache);
    return;
  }
  // setHeader, not res.set: express would append a charset to the stored content type.
  res.setHeader('Content-Type', page.contentType);
  res.set({
    // Verified per request and private to the account or the link's holder.
    'Cache-Control': cache,
    'X-Content-Type-Options': 'nosniff',
    'Content-Security-Policy': DOCUMENT_CSP,
    // A link's signature must not travel on to wherever the page's own links lead.
    'Referrer-Policy': 'no-referrer',
    'X-Robots-Tag': 'noindex',
    'X-Document-Cid': page.cid,
    'X-Document-Sha256': page.sha256,
  });
  // The bytes alone are the CID's; the page carries the time of this verification, so no ETag.
  if (view.raw) res.set('ETag', `"${page.cid}"`);
  res.status(200).send(Buffer.from(page.content));
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
