/**
 * One self-contained HTML page for people (no script, inline style, no external asset), shared by the
 * gateway's pages (certificates, claim, explorer, errors) and the pages the services render for it (the
 * impact report, portfolio service): the shell, links, the "Download PDF" link. Pure.
 */
import { escapeHtml, html, type Html } from './html.js';

const STYLE = `
body{font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;margin:0;background:#f4f7f5;color:#1d2b24;line-height:1.5}
main{max-width:52rem;margin:2rem auto;padding:1.5rem 2rem;background:#fff;border:1px solid #d5e0da;border-radius:8px}
h1{font-size:1.5rem;margin:0 0 .25rem}h2{font-size:1.1rem;margin:1.5rem 0 .5rem}
.sub{color:#5a6b62;margin:0 0 1rem}
table{border-collapse:collapse;width:100%}th,td{text-align:left;vertical-align:top;padding:.35rem .5rem;border-bottom:1px solid #e6ece8}
th{width:14rem;color:#5a6b62;font-weight:600}
code,.mono{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-size:.9em;word-break:break-all}
img.nft{max-width:16rem;max-height:16rem;border:1px solid #d5e0da;border-radius:4px;float:right;margin:0 0 1rem 1rem}
.ok{color:#17643a;font-weight:600}.bad{color:#a4262c;font-weight:600}.note{background:#fff8e1;border:1px solid #f0d98c;padding:.5rem .75rem;border-radius:4px}
.error{background:#fdecea;border:1px solid #f1b0ab;padding:.5rem .75rem;border-radius:4px}
nav a{margin-right:1rem}
label{display:block;font-weight:600;margin:.75rem 0 .25rem}input[type=text]{width:100%;box-sizing:border-box;padding:.5rem;font-family:ui-monospace,monospace;font-size:1rem}
button{margin-top:1rem;padding:.6rem 1.2rem;font-size:1rem;background:#17643a;color:#fff;border:0;border-radius:4px;cursor:pointer}
`;

/** A whole page: title, optional subtitle, body; `style` adds to the shared one (a wide report, its print layout). */
export function page(title: string, body: Html, subtitle?: string, style = ''): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>${escapeHtml(title)}</title>
<style>${STYLE}${style}</style>
</head>
<body>
<main>
<h1>${escapeHtml(title)}</h1>
${subtitle ? `<p class="sub">${escapeHtml(subtitle)}</p>` : ''}
${body.text}
</main>
</body>
</html>
`;
}

/** A link; `href` is escaped like any value, and only http(s) and relative links are made. */
export function link(href: string, text: unknown, mono = false): Html {
  const scheme = /^([A-Za-z][A-Za-z0-9+.-]*):/.exec(href)?.[1]?.toLowerCase();
  const safe = scheme === undefined || scheme === 'http' || scheme === 'https' ? href : '#';
  return mono ? html`<a class="mono" href="${safe}">${text}</a>` : html`<a href="${safe}">${text}</a>`;
}

/** The "Download PDF" link of a page; hidden when printed. */
export function pdfLink(href: string): Html {
  return html`<p class="pdf-download">${link(href, 'Download PDF')}</p>`;
}

/** Keeps the link out of print (and so out of the PDF). */
export const PDF_LINK_STYLE = '@media print{.pdf-download{display:none}}';

/** A row of a facts table; nothing when the value is empty. */
export function row(label: string, value: unknown): Html {
  if (value === undefined || value === null || value === '') return html``;
  return html`<tr><th>${label}</th><td>${value}</td></tr>`;
}
