import { Router, type Request, type RequestHandler, type Response } from 'express';
import type { Caller } from '@green-impact/shared/caller';
import { EU_GBS_DOCUMENTS } from '@green-impact/shared/eu-green-bonds';
import { InvalidArgumentError } from '@green-impact/shared/errors';
import { API_KEY_HEADER, type Authenticate } from './auth.js';
import { taxonomyClient, type GatewayClients } from './clients.js';
import { DocumentLinks } from './document-links.js';
import { pageHeaders } from './pages/html.js';
import { noRenderer, pageFormat, sendPdf, type PrintPdf } from './pages/pdf.js';
import { asPages, openLink } from './pages/signed-link-pages.js';
import { locals, routeLabel } from './request-context.js';

export interface EuGbsRoutesOptions {
  authenticate: Authenticate;
  clients: GatewayClients;
  rateLimit: RequestHandler;
  documentLinks: DocumentLinks;
  /** Prints pages to PDF (pages/pdf.ts); without it `.pdf` answers 503. */
  printPdf?: PrintPdf | undefined;
}

const YEAR = /^\d{4}$/;

/** The page's address, without its query. */
export function euGbsPageUrl(baseUrl: string, identifier: string, year: number, document: string, format: 'html' | 'pdf' = 'html'): string {
  return `${baseUrl}/reports/frameworks/${encodeURIComponent(identifier)}/${year}/${document}.${format}`;
}

/** What an EU GBS page link's MAC covers besides the account and the expiry: the document as it is rendered. */
export const euGbsSubject = (identifier: string, year: number, document: string, publicationDate: string | undefined) =>
  ['eu-gbs', identifier, year, document, publicationDate ?? ''] as const;

/**
 * A signed link to the page (and `.pdf` to its print) for the caller's account: `?acct&exp&sig`, then the
 * publication date the MAC covers, so the link shows that one document until it expires.
 */
export function euGbsPageLink(links: DocumentLinks, baseUrl: string, caller: Caller, identifier: string, year: number, document: string, publicationDate: string | undefined, format: 'html' | 'pdf' = 'html'): string {
  const signed = links.signReport(euGbsPageUrl(baseUrl, identifier, year, document, format), euGbsSubject(identifier, year, document, publicationDate), caller.accountId);
  return publicationDate ? `${signed}&publication_date=${encodeURIComponent(publicationDate)}` : signed;
}

/**
 * The EU Green Bond Standard's documents as pages (issue 37):
 * `GET /reports/frameworks/<framework_identifier>/<year>/<document>.html` with document factsheet,
 * allocation_report or impact_report, and `?publication_date=YYYY-MM-DD` as getEuGbsDocument takes it; with
 * the framework owner's X-Api-Key, or with no header through the signed link getEuGbsDocument answers (read as
 * that account, for that document only, until it expires). The page is the service's document byte for byte
 * (no link added), so it hashes to getEuGbsDocument's sha256; `<document>.pdf` (or `.html?format=pdf`)
 * prints that same HTML. The service owns every rule and text.
 */
export function euGbsRoutes(options: EuGbsRoutesOptions): Router {
  const router = Router();
  router.get('/reports/frameworks/:identifier/:year/:file', routeLabel('/reports/frameworks/:identifier/:year/:document.html'), options.rateLimit, async (req, res, next) => {
    const asked = pageFormat(req, String(req.params['file'] ?? ''));
    const year = String(req.params['year'] ?? '');
    if (!asked || !YEAR.test(year) || !(EU_GBS_DOCUMENTS as readonly string[]).includes(asked.name)) return next();
    const page = { identifier: String(req.params['identifier'] ?? ''), year: Number(year), document: asked.name, pdf: asked.pdf, publicationDate: publicationDate(req) };
    // A browser follows a signed link: even its refusals are pages.
    if (DocumentLinks.isLinkQuery(req.query)) return linked(page, req.query, res);
    if (page.pdf && !options.printPdf) throw noRenderer();
    const { requestId, clientAddress } = locals(res);
    const { caller } = await options.authenticate(req.header(API_KEY_HEADER), requestId, clientAddress);
    await send(res, page, caller, 'private, no-cache');
  });

  type Page = { identifier: string; year: number; document: string; pdf: boolean; publicationDate: string | undefined };

  /** As report links: altered or foreign is the 404 of an unknown document, expired 403; answered as pages. */
  async function linked(page: Page, query: Request['query'], res: Response): Promise<void> {
    await asPages(res, async () => {
      if (page.pdf && !options.printPdf) throw noRenderer();
      const link = openLink(options.documentLinks.checkReport(euGbsSubject(page.identifier, page.year, page.document, page.publicationDate), query), 'No such EU Green Bond document.');
      await send(res, page, { accountId: link.accountId, role: 'user' }, 'private, no-store');
    });
  }

  async function send(res: Response, page: Page, caller: Caller, cache: string): Promise<void> {
    const rendered = await taxonomyClient(options.clients).renderEuGbsDocument(
      { frameworkIdentifier: page.identifier, reportingYear: page.year, document: page.document, ...(page.publicationDate ? { publicationDate: page.publicationDate } : {}) },
      { caller, requestId: locals(res).requestId },
    );
    const html = Buffer.from(rendered.content).toString('utf8');
    if (page.pdf) return sendPdf(res, options.printPdf!, html, `${page.identifier}-${page.year}-${page.document}.pdf`, cache);
    res.status(200).set({ ...pageHeaders(cache), 'X-Robots-Tag': 'noindex', 'X-Content-SHA256': rendered.sha256 }).send(html);
  }

  return router;
}

function publicationDate(req: Request): string | undefined {
  const date = req.query['publication_date'];
  if (date === undefined || date === '') return undefined;
  if (typeof date !== 'string') throw new InvalidArgumentError('publication_date must be one date YYYY-MM-DD.', { field: 'publication_date' });
  return date;
}
