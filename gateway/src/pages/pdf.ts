import type { Request, Response } from 'express';
import { InvalidArgumentError, UnavailableError } from '@green-impact/shared/errors';

/**
 * PDFs of the gateway's HTML pages, printed from the very HTML the page serves (docs/decisions.md, "PDF
 * from the page through Chromium"): documents, impact reports, EU GBS reports, through {@link pageFormat},
 * {@link pdfHref} and {@link sendPdf} (the page's own link is shared/page.ts's pdfLink, drawn by the service
 * that renders it). The printing itself is the renderer's (services/shared/src/pdf): over HTTP
 * (PDF_RENDERER_URL), or in this process (embedded).
 */

/** Prints an HTML page to PDF. */
export type PrintPdf = (html: string) => Promise<Buffer>;

/** The renderer service at `baseUrl` (PDF_RENDERER_URL): POST /render. Its refusals become 503s. */
export function rendererClient(baseUrl: string, timeoutMs: number): PrintPdf {
  const url = `${baseUrl.replace(/\/+$/, '')}/render`;
  return async (page) => {
    let answer: globalThis.Response;
    try {
      answer = await fetch(url, { method: 'POST', headers: { 'content-type': 'text/html; charset=utf-8' }, body: page, signal: AbortSignal.timeout(timeoutMs) });
    } catch (err) {
      throw new UnavailableError('The PDF renderer cannot be reached; try again later.', { cause: err, retryAfterSeconds: 5 });
    }
    if (answer.status !== 200 || answer.headers.get('content-type') !== 'application/pdf') {
      const detail = await answer.text().catch(() => '');
      throw new UnavailableError('The PDF renderer could not print this page; try again later.', { cause: new Error(`renderer answered ${answer.status}: ${detail.slice(0, 200)}`), retryAfterSeconds: 5 });
    }
    return Buffer.from(await answer.arrayBuffer());
  };
}

/** `<name>.pdf`, or `<name>.html?format=pdf`: which format the page is asked in (`undefined`: not a page). */
export function pageFormat(req: Request, file: string): { name: string; pdf: boolean } | undefined {
  const m = /^(.+)\.(html|pdf)$/.exec(file);
  if (!m) return undefined;
  const format = req.query['format'];
  if (format !== undefined && format !== 'pdf' && format !== 'html') throw new InvalidArgumentError('format is pdf, html or absent.');
  return { name: m[1]!, pdf: m[2] === 'pdf' || format === 'pdf' };
}

/** The PDF's address of the page at `originalUrl`: `.pdf`, with the same query (a signed link's too). */
export function pdfHref(originalUrl: string): string {
  const url = new URL(originalUrl, 'http://page');
  url.pathname = url.pathname.replace(/\.html$/, '.pdf');
  url.searchParams.delete('format');
  url.searchParams.delete('raw');
  return `${url.pathname}${url.search}`;
}

/** Answers the PDF of `page`; `cache` as the HTML page's own, the file named `filename`. */
export async function sendPdf(res: Response, print: PrintPdf, page: string, filename: string, cache: string): Promise<void> {
  const pdf = await print(page);
  res
    .status(200)
    .set({
      'Content-Type': 'application/pdf',
      'Content-Disposition': `attachment; filename="${filename.replace(/[^A-Za-z0-9._-]/g, '_')}"`,
      'Cache-Control': cache,
      'X-Content-Type-Options': 'nosniff',
      'Referrer-Policy': 'no-referrer',
      'X-Robots-Tag': 'noindex',
    })
    .send(pdf);
}

/** PDF asked for, no renderer configured: a clear 503, as a page. */
export function noRenderer(): UnavailableError {
  return new UnavailableError('PDF downloads are not available here: no PDF renderer is configured (PDF_RENDERER_URL). The HTML page prints to A4 from any browser.');
}
