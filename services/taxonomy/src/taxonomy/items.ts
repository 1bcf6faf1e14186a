import type { EntityManager, EntitySchema, FindOptionsWhere } from 'typeorm';
import { AlreadyExistsError, FailedPreconditionError, NotFoundError } from '@green-impact/shared/errors';
import type { LanguageRow } from '../reference/entities.js';
import { MSG, type ItemLabel } from '../messages.js';
import {
  CategoryEntity,
  IndicatorEntity,
  SubCategoryEntity,
  SuperIndicatorEntity,
  UnitEntity,
  type IndicatorRow,
  type NamedItemRow,
  type SubCategoryRow,
} from './entities.js';

/** What the generic code needs to know about one kind of taxonomy item. */
export interface ItemKind<R extends NamedItemRow = NamedItemRow> {
  label: ItemLabel;
  table: string;
  translationTable: string;
  /** Column naming the item in its translation table (and in the spec's parameters). */
  fk: string;
  entity: EntitySchema<R>;
  /** How to change the original name, for the message that refuses a translation into it. */
  rename: string;
}

export const CATEGORY: ItemKind = {
  label: 'category',
  table: 'categories',
  translationTable: 'category_translations',
  fk: 'category_id',
  entity: CategoryEntity,
  rename: 'addCategory (category_name_changed)',
};
export const SUB_CATEGORY: ItemKind<SubCategoryRow> = {
  label: 'sub category',
  table: 'sub_categories',
  translationTable: 'sub_category_translations',
  fk: 'sub_category_id',
  entity: SubCategoryEntity,
  rename: 'addSubCategory (sub_category_name_changed)',
};
export const SUPER_INDICATOR: ItemKind = {
  label: 'super indicator',
  table: 'super_indicators',
  translationTable: 'super_indicator_translations',
  fk: 'super_indicator_id',
  entity: SuperIndicatorEntity,
  rename: 'addSuperIndicator (super_indicator_name_changed)',
};
export const INDICATOR: ItemKind<IndicatorRow> = {
  label: 'indicator',
  table: 'indicators',
  translationTable: 'indicator_translations',
  fk: 'indicator_id',
  entity: IndicatorEntity,
  rename: 'addIndicator (indicator_name_changed)',
};
export const UNIT: ItemKind = {
  label: 'unit',
  table: 'units',
  translationTable: 'unit_translations',
  fk: 'unit_id',
  entity: UnitEntity,
  rename: 'addUnit (unit_name_changed)',
};

/** Where a name is unique: column → value (the year, or the parent's id). */
export type NameScope = Record<string, number>;
type SqlValue = string | number;

/** The item of that id in that year, or NOT_FOUND ("No such category 12 in 2024."). */
export async function requireItem<R extends NamedItemRow>(m: EntityManager, kind: ItemKind<R>, id: number, year: number): Promise<R> {
  const where = { id, reportingYear: year } as FindOptionsWhere<R>;
  const row = await m.getRepository(kind.entity).findOne({ where, lock: { mode: 'pessimistic_write' } });
  if (!row) throw new NotFoundError(MSG.noSuch(kind.label, id, year));
  return row;
}

/** The id of the item of that name (case-insensitive) in the scope, locked for the transaction. */
export async function findIdByName(
  m: EntityManager,
  kind: ItemKind,
  scope: NameScope,
  name: string,
  exceptId?: number,
): Promise<number | undefined> {
  const cols = Object.keys(scope);
  const params: SqlValue[] = [...Object.values(scope), name];
  let where = [...cols.map((c, i) => `${c} = $${i + 1}`), `lower(name) = lower($${cols.length + 1})`].join(' AND ');
  if (exceptId !== undefined) {
    params.push(exceptId);
    where += ` AND id <> $${params.length}`;
  }
  const rows: { id: number }[] = await m.query(`SELECT id FROM taxonomy.${kind.table} WHERE ${where} FOR UPDATE`, params);
  return rows[0]?.id;
}

