import type { EntityManager } from 'typeorm';
import { keysetOf, type ListingOrder, type PageToken } from '@green-impact/shared/paging';
import { openPii, requireKeyFitsSome, type StoredPii } from '../investors/investor-pii.js';

/** A position with what it refers to: its investor (PII as stored) and its asset. */
export interface PositionDetail {
  id: number;
  accountId: string;
  amount: number;
  currencyCode: string;
  days: number;
  /** YYYY-MM-DD or null (1 January of the reporting year in the formula). */
  startDate: string | null;
  createdAt: Date;
  investorId: number;
  investor: StoredPii;
  assetId: number;
  assetIdentifier: string;
  assetName: string;
  assetAccountId: string;
  issuerIdentifier: string;
  issuerName: string;
  frameworkId: number;
  frameworkIdentifier: string;
  assetCurrencyCode: string;
  assetValueOutstanding: number | null;
  assetDateIssued: string | null;
  assetDateMaturity: string | null;
  /** Years with stored impact records, ascending. */
  impactYears: number[];
}

export interface PositionView extends Omit<PositionDetail, 'investor'> {
  investorIdentifier: string;
  investorName: string;
  masked: boolean;
}

export interface PositionCriteria {
  ids?: number[];
  investorIdentifier?: string | undefined;
  assetIdentifier?: string | undefined;
  issuerIdentifier?: string | undefined;
  /** Only these investors (the spec's user_identifier filter, resolved by the gateway). */
  investorsAllowed?: string[] | undefined;
  /** Lock the position rows (FOR UPDATE OF p). */
  lock?: boolean;
  /** Keyset paging (keysetOf): the page's order, the token it starts after (or, backward, ends before). */
  page?: { order: ListingOrder; from: PageToken | undefined; backward: boolean };
  /** At most this many rows. */
  limit?: number;
}

interface RawPosition extends Omit<PositionDetail, 'investor'> {
  investorAccountId: string;
  investorIdentifier: string;
  investorName: string;
  investorEmail: string | null;
  keyFingerprint: string | null;
}

/** The account's positions matching the criteria, with investor and asset: one query. */
export async function selectPositions(m: EntityManager, accountId: string, criteria: PositionCriteria): Promise<PositionDetail[]> {
  const { where, params } = positionWhere(accountId, criteria);
  const keyset = criteria.page && keysetOf(criteria.page.order, criteria.page.from, params.length + 1, criteria.page.backward);
  if (keyset) params.push(...keyset.params);
  const limit = criteria.limit === undefined ? '' : ` LIMIT ${Math.trunc(criteria.limit)}`;
  const rows: RawPosition[] = await m.query(
    `SELECT p.id, p.account_id AS "accountId", p.amount, p.currency_code AS "currencyCode", p.days,
       to_char(p.start_date, 'YYYY-MM-DD') AS "startDate", p.created_at AS "createdAt",
       i.id AS "investorId", i.account_id AS "investorAccountId", i.investor_identifier AS "investorIdentifier",
       i.investor_name AS "investorName", i.investor_email AS "investorEmail", i.key_fingerprint AS "keyFingerprint",
       a.id AS "assetId", a.asset_identifier AS "assetIdentifier", a.asset_name AS "assetName", a.account_id AS "assetAccountId",
       a.issuer_identifier AS "issuerIdentifier", a.issuer_name AS "issuerName", a.framework_id AS "frameworkId",
       a.framework_identifier AS "frameworkIdentifier", a.currency_code AS "assetCurrencyCode",
       a.value_outstanding AS "assetValueOutstanding", to_char(a.date_issued, 'YYYY-MM-DD') AS "assetDateIssued",
       to_char(a.date_maturity, 'YYYY-MM-DD') AS "assetDateMaturity",
       ARRAY(SELECT c.reporting_year FROM portfolio.impact_computations c WHERE c.position_id = p.id ORDER BY 1) AS "impactYears"${keyset?.select ?? ''}
     FROM portfolio.positions p
     JOIN portfolio.investors i ON i.id = p.investor_id
     JOIN portfolio.assets a ON a.id = p.asset_id
     WHERE ${where.join(' AND ')}${keyset?.where ?? ''}
     ORDER BY ${keyset?.orderBy ?? 'p.id'}${limit}${criteria.lock ? ' FOR UPDATE OF p' : ''}`,
    params,
  );
  return rows.map(({ investorAccountId, investorIdentifier, investorName, investorEmail, keyFingerprint, ...rest }) => ({
    ...rest,
    investor: { accountId: investorAccountId, investorIdentifier, investorName, investorEmail, keyFingerprint },
  }));
}

/**
 * Across all pages of a paged listing (one aggregate, no rows read out): how many positions match, and
 * the key fingerprints of their investors (a decryption key must fit one of them, as for the whole list).
 */
export async function summarizePositions(m: EntityManager, accountId: string, criteria: PositionCriteria): Promise<{ count: number; fingerprints: Pick<StoredPii, 'keyFingerprint'>[] }> {
  const { where, params } = positionWhere(accountId, criteria);
  const [row]: { count: string | number; fingerprints: string[] | null }[] = await m.query(
    `SELECT count(*) AS count, array_agg(DISTINCT i.key_fingerprint) FILTER (WHERE i.key_fingerprint IS NOT NULL) AS fingerprints
     FROM portfolio.positions p
     JOIN portfolio.investors i ON i.id = p.investor_id
     JOIN portfolio.assets a ON a.id = p.asset_id
     WHERE ${where.join(' AND ')}`,
    params,
  );
  const fingerprints = (row?.fingerprints ?? []).map((keyFingerprint) => ({ keyFingerprint }));
  return { count: Number(row?.count ?? 0), fingerprints };
}

/** The filters of a listing, the same for its rows, its pages and its count. */
function positionWhere(accountId: string, criteria: PositionCriteria) {
  const where = ['p.account_id = $1'];
  const params: unknown[] = [accountId];
  const add = (sql: string, value: unknown) => {
    params.push(value);
    where.push(sql.replaceAll('?', `$${params.length}`));
  };
  if (criteria.ids) add('p.id = ANY(?)', criteria.ids);
  if (criteria.investorIdentifier) add('i.investor_identifier = ?', criteria.investorIdentifier);
  if (criteria.assetIdentifier) add('a.asset_identifier = ?', criteria.assetIdentifier);
  if (criteria.issuerIdentifier) add('a.issuer_identifier = ?', criteria.issuerIdentifier);
  if (criteria.investorsAllowed) add('i.investor_identifier = ANY(?)', criteria.investorsAllowed);
  return { where, params };
}

/**
 * Positions as listed: investor name in clear or masked (a key that opens none of them is an error;
 * keyChecked: a page, whose key was checked against the whole listing).
 */
export function positionViews(details: PositionDetail[], key: Buffer | undefined, keyChecked = false): PositionView[] {
  if (!keyChecked) requireKeyFitsSome(details.map((d) => d.investor), key);
  return details.map(({ investor, ...rest }) => {
    const pii = openPii(investor, key);
    return { ...rest, investorIdentifier: investor.investorIdentifier, investorName: pii.investorName, masked: pii.masked };
  });
}
