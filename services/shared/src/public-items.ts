import { FailedPreconditionError } from './errors.js';

/**
 * Rules for the items accounts may publish (frameworks and projects in taxonomy, assets in portfolio):
 * which one a reference by identifier means, and how many an account may publish. One place, so both
 * services answer alike (docs/decisions.md, "Public identifiers").
 */

/** Kinds of item an account may publish, as messages name them. */
export type PublicKind = 'framework' | 'project' | 'asset';

/**
 * Rows a store must read to resolve a reference: `LIMIT` this many, ordered own first
 * (`ORDER BY (account_id = caller) DESC, id`). Identifiers are unique per account, so two rows of which
 * the first is not the caller's are two accounts publishing the identifier.
 */
export const REFERENCE_CANDIDATES = 2;

const quoted = (identifier: string) => `"${identifier.length > 60 ? `${identifier.slice(0, 59)}…` : identifier}"`;

/**
 * The item a reference by identifier means, from the candidates (the caller's own item or public ones,
 * own first, at most REFERENCE_CANDIDATES): the caller's own; else the one public item when exactly one
 * account publishes the identifier; undefined when none does. When several accounts publish it and the
 * caller has none, no stranger's item is picked: FAILED_PRECONDITION naming the way out, so that whoever
 * published an identifier first (perhaps not its real issuer) cannot capture the references of others.
 */
export function resolveReference<T extends { accountId: string }>(
  candidates: readonly T[],
  account: string,
  kind: PublicKind,
  identifier: string,
): T | undefined {
  const [first, second] = candidates;
  if (!first || first.accountId === account) return first;
  if (second) throw new FailedPreconditionError(ambiguousMessage(kind, identifier));
  return first;
}

export function ambiguousMessage(kind: PublicKind, identifier: string): string {
  return (
    `Several accounts publish ${kind} ${quoted(identifier)}, so it is not clear which one you mean; ` +
    `add your own ${kind} ${quoted(identifier)} to use it.`
  );
}

/**
 * The account already publishes `limit` items of the kind. FAILED_PRECONDITION (HTTP 400), not
 * RESOURCE_EXHAUSTED (429): retrying cannot help until the account changes its items, which is gRPC's
 * rule for choosing FAILED_PRECONDITION, and a 429 invites clients to retry.
 */
export function publicLimitError(kind: PublicKind, limit: number): FailedPreconditionError {
  return new FailedPreconditionError(
    `This account already publishes ${limit} ${kind}s, the most one account may; make one private or remove one before publishing another.`,
  );
}

/** What checkPublicLimit needs of a transaction: a query (TypeORM's EntityManager has it). */
export interface Queryable {
  query(sql: string, params?: unknown[]): Promise<unknown>;
}

/**
 * Refuses publishing one more item of the kind when the account already holds `limit` public ones. Call
 * it inside the transaction that makes the item public, only when it was not public before: it takes a
 * transaction-scoped advisory lock per (table, account), so two concurrent publications of one account
 * count one after the other and cannot both pass at limit - 1. `table` is a trusted, schema-qualified name.
 */
export async function checkPublicLimit(m: Queryable, table: string, account: string, kind: PublicKind, limit: number): Promise<void> {
  await m.query(`SELECT pg_advisory_xact_lock(hashtext($1))`, [`public-items:${table}:${account}`]);
  const rows = (await m.query(`SELECT count(*) AS count FROM ${table} WHERE account_id = $1 AND visibility = 'public'`, [account])) as {
    count: string | number;
  }[];
  if (Number(rows[0]?.count ?? 0) >= limit) throw publicLimitError(kind, limit);
}
