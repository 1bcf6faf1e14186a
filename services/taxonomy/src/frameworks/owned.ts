import type { DataSource, EntityManager } from 'typeorm';
import type { Caller } from '@green-impact/shared/caller';
import { NotAuthorizedError, NotFoundError, UnauthenticatedError } from '@green-impact/shared/errors';
import { checkPublicLimit, REFERENCE_CANDIDATES, resolveReference } from '@green-impact/shared/public-items';
import type { OwnedRecord, VisibilityValue } from './entities.js';
import { OWNED_MSG, type OwnedLabel } from './messages.js';

/** What the generic code needs to know about one kind of owned item (frameworks, projects). */
export interface OwnedKind {
  label: OwnedLabel;
  table: string;
  yearTable: string;
  rowTable: string;
  /** Column naming the item in its year and row tables. */
  fk: string;
}

export const FRAMEWORK: OwnedKind = {
  label: 'framework',
  table: 'frameworks',
  yearTable: 'framework_year_specifics',
  rowTable: 'framework_rows',
  fk: 'framework_id',
};

export const PROJECT: OwnedKind = {
  label: 'project',
  table: 'projects',
  yearTable: 'project_year_specifics',
  rowTable: 'project_rows',
  fk: 'project_id',
};

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The caller's account id, as stored (a UUID issued by the identity service). */
export function accountOf(caller: Caller): string {
  if (!UUID.test(caller.accountId)) throw new UnauthenticatedError();
  return caller.accountId.toLowerCase();
}

/** The OwnedRecord columns of a table (optionally qualified by its alias). */
export function ownedColumns(alias?: string): string {
  const a = alias ? `${alias}.` : '';
  return `${a}id, ${a}account_id AS "accountId", ${a}identifier, ${a}name, ${a}currency_code AS "currencyCode", ${a}visibility`;
}

type Db = DataSource | EntityManager;

/**
 * The item a read by identifier means: the caller's own, else the public one of another account when
 * exactly one account publishes the identifier. Undefined when neither exists; FAILED_PRECONDITION when
 * several accounts publish it and the caller has none (shared/public-items.ts: no squatting).
 */
export async function findVisible(db: Db, kind: OwnedKind, account: string, identifier: string): Promise<OwnedRecord | undefined> {
  const rows: OwnedRecord[] = await db.query(
    `SELECT ${ownedColumns()} FROM taxonomy.${kind.table}
     WHERE identifier = $1 AND (account_id = $2 OR visibility = 'public')
     ORDER BY (account_id = $2) DESC, id LIMIT ${REFERENCE_CANDIDATES}`,
    [identifier, account],
  );
  return resolveReference(rows, account, kind.label, identifier);
}

export async function requireVisible(db: Db, kind: OwnedKind, account: string, identifier: string): Promise<OwnedRecord> {
  const found = await findVisible(db, kind, account, identifier);
  if (!found) throw new NotFoundError(OWNED_MSG.noSuch(kind.label, identifier));
  return found;
}

/** An item by id whatever its owner and visibility (service-internal selectors). */
export async function requireById(db: Db, kind: OwnedKind, id: number): Promise<OwnedRecord> {
  const rows: OwnedRecord[] = await db.query(`SELECT ${ownedColumns()} FROM taxonomy.${kind.table} WHERE id = $1`, [id]);
  if (!rows[0]) throw new NotFoundError(OWNED_MSG.noSuchId(kind.label, id));
  return rows[0];
}

/**
 * The caller's own item of that identifier, locked for the change. Another account's public item is
 * PERMISSION_DENIED `Not authorized.`; another account's private item is not revealed: NOT_FOUND, as
 * when nothing of that identifier exists.
 */
export async function requireOwned(m: EntityManager, kind: OwnedKind, account: string, identifier: string): Promise<OwnedRecord> {
  const own: OwnedRecord[] = await m.query(
    `SELECT ${ownedColumns()} FROM taxonomy.${kind.table} WHERE account_id = $1 AND identifier = $2 FOR UPDATE`,
    [account, identifier],
  );
  if (own[0]) return own[0];
  const published: unknown[] = await m.query(`SELECT 1 FROM taxonomy.${kind.table} WHERE identifier = $1 AND visibility = 'public' LIMIT 1`, [identifier]);
  if (published.length) throw new NotAuthorizedError();
  throw new NotFoundError(OWNED_MSG.noSuch(kind.label, identifier));
}

/**
 * Before an add that makes the caller's item of that identifier public: refuses it (FAILED_PRECONDITION)
 * when it is not public yet and the account already publishes `limit` items of the kind. Inside the
 * add's transaction; the lock taken serializes the account's publications of the kind.
 */
export async function checkPublishing(m: EntityManager, kind: OwnedKind, account: string, identifier: string, visibility: VisibilityValue | undefined, limit: number): Promise<void> {
  if (visibility !== 'public') return;
  const own: { visibility: VisibilityValue }[] = await m.query(
    `SELECT visibility FROM taxonomy.${kind.table} WHERE account_id = $1 AND identifier = $2 FOR UPDATE`,
    [account, identifier],
  );
  if (own[0]?.visibility === 'public') return;
  await checkPublicLimit(m, `taxonomy.${kind.table}`, account, kind.label, limit);
}

/** SQL condition (on alias) for a visibility filter of a listing; $1 is the caller's account. */
export function visibleTo(alias: string, filter: VisibilityValue | undefined): string {
  const visible = `(${alias}.account_id = $1 OR ${alias}.visibility = 'public')`;
  return filter ? `${visible} AND ${alias}.visibility = '${filter === 'public' ? 'public' : 'private'}'` : visible;
}

/** Number of rows a DELETE / UPDATE touched (TypeORM answers [rows, count] for those on PostgreSQL). */
export function affected(result: unknown): number {
  return Array.isArray(result) && typeof result[1] === 'number' ? result[1] : 0;
}
