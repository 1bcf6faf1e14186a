import { UUID } from '@green-impact/proto/rules';
import express, { Router, type NextFunction, type Request, type RequestHandler, type Response } from 'express';
import type { Nft, RenderClaimPageRequest } from '@green-impact/proto/greenimpact/chain/v1/chain';
import { InvalidArgumentError, NotAuthorizedError, NotFoundError, ResourceExhaustedError } from '@green-impact/shared/errors';
import type { Logger } from '@green-impact/shared/logger';
import { matchesEtag, param } from './chain-routes.js';
import { chainClient, type GatewayClients } from './clients.js';
import { describeError } from './http-errors.js';
import { errorPage, pageHeaders } from './pages/html.js';
import { CLAIM_SCRIPT, CLAIM_SCRIPT_PATH } from '@green-impact/shared/claim-script';
import { locals, routeLabel } from './request-context.js';
import { claim, claimFields, walletAddress } from './catalogue/chain/nfts.js';
import { inputFromV1 } from './catalogue/parse.js';

/** A page a chain service's Render*Page method answered. */
interface RenderedPage {
  content: Uint8Array;
  contentType: string;
  cacheControl: string;
}

export interface NftRoutesOptions {
  clients: GatewayClients;
  log: Logger;
  /** PUBLIC_BASE_URL: a claim form posted from there is same-origin too. */
  publicBaseUrl?: string | undefined;
  /** The rate limits (rate-limit/rate-limit-middleware.ts): these pages are anonymous, so per address and in all. */
  rateLimit: RequestHandler;
}

/** NFT guids are UUIDs as the service issues them; anything else names no certificate. */
const GUID = UUID;
const FILES = { pdf: 'application/pdf', jpg: 'image/jpeg' } as const;
/**
 * A certificate's bytes are stable (rendered from facts fixed at mint, dated by the block), but not
 * immutable by construction like a CID: a day, then revalidated by its ETag (the file's CID).
 */
const CERTIFICATE_CACHE = 'public, max-age=86400';

/**
 * The public NFT pages, none of which takes an API key:
 * - `GET /certificates/<guid>.pdf|.jpg` — the certificate files (GetNft without caller → CID → GetContent);
 * - `GET /certificates/<guid>` — the landing page, rendered by the chain service (RenderCertificatePage:
 *   what was certified, the holder read from the chain now);
 * - `GET /claim?guid=#code=` and `POST /claim` — the claim form of an e-mailed NFT (ClaimNft; the receiver
 *   code is the credential, never logged or echoed; it comes in the link's fragment, which the page's
 *   script, `GET /claim/fill-code.js`, moves into the form; an older link's `&code=` is still read); the
 *   pages are rendered by the chain service (RenderClaimPage);
 * - `GET /explorer/<network>/tx/<hash>` and `GET /explorer/<network>/block/<number>` — a receipt page and
 *   a block page for networks without an explorer, rendered by the chain service (RenderExplorerPage),
 *   which reads the node itself with its reads cached (NODE_READ_CACHE_*) on the relay's pages quota.
 * Pages answer failures as HTML pages with the status of the one error table; the files answer the JSON
 * error body like /ipfs.
 */
