import type { EntityManager } from 'typeorm';
import type { LanguageRow } from '../reference/entities.js';
import { MSG } from '../messages.js';
import { addByName, assertNameFree, requireIdByName, updateItem, type ItemKind } from './items.js';

export interface Outcome {
  id: number;
  message: string;
}

/**
 * The add-or-rename of the spec's add operations for an item whose name is unique in its year
 * (categories, units): without a new name, adds (or finds) the item of that name; with one, renames the
 * item found by its current name.
 */
export async function addOrRenameInYear(
  m: EntityManager,
  kind: ItemKind,
  year: number,
  name: string,
  newName: string | undefined,
  language: LanguageRow,
): Promise<Outcome> {
  const scope = { reporting_year: year };
  if (newName === undefined) {
    const r = await addByName(m, kind, scope, { reporting_year: year, name, language_code: language.code });
    return { id: r.id, message: r.created ? MSG.added(kind.label, r.id) : MSG.exists(kind.label, r.id) };
  }
  const id = await requireIdByName(m, kind, scope, name, `in ${year}`);
  await assertNameFree(m, kind, scope, newName, `in ${year}`, id);
  await updateItem(m, kind, id, { name: newName }, language);
  return { id, message: MSG.changed(kind.label) };
}
