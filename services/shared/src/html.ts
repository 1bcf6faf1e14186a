/**
 * The one HTML escaper of the project, and a tagged template that escapes by default: every page and
 * document (gateway pages, taxonomy framework and EU GBS documents, portfolio position documents, charts,
 * the chain service's claim e-mail) writes text into markup through these.
 */

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Text for HTML element content and quoted attribute values: the five characters that could end or open markup, escaped. */
export function escapeHtml(value: unknown): string {
  return String(value).replace(/[&<>"']/g, (c) => ESCAPES[c]!);
}

/** Markup already made safe: {@link html} writes it as it is. */
export class Html {
  constructor(readonly text: string) {}
  toString(): string {
    return this.text;
  }
}

/** A tagged template that escapes every interpolated value unless it is already {@link Html}; arrays are joined, nothing for undefined, null and false. */
export function html(strings: TemplateStringsArray, ...values: unknown[]): Html {
  let out = strings[0]!;
  values.forEach((v, i) => {
    out += render(v) + strings[i + 1]!;
  });
  return new Html(out);
}

function render(v: unknown): string {
  if (v instanceof Html) return v.text;
  if (Array.isArray(v)) return v.map(render).join('');
  if (v === undefined || v === null || v === false) return '';
  return escapeHtml(v);
}