/** The id of the item to change, found by its current name; NOT_FOUND naming where it was looked for. */
export async function requireIdByName(m: EntityManager, kind: ItemKind, scope: NameScope, name: string, where: string): Promise<number> {
  const id = await findIdByName(m, kind, scope, name);
  if (id === undefined) throw new NotFoundError(MSG.noSuchName(kind.label, name, where));
  return id;
}

/** Refuses a change that would give the item a name another item of the scope already has (409). */
export async function assertNameFree(
  m: EntityManager,
  kind: ItemKind,
  scope: NameScope,
  name: string,
  where: string,
  itemId: number,
): Promise<void> {
  const clash = await findIdByName(m, kind, scope, name, itemId);
  if (clash !== undefined) throw new AlreadyExistsError(MSG.nameTaken(kind.label, name, where, clash));
}

/**
 * Adds the item unless one of that name exists in its scope: `created` false then, with the existing id.
 * ON CONFLICT makes two concurrent adds of one name end with one row, both answering its id.
 */
export async function addByName(
  m: EntityManager,
  kind: ItemKind,
  scope: NameScope,
  values: Record<string, SqlValue>,
): Promise<{ id: number; created: boolean }> {
  const cols = Object.keys(values);
  const inserted: { id: number }[] = await m.query(
    `INSERT INTO taxonomy.${kind.table} (${cols.join(', ')}) VALUES (${cols.map((_, i) => `$${i + 1}`).join(', ')})
     ON CONFLICT DO NOTHING RETURNING id`,
    Object.values(values),
  );
  if (inserted[0]) return { id: inserted[0].id, created: true };
  const existing = await findIdByName(m, kind, scope, String(values['name']));
  if (existing === undefined) throw new AlreadyExistsError(`The ${kind.label} was changed concurrently; please retry.`);
  return { id: existing, created: false };
}

/**
 * Changes columns of an item. A new name comes in `language`: that becomes the item's original
 * language, and a translation into it (now redundant) is dropped.
 */
export async function updateItem(
  m: EntityManager,
  kind: ItemKind,
  id: number,
  set: Record<string, SqlValue>,
  language?: LanguageRow,
): Promise<void> {
  const values = { ...set, ...(language ? { language_code: language.code } : {}) };
  const cols = Object.keys(values);
  if (cols.length === 0) return;
  await m.query(
    `UPDATE taxonomy.${kind.table} SET ${cols.map((c, i) => `${c} = $${i + 2}`).join(', ')}, updated_at = now() WHERE id = $1`,
    [id, ...Object.values(values)],
  );
  if (language) {
    await m.query(`DELETE FROM taxonomy.${kind.translationTable} WHERE ${kind.fk} = $1 AND language_code = $2`, [id, language.code]);
  }
}

/** Deletes an item (its translations go with it). A child added concurrently still blocks: 23503 → 412. */
export async function deleteItem(m: EntityManager, kind: ItemKind, id: number): Promise<void> {
  try {
    await m.query(`DELETE FROM taxonomy.${kind.table} WHERE id = $1`, [id]);
  } catch (err) {
    if (pgErrorCode(err) === '23503') throw new FailedPreconditionError(MSG.stillInUse(kind.label, id));
    throw err;
  }
}

/** Ids in a column of a table that point at an item: who still uses it. */
export async function idsUsing(m: EntityManager, table: string, idColumn: string, column: string, id: number): Promise<number[]> {
  const rows: { id: number }[] = await m.query(
    `SELECT DISTINCT ${idColumn} AS id FROM taxonomy.${table} WHERE ${column} = $1 ORDER BY 1`,
    [id],
  );
  return rows.map((r) => r.id);
}

export function pgErrorCode(err: unknown): string | undefined {
  const e = err as { code?: unknown; driverError?: { code?: unknown } };
  const code = e?.driverError?.code ?? e?.code;
  return typeof code === 'string' ? code : undefined;
}
