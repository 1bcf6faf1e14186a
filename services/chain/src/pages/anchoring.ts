import type { DocumentProof, Job } from '@green-impact/proto/greenimpact/chain/v1/chain';
import { html, type Html } from '@green-impact/shared/html';
import { link, pdfLink, PDF_LINK_STYLE } from '@green-impact/shared/page';
import { documentProofSection } from './document-proof-section.js';
import { blockPath } from './explorer-page.js';

/**
 * The anchoring facts of a served document (GET /jobs/<job_id>.html, RenderDocumentPage): on which network,
 * in which transaction and block the document's hash is anchored, the hash, and that the content verified
 * against the chain when it was served. They are only known after the write, so they cannot be part of the
 * anchored bytes: the page shows them *around* the document, in an `<aside>` put right after `<body>`,
 * and leaves every byte of the document as it is (the bytes alone, whose SHA-256 the panel shows, are
 * served at the same address with `raw=1`). Pure.
 */

export interface AnchoringFacts {
  job: Job;
  cid: string;
  /** SHA-256 of the content served, as the chain service computed it. */
  sha256: string;
  /** SHA-256 read from the registry contract when the page was asked for. */
  anchoredSha256: string;
  /** When ChainService.GetDocument verified the content against the chain (this request). */
  checkedAt: Date;
  /** The address of the document's exact anchored bytes (the same page with raw=1). */
  rawUrl: string;
  /** The document's proof (docs/chain.md "Proofs"), when the chain service has one: shown with the facts. */
  proof?: DocumentProof | undefined;
  /** When the chain facts were read from the node (GetDocument's chain_read_at); this request when absent. */
  chainReadAt?: string | undefined;
  /** The page's PDF (pages/pdf.ts), when a renderer is configured: the panel links it. */
  pdfUrl?: string | undefined;
}

/** The explorer pages of a transaction and its block: the network's explorer, else this gateway's (embedded networks have none). */
export function explorerLinks(job: Pick<Job, 'network' | 'txHash' | 'txUrl' | 'blockNumber'>): { tx?: string; block?: string } {
  if (!job.txHash) return {};
  if (job.txUrl) {
    const base = /^(.*)\/tx\/[^/]+$/.exec(job.txUrl)?.[1];
    return { tx: job.txUrl, ...(base && job.blockNumber !== undefined ? { block: `${base}/block/${job.blockNumber}` } : {}) };
  }
  // The gateway's own receipt and block pages.
  return { tx: `/explorer/${encodeURIComponent(job.network)}/tx/${job.txHash}`, ...(job.blockNumber !== undefined ? { block: blockPath(job.network, job.blockNumber) } : {}) };
}

/** The panel itself: a landmark with a heading, the facts as a definition list, the verification status. */
export function anchoringPanel(f: AnchoringFacts): Html {
  const { job } = f;
  const links = explorerLinks(job);
  // The contract that holds the anchor: a batched document's root is on DocumentRoots (its proof names it).
  const registry = f.proof?.contract ?? job.document?.registryAddress;
  const second = (d: Date) => d.toISOString().replace(/\.\d{3}Z$/, 'Z');
  const checked = second(f.checkedAt);
  // When the chain facts were read from the node: this request, or the first view after they were confirmed.
  const chainRead = f.chainReadAt ? second(new Date(f.chainReadAt)) : checked;
  const fact = (label: string, value: Html | string) => html`<div><dt>${label}</dt><dd>${value}</dd></div>`;
  return html`<aside class="anchoring" aria-labelledby="anchoring-title" data-verified="true">
<h2 id="anchoring-title">Anchored on the blockchain</h2>
<p class="anchoring-status"><strong>Verified</strong>: the content's SHA-256 equals the hash anchored on ${job.network}, read from the chain at <time datetime="${chainRead}">${chainRead}</time>${
    chainRead === checked ? ' when this page was served' : html`; the stored content was hashed again when this page was served, at <time datetime="${checked}">${checked}</time> (confirmed chain facts cannot change, so they are kept)`
  }.</p>
<dl>
${fact('Network', job.network)}
${job.txHash ? fact('Transaction', links.tx ? link(links.tx, job.txHash, true) : html`<span class="mono">${job.txHash}</span>`) : ''}
${job.blockNumber !== undefined ? fact('Block', links.block ? link(links.block, String(job.blockNumber)) : String(job.blockNumber)) : ''}
${fact('Content SHA-256', html`<span class="mono">${f.sha256}</span>`)}
${fact('Content ID', html`<span class="mono">${f.cid}</span>`)}
${registry ? fact('Registry contract', html`<span class="mono">${registry}</span>`) : ''}
${job.completedAt ? fact('Anchored', job.completedAt) : ''}
</dl>
${f.proof ? documentProofSection(f.proof, true, links.tx) : ''}
<p class="anchoring-note">This box is added when the page is served; the anchored document is everything below it. ${link(f.rawUrl, 'The document alone')} has exactly the bytes of that hash.</p>
${f.pdfUrl ? pdfLink(f.pdfUrl) : ''}
</aside>`;
}

