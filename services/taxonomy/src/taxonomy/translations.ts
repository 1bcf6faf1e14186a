import type { DataSource } from 'typeorm';
import type { Caller } from '@green-impact/shared/caller';
import { InvalidArgumentError } from '@green-impact/shared/errors';
import { requireOperator } from '@green-impact/shared/caller';
import type { LanguageCatalog } from '../reference/language-catalog.js';
import { MSG } from '../messages.js';
import * as v from '../validation.js';
import { requireItem, type ItemKind } from './items.js';

export interface TranslationInput {
  itemId: number;
  reportingYear: number;
  languageCode: string;
  translation: string;
}

/**
 * Translations of taxonomy items (spec §4.4): one per item and language, added or replaced. A
 * translation into the item's original language is refused: that is a rename.
 */
export class TranslationStore {
  constructor(
    private readonly ds: DataSource,
    private readonly languages: LanguageCatalog,
  ) {}

  /** Returns the item's id. Re-adding the same text writes nothing. */
  async upsert(caller: Caller, kind: ItemKind, input: TranslationInput): Promise<number> {
    requireOperator(caller);
    const id = v.id(kind.fk, input.itemId);
    const year = v.reportingYear(input.reportingYear);
    const language = this.languages.required(input.languageCode);
    const text = v.name('translation', input.translation);
    return this.ds.transaction(async (m) => {
      const item = await requireItem(m, kind, id, year);
      if (item.languageCode === language.code) {
        throw new InvalidArgumentError(MSG.translationIsOriginal(kind.label, id, language.name, kind.rename));
      }
      const t = `taxonomy.${kind.translationTable}`;
      await m.query(
        `INSERT INTO ${t} (${kind.fk}, language_code, name) VALUES ($1, $2, $3)
         ON CONFLICT (${kind.fk}, language_code) DO UPDATE SET name = EXCLUDED.name, updated_at = now()
         WHERE ${t}.name IS DISTINCT FROM EXCLUDED.name`,
        [id, language.code, text],
      );
      return id;
    });
  }
}
