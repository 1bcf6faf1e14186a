/** Text for HTML content and attribute values: the five characters that could end or open markup, escaped. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ESCAPES[c]!);
}

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/**
 * The BCP 47 tag of a language code of the service for an HTML `lang` attribute: the spec's `dk` is
 * Danish, `da` in BCP 47; every other code of getLanguages is a valid tag already.
 */
export function htmlLang(languageCode: string): string {
  return languageCode.toLowerCase() === 'dk' ? 'da' : languageCode;
}