/**
 * Styles of the panel, scoped to it (the document's own CSS styles bare elements), and the print layout of
 * every served document: A4, the panel as the first page's header, tables and charts kept whole where they fit.
 */
export const ANCHORING_STYLE = `
.anchoring{all:initial;display:block;box-sizing:border-box;max-width:78rem;margin:0 auto;padding:.75rem 1.5rem;background:#eef6f1;border-bottom:2px solid #17643a;color:#1d2b24;font:14px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif}
.anchoring h2{font-size:1rem;margin:0 0 .25rem;color:#17643a}
.anchoring p{margin:.25rem 0}
.anchoring dl{display:grid;grid-template-columns:repeat(auto-fit,minmax(16rem,1fr));gap:.25rem 1.5rem;margin:.5rem 0}
.anchoring dl div{min-width:0}
.anchoring dt{font-weight:600;color:#3f4f47;font-size:.85em}
.anchoring dd{margin:0;overflow-wrap:anywhere}
.anchoring .mono{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-size:.9em}
.anchoring a{color:#0b5394}
.anchoring-note{font-size:.85em;color:#3f4f47}
.anchoring h3{font-size:.9rem;margin:.5rem 0 .25rem;color:#17643a}
.anchoring table{border-collapse:collapse;font-size:.85em}
.anchoring th,.anchoring td{text-align:left;padding:.1rem .75rem .1rem 0;vertical-align:top;overflow-wrap:anywhere}
.anchoring code{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace}
@page{size:A4;margin:14mm 12mm}
@media print{
body{background:#fff}
.anchoring{max-width:none;padding:0 0 .5rem;background:none;font-size:10px;border-bottom:1px solid #17643a}
.anchoring a{color:inherit;text-decoration:none}
main{max-width:none;padding:0}
table{page-break-inside:auto}
thead{display:table-header-group}
tr,figure,svg{break-inside:avoid}
h1,h2,h3{break-after:avoid}
}
${PDF_LINK_STYLE}
`;

/**
 * The document with the panel: its style at the end of `<head>`, the panel right after `<body …>`; a
 * document without those tags gets them in front. The document's bytes between stay as they are.
 */
export function withAnchoring(document: string, panel: Html): string {
  const style = `<style>${ANCHORING_STYLE}</style>`;
  const headEnd = /<\/head\s*>/i.exec(document);
  const withStyle = headEnd ? `${document.slice(0, headEnd.index)}${style}\n${document.slice(headEnd.index)}` : document;
  const body = /<body\b[^>]*>/i.exec(withStyle);
  if (!body) return `${headEnd ? '' : style}\n${panel.text}\n${withStyle}`;
  const at = body.index + body[0].length;
  return `${withStyle.slice(0, at)}\n${panel.text}${withStyle.slice(at)}`;
}
