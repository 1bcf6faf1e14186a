import type { Language } from '@green-impact/proto/greenimpact/taxonomy/v1/taxonomy';

/**
 * The language row of the spec (§2.2). The taxonomy's other rows (§2.1) are generated from
 * taxonomy.proto's annotated messages (gateway/src/generated/taxonomy.ts, scripts/catalogue-generate.mjs);
 * this one stays by hand because its `language_code` is a non-empty string, which no annotation says yet.
 */
export function languageRow(l: Language) {
  return { id: l.id, language_code: l.languageCode, language: l.language };
}