export function nftRoutes(options: NftRoutesOptions): Router {
  const router = Router();
  const { log } = options;

  const errorPageOf = (err: unknown, res: Response): void => {
    const { status, body } = described(err, res);
    if (err instanceof ResourceExhaustedError && err.retryAfterSeconds !== undefined) res.setHeader('Retry-After', String(err.retryAfterSeconds));
    res.status(status).set(pageHeaders('no-store')).send(errorPage(status, body.message));
  };
  /** An HTML route: failures become an error page with the table's status (and INTERNAL goes to the log). */
  const pageRoute =
    (handler: (req: Request, res: Response) => Promise<void>) =>
    async (req: Request, res: Response): Promise<void> => {
      try {
        await handler(req, res);
      } catch (err) {
        errorPageOf(err, res);
      }
    };
  /** The rate limit of a page: a 429 is an error page too, with Retry-After. */
  const limitPage = async (req: Request, res: Response, next: NextFunction): Promise<void> => {
    try {
      await options.rateLimit(req, res, next);
    } catch (err) {
      errorPageOf(err, res);
    }
  };
  const described = (err: unknown, res: Response) => {
    const d = describeError(err);
    if (d.internal) log.error({ err, requestId: locals(res).requestId, route: locals(res).route }, 'request failed');
    return d;
  };
  const publicNft = async (guid: string, res: Response): Promise<Nft> => {
    if (!GUID.test(guid)) throw new NotFoundError(`No certificate ${guid.slice(0, 64)}.`);
    const { nft } = await chainClient(options.clients).getNft({ guid }, { requestId: locals(res).requestId });
    if (!nft) throw new NotFoundError(`No NFT ${guid}.`);
    return nft;
  };

  const certificateRoute = (req: Request, res: Response, next: NextFunction): void => {
    const ext = /\.(pdf|jpg)$/.exec(param(req, 'file'))?.[1];
    locals(res).route = ext ? `/certificates/:guid.${ext}` : '/certificates/:guid';
    next();
  };
  /** The files answer the JSON error body like /ipfs, the landing page an HTML page. */
  const certificateLimit = (req: Request, res: Response, next: NextFunction) =>
    /\.(pdf|jpg)$/.test(param(req, 'file')) ? options.rateLimit(req, res, next) : limitPage(req, res, next);

  router.get('/certificates/:file', certificateRoute, certificateLimit, async (req, res, next) => {
    const match = /^(.*?)(?:\.(pdf|jpg))?$/.exec(param(req, 'file'))!;
    const [guid, ext] = [match[1]!, match[2] as keyof typeof FILES | undefined];
    if (!ext) return landing(req, res);
    try {
      await certificateFile(guid, ext, req, res);
    } catch (err) {
      next(err);
    }
  });

  async function certificateFile(guid: string, ext: keyof typeof FILES, req: Request, res: Response): Promise<void> {
    const nft = await publicNft(guid, res);
    const cid = ext === 'pdf' ? nft.certificatePdfCid : nft.certificateJpgCid;
    if (!cid) {
      const why = nft.nftId ? '' : ': the mint is not confirmed yet';
      throw new NotFoundError(`The certificate of NFT ${guid} is not available${why}.`);
    }
    res.set({ 'Access-Control-Allow-Origin': '*', ETag: `"${cid}"`, 'Cache-Control': CERTIFICATE_CACHE, 'X-Content-Type-Options': 'nosniff' });
    if (matchesEtag(req, cid)) {
      res.status(304).end();
      return;
    }
    const { content } = await chainClient(options.clients).getContent({ cid }, { requestId: locals(res).requestId });
    res.setHeader('Content-Type', FILES[ext]);
    res.setHeader('Content-Disposition', `inline; filename="certificate-${guid}.${ext}"`);
    res.status(200).send(Buffer.from(content));
  }

  /** A page the chain service rendered, served as it is with the page headers and the freshness it gave. */
  const serve = (res: Response, page: RenderedPage, headers: { scripts?: boolean } = {}, status = 200): void => {
    res.status(status).set({ ...pageHeaders(page.cacheControl, headers), 'Content-Type': page.contentType }).send(Buffer.from(page.content));
  };

  const landing = pageRoute(async (req, res) => {
    serve(res, await chainClient(options.clients).renderCertificatePage({ guid: param(req, 'file') }, { requestId: locals(res).requestId }));
  });

  /** The claim pages, rendered by the chain service (RenderClaimPage); the form's page loads the claim script. */
  const claimPageOf = (res: Response, asked: Partial<RenderClaimPageRequest>) =>
    chainClient(options.clients).renderClaimPage({ guid: '', receiverCode: '', address: '', refusal: '', transferJobId: '', ...asked }, { requestId: locals(res).requestId });

  router.get(
    '/claim',
    routeLabel('/claim'),
    limitPage,
    pageRoute(async (req, res) => {
      const query = (name: string) => (typeof req.query[name] === 'string' ? (req.query[name] as string).trim() : '');
      // The link's guid, and the code of a link sent before codes moved to the fragment.
      serve(res, await claimPageOf(res, { guid: query('guid'), receiverCode: query('code') }), { scripts: true });
    }),
  );

  router.get(CLAIM_SCRIPT_PATH, routeLabel(CLAIM_SCRIPT_PATH), (_req, res) => {
    res.status(200).set({ 'Content-Type': 'text/javascript; charset=utf-8', 'Cache-Control': 'public, max-age=3600', 'X-Content-Type-Options': 'nosniff' }).send(CLAIM_SCRIPT);
  });

  const formBody = express.urlencoded({ extended: false, limit: 8 * 1024, parameterLimit: 10 });
  router.post(
    '/claim',
    routeLabel('/claim'),
    limitPage,
    (req: Request, _res: Response, next: NextFunction) => {
      // Only the claim page's own form: a JSON client is an API client and claims through /v1/call.
      if (!req.is('application/x-www-form-urlencoded')) {
        next(new InvalidArgumentError('POST /claim takes the claim page\'s form (application/x-www-form-urlencoded); API clients use /v1/call SVC.NFT.zK claim.'));
        return;
      }
      next();
    },
    formBody,
    pageRoute(async (req, res) => {
      const body = (typeof req.body === 'object' && req.body !== null ? req.body : {}) as Record<string, unknown>;
      const text = (v: unknown) => (typeof v === 'string' ? v.trim() : undefined);
      const form = { guid: text(body['guid']), code: text(body['code']), address: text(body['address']) };
      let accepted: Partial<RenderClaimPageRequest>;
      try {
        refuseCrossSite(req, options.publicBaseUrl);
        // The declared claim of /v1/call (the same echo: the code never goes into a job); refusals name the form's fields.
        const input = inputFromV1(claimFields, { receiverCode: form.code, address: form.address, guid: form.guid });
        const claimed = await claim.call(input, { requestId: locals(res).requestId, clients: options.clients });
        accepted = { transferJobId: claimed.jobId, address: walletAddress(input.address), guid: input.guid ?? claimed.job?.nftGuid ?? '' };
      } catch (err) {
        const { status, body: error } = described(formLabelled(err), res);
        const again = await claimPageOf(res, { guid: form.guid ?? '', receiverCode: form.code ?? '', address: form.address ?? '', refusal: error.message });
        serve(res, again, { scripts: true }, status);
        return;
      }
      serve(res, await claimPageOf(res, accepted));
    }),
  );

  const explorerPage = (txHash: string, blockNumber: string) =>
    pageRoute(async (req, res) => {
      const asked = { network: param(req, 'network'), txHash: txHash && param(req, txHash), blockNumber: blockNumber && param(req, blockNumber) };
      serve(res, await chainClient(options.clients).renderExplorerPage(asked, { requestId: locals(res).requestId }));
    });
  router.get('/explorer/:network/tx/:hash', routeLabel('/explorer/:network/tx/:hash'), limitPage, explorerPage('hash', ''));
  router.get('/explorer/:network/block/:number', routeLabel('/explorer/:network/block/:number'), limitPage, explorerPage('', 'number'));

  return router;
}

