/**
 * What every HTML page the gateway serves shares (certificates, claim, explorer: rendered by the chain
 * service in the shell of shared/page.ts): the headers that keep it self-contained, and the gateway's own
 * error page in the same shell. Escaping is the project's one escaper (shared/html.ts). Pure.
 */
import { html } from '@green-impact/shared/html';
import { page } from '@green-impact/shared/page';

export { escapeHtml } from '@green-impact/shared/html';

/**
 * The pages need nothing from anywhere: no script (but the claim page's own file, see pageHeaders), inline
 * style, pictures from this gateway only (`/ipfs/<cid>`), forms posting here only, never framed (no
 * clickjacking of the claim button).
 */
export const PAGE_CSP = "default-src 'none'; style-src 'unsafe-inline'; img-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'";

/**
 * Headers of every page; `cache` is the page's own Cache-Control. `scripts`: the page loads scripts from
 * this gateway (the claim page's, shared/claim-script.ts) and nothing else, never inline.
 */
export function pageHeaders(cache: string, options: { scripts?: boolean } = {}): Record<string, string> {
  return {
    'Content-Type': 'text/html; charset=utf-8',
    'Cache-Control': cache,
    'Content-Security-Policy': options.scripts ? `${PAGE_CSP}; script-src 'self'` : PAGE_CSP,
    'X-Content-Type-Options': 'nosniff',
    'X-Frame-Options': 'DENY',
    // Links on the pages go to explorers; the claim page's URL carries a code, which must not travel on.
    'Referrer-Policy': 'no-referrer',
  };
}

/** The page of a failure: the status's message, as the error table gave it. */
export function errorPage(status: number, message: string): string {
  const title = status === 404 ? 'Not found' : status >= 500 ? 'Something went wrong' : 'That did not work';
  return page(title, html`<p class="error">${message}</p>`);
}
