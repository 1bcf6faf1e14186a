import { Router, type Request, type RequestHandler, type Response } from 'express';
import type { Caller } from '@green-impact/shared/caller';
import { API_KEY_HEADER, type Authenticate } from './auth.js';
import { portfolioClient, type GatewayClients } from './clients.js';
import { DocumentLinks } from './document-links.js';
import { pageHeaders } from './pages/html.js';
import { noRenderer, pageFormat, pdfHref, sendPdf, type PrintPdf } from './pages/pdf.js';
import { asPages, openLink } from './pages/signed-link-pages.js';
import { locals, routeLabel } from './request-context.js';

export interface ReportRoutesOptions {
  authenticate: Authenticate;
  clients: GatewayClients;
  rateLimit: RequestHandler;
  documentLinks: DocumentLinks;
  /** Prints pages to PDF (pages/pdf.ts); without it `.pdf` answers 503 and pages offer no PDF. */
  printPdf?: PrintPdf | undefined;
}

/** Asked as PDF (`print`), or as HTML with a link to its PDF (`pdfUrl`) when one can be printed. */
interface ReportView {
  print?: PrintPdf | undefined;
  pdfUrl?: string | undefined;
}

type ReportKind = 'portfolio' | 'investor';
const PATHS: Record<ReportKind, string> = { portfolio: 'portfolios', investor: 'investors' };
const YEAR = /^\d{4}$/;

/** The page's address; the catalogue's getHtml*ImpactReport sign it (report-links in document-links.ts). */
export function reportPageUrl(baseUrl: string, kind: ReportKind, identifier: string, year: number): string {
  return `${baseUrl}/reports/${PATHS[kind]}/${encodeURIComponent(identifier)}/${year}.html`;
}

/** What a report link's MAC covers besides the account and the expiry. */
export const reportSubject = (kind: ReportKind, identifier: string, year: number) => [kind, identifier, year] as const;

/**
 * Impact reports as pages, rendered by the portfolio service (RenderImpactReportPage) and served here:
 * - `GET /reports/portfolios/<portfolio_identifier>/<year>.html`
 * - `GET /reports/investors/<investor_identifier>/<year>.html`
 * with the account's X-Api-Key, or with no header through a signed link (`?acct=…&exp=…&sig=…`) that
 * getHtmlPortfolioImpactReport / getHtmlInvestorImpactReport (and GraphQL) hand out: read as that account,
 * for that report only, until it expires. The page is rendered by the portfolio service on each view.
 * `<year>.pdf` (or `.html?format=pdf`) is the same page printed, authorized the same way.
 */
export function reportRoutes(options: ReportRoutesOptions): Router {
  const router = Router();
  for (const kind of ['portfolio', 'investor'] as const) {
    router.get(`/reports/${PATHS[kind]}/:identifier/:file`, routeLabel(`/reports/${PATHS[kind]}/:identifier/:year.html`), options.rateLimit, async (req, res, next) => {
      const asked = pageFormat(req, String(req.params['file'] ?? ''));
      if (!asked || !YEAR.test(asked.name)) return next();
      const noPdf = asked.pdf && !options.printPdf;
      const year = Number(asked.name);
      const view: ReportView = asked.pdf ? { print: options.printPdf } : { pdfUrl: options.printPdf ? pdfHref(req.originalUrl) : undefined };
      const identifier = String(req.params['identifier'] ?? '');
      // A browser follows a signed link: even its refusals (no renderer for the PDF) are pages.
      if (DocumentLinks.isLinkQuery(req.query)) return linkedReport(kind, identifier, year, req.query, res, view, noPdf);
      if (noPdf) throw noRenderer();
      const { requestId, clientAddress } = locals(res);
      const { caller } = await options.authenticate(req.header(API_KEY_HEADER), requestId, clientAddress);
      await sendReport(res, kind, identifier, year, caller, 'private, no-cache', view);
    });
  }

  /** As document links: altered or foreign is the 404 of an unknown report, expired 403; answered as pages. */
  async function linkedReport(kind: ReportKind, identifier: string, year: number, query: Request['query'], res: Response, view: ReportView, noPdf: boolean): Promise<void> {
    await asPages(res, async () => {
      if (noPdf) throw noRenderer();
      const link = openLink(options.documentLinks.checkReport(reportSubject(kind, identifier, year), query), `No such ${kind} report.`);
      // The link stands for the account that asked for it, for this one read; the least role reads it.
      await sendReport(res, kind, identifier, year, { accountId: link.accountId, role: 'user' }, 'private, no-store', view);
    });
  }

  async function sendReport(res: Response, kind: ReportKind, identifier: string, year: number, caller: Caller, cache: string, view: ReportView): Promise<void> {
    const rendered = await portfolioClient(options.clients).renderImpactReportPage(
      {
        portfolioIdentifier: kind === 'portfolio' ? identifier : '',
        investorIdentifier: kind === 'investor' ? identifier : '',
        reportingYear: year,
        // The page printed to PDF carries no link to itself.
        pdfUrl: view.print ? '' : (view.pdfUrl ?? ''),
      },
      { caller, requestId: locals(res).requestId },
    );
    const page = Buffer.from(rendered.content).toString('utf8');
    if (view.print) return sendPdf(res, view.print, page, `${kind}-${identifier}-${year}.pdf`, cache);
    res.status(200).set({ ...pageHeaders(cache), 'Content-Type': rendered.contentType, 'X-Robots-Tag': 'noindex' }).send(page);
  }

  return router;
}
