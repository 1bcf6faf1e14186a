import { Router, type RequestHandler } from 'express';
import { EU_GBS_DOCUMENTS } from '@green-impact/shared/eu-green-bonds';
import { InvalidArgumentError } from '@green-impact/shared/errors';
import { API_KEY_HEADER, type Authenticate } from './auth.js';
import { taxonomyClient, type GatewayClients } from './clients.js';
import { pageHeaders } from './pages/html.js';
import { noRenderer, pageFormat, sendPdf, type PrintPdf } from './pages/pdf.js';
import { locals, routeLabel } from './request-context.js';

export interface EuGbsRoutesOptions {
  authenticate: Authenticate;
  clients: GatewayClients;
  rateLimit: RequestHandler;
  /** Prints pages to PDF (pages/pdf.ts); without it `.pdf` answers 503. */
  printPdf?: PrintPdf | undefined;
}

const YEAR = /^\d{4}$/;
const CACHE = 'private, no-cache';

/**
 * The EU Green Bond Standard's documents as pages (issue 37):
 * `GET /reports/frameworks/<framework_identifier>/<year>/<document>.html` with document factsheet,
 * allocation_report or impact_report, and `?publication_date=YYYY-MM-DD` as getEuGbsDocument takes it; with
 * the framework owner's X-Api-Key. The page is the service's document byte for byte (no link added), so it
 * hashes to getEuGbsDocument's sha256; `<document>.pdf` (or `.html?format=pdf`) prints that same HTML. The
 * service owns every rule and text; errors answer the JSON error model as /v1/call's.
 */
export function euGbsRoutes(options: EuGbsRoutesOptions): Router {
  const router = Router();
  router.get('/reports/frameworks/:identifier/:year/:file', routeLabel('/reports/frameworks/:identifier/:year/:document.html'), options.rateLimit, async (req, res, next) => {
    const asked = pageFormat(req, String(req.params['file'] ?? ''));
    const year = String(req.params['year'] ?? '');
    if (!asked || !YEAR.test(year) || !(EU_GBS_DOCUMENTS as readonly string[]).includes(asked.name)) return next();
    if (asked.pdf && !options.printPdf) throw noRenderer();
    const date = req.query['publication_date'];
    if (date !== undefined && typeof date !== 'string') throw new InvalidArgumentError('publication_date must be one date YYYY-MM-DD.', { field: 'publication_date' });
    const { requestId, clientAddress } = locals(res);
    const { caller } = await options.authenticate(req.header(API_KEY_HEADER), requestId, clientAddress);
    const identifier = String(req.params['identifier'] ?? '');
    const rendered = await taxonomyClient(options.clients).renderEuGbsDocument(
      { frameworkIdentifier: identifier, reportingYear: Number(year), document: asked.name, ...(date ? { publicationDate: date } : {}) },
      { caller, requestId },
    );
    const page = Buffer.from(rendered.content).toString('utf8');
    if (asked.pdf) return sendPdf(res, options.printPdf!, page, `${identifier}-${year}-${asked.name}.pdf`, CACHE);
    res.status(200).set({ ...pageHeaders(CACHE), 'X-Robots-Tag': 'noindex', 'X-Content-SHA256': rendered.sha256 }).send(page);
  });
  return router;
}
