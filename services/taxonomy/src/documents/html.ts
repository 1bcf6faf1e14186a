/**
 * The BCP 47 tag of a language code of the service for an HTML `lang` attribute: the spec's `dk` is
 * Danish, `da` in BCP 47; every other code of getLanguages is a valid tag already.
 */
export function htmlLang(languageCode: string): string {
  return languageCode.toLowerCase() === 'dk' ? 'da' : languageCode;
}
