import type { DataSource } from 'typeorm';
import { InvalidArgumentError } from '@green-impact/shared/errors';
import { LanguageEntity, type LanguageRow } from './entities.js';
import { truncate } from '../validation.js';

/**
 * The languages (seeded by migration, never changed at run time), held in memory: every read resolves
 * the requested code and names the language of each returned text. Codes match case-insensitively and
 * are answered in their canonical spelling (`en-AU`).
 */
export class LanguageCatalog {
  private readonly byCode: Map<string, LanguageRow>;

  private constructor(private readonly rows: LanguageRow[]) {
    this.byCode = new Map(rows.map((l) => [l.code.toLowerCase(), l]));
  }

  static async load(ds: DataSource): Promise<LanguageCatalog> {
    return new LanguageCatalog(await ds.getRepository(LanguageEntity).find({ order: { id: 'ASC' } }));
  }

  list(): readonly LanguageRow[] {
    return this.rows;
  }

  /** The language of a code; INVALID_ARGUMENT when it is not one of getLanguages. */
  require(code: string): LanguageRow {
    const found = this.byCode.get(code.trim().toLowerCase());
    if (!found) throw new InvalidArgumentError(`Unknown language code ${truncate(code.trim())}.`);
    return found;
  }

  /** A read's optional language: absent or blank means "the original language of each item". */
  optional(code: string | undefined): LanguageRow | undefined {
    return code === undefined || code.trim() === '' ? undefined : this.require(code);
  }

  /** A required language parameter of a change. */
  required(code: string | undefined, fallback?: string): LanguageRow {
    if (code === undefined || code.trim() === '') {
      if (fallback !== undefined) return this.require(fallback);
      throw new InvalidArgumentError('language_code is required.');
    }
    return this.require(code);
  }

  /** Name of a stored language code (always known: a foreign key guarantees it). */
  nameOf(code: string): string {
    return this.byCode.get(code.toLowerCase())?.name ?? code;
  }
}