/**
 * The claim form is posted from this site only. The code is the credential (no cookie, nothing ambient a
 * forged post could borrow), so this is defence in depth: a browser's `Sec-Fetch-Site: cross-site`, or an
 * `Origin` of another host than this gateway's, is refused.
 */
function refuseCrossSite(req: Request, publicBaseUrl: string | undefined): void {
  const refuse = () => new NotAuthorizedError('Claims are accepted from the claim page of this site only.');
  const site = req.header('sec-fetch-site');
  if (site === 'cross-site') throw refuse();
  // The page's Referrer-Policy (no-referrer) makes Chromium send `Origin: null` with its own form; the
  // browser's word that the post comes from this origin is what counts then.
  if (site === 'same-origin') return;
  const origin = req.header('origin');
  if (origin === undefined) return;
  let host: string | undefined;
  try {
    host = new URL(origin).host;
  } catch {
    host = undefined;
  }
  const ours = [req.get('host'), publicBaseUrl ? new URL(publicBaseUrl).host : undefined];
  if (!host || !ours.includes(host)) throw refuse();
}

/** The claim form's names of the claim's fields, for refusals that name one (`The address must be a wallet address …`). */
const FORM_LABELS: Readonly<Record<string, string>> = { receiverCode: 'The receiver code', address: 'The address', guid: 'The NFT id' };

function formLabelled(err: unknown): unknown {
  if (!(err instanceof InvalidArgumentError) || err.field === undefined) return err;
  const label = FORM_LABELS[err.field];
  if (label === undefined || !err.message.startsWith(`${err.field} `)) return err;
  return new InvalidArgumentError(`${label}${err.message.slice(err.field.length)}`, { field: err.field });
}
