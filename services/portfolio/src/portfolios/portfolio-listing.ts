import type { EntityManager } from 'typeorm';
import { keysetOf, type ListingOrder, type ListingOrders, type PageToken } from '@green-impact/shared/paging';
import { openPii, type StoredPii } from '../investors/investor-pii.js';

/**
 * The SQL of the portfolios listing (GetPortfolios), whole or a page: one WHERE for both, so a page shows
 * exactly the portfolios the whole list would, and the aggregate of a page counts the same set.
 */

export interface PortfolioView {
  id: number;
  portfolioIdentifier: string;
  investorIdentifier: string;
  investorName: string;
  masked: boolean;
  /** Distinct assets of the portfolio's positions, in the order of the positions. */
  assets: { assetIdentifier: string; assetName: string }[];
  positionIds: number[];
}

/** Validated criteria of a listing (the account's portfolios; pf and i are the portfolio and its investor). */
export interface PortfolioCriteria {
  investorIdentifier?: string | undefined;
  assetIdentifier?: string | undefined;
  investorsAllowed?: string[] | undefined;
}

/**
 * The orders a portfolio page can be read in (GraphQL PortfolioOrderField), each then by id. The investor
 * is ordered by its identifier, stored in clear (never by its name, which may be sealed).
 */
export const PORTFOLIO_ORDERS: ListingOrders = {
  id: { sql: 'pf.id', type: 'bigint' },
  columns: {
    identifier: { sql: 'pf.portfolio_identifier', type: 'text' },
    investor_identifier: { sql: 'i.investor_identifier', type: 'text' },
    created_at: { sql: 'pf.created_at', type: 'timestamptz' },
  },
};

type ListedRow = StoredPii & { id: number; portfolioIdentifier: string; members: { positionId: number; assetIdentifier: string; assetName: string }[] };

function listingWhere(accountId: string, c: PortfolioCriteria): { where: string; params: unknown[] } {
  const where = ['pf.account_id = $1'];
  const params: unknown[] = [accountId];
  const add = (sql: string, value: unknown) => {
    params.push(value);
    where.push(sql.replaceAll('?', `$${params.length}`));
  };
  if (c.investorIdentifier !== undefined) add('i.investor_identifier = ?', c.investorIdentifier);
  if (c.investorsAllowed) add('i.investor_identifier = ANY(?)', c.investorsAllowed);
  if (c.assetIdentifier !== undefined) {
    add(
      `EXISTS (SELECT 1 FROM portfolio.portfolio_positions pp2 JOIN portfolio.positions p2 ON p2.id = pp2.position_id
               JOIN portfolio.assets a2 ON a2.id = p2.asset_id WHERE pp2.portfolio_id = pf.id AND a2.asset_identifier = ?)`,
      c.assetIdentifier,
    );
  }
  return { where: where.join(' AND '), params };
}

/**
 * The listing's portfolios in id order; with page, in its order after its token (or, backward, right
 * before it: keysetOf); with limit, at most limit of them.
 */
export async function selectPortfolios(
  m: EntityManager,
  accountId: string,
  c: PortfolioCriteria,
  options: { page?: { order: ListingOrder; from: PageToken | undefined; backward: boolean }; limit?: number } = {},
): Promise<ListedRow[]> {
  const { where, params } = listingWhere(accountId, c);
  const keyset = options.page && keysetOf(options.page.order, options.page.from, params.length + 1, options.page.backward);
  if (keyset) params.push(...keyset.params);
  let limit = '';
  if (options.limit !== undefined) {
    params.push(options.limit);
    limit = ` LIMIT $${params.length}`;
  }
  return m.query(
    `SELECT pf.id, pf.portfolio_identifier AS "portfolioIdentifier", i.account_id AS "accountId",
       i.investor_identifier AS "investorIdentifier", i.investor_name AS "investorName", i.investor_email AS "investorEmail",
       i.key_fingerprint AS "keyFingerprint"${keyset?.select ?? ''},
       COALESCE(json_agg(json_build_object('positionId', p.id, 'assetIdentifier', a.asset_identifier, 'assetName', a.asset_name)
         ORDER BY p.id) FILTER (WHERE p.id IS NOT NULL), '[]'::json) AS members
     FROM portfolio.portfolios pf
     JOIN portfolio.investors i ON i.id = pf.investor_id
     LEFT JOIN portfolio.portfolio_positions pp ON pp.portfolio_id = pf.id
     LEFT JOIN portfolio.positions p ON p.id = pp.position_id
     LEFT JOIN portfolio.assets a ON a.id = p.asset_id
     WHERE ${where}${keyset?.where ?? ''}
     GROUP BY pf.id, i.id
     ORDER BY ${keyset?.orderBy ?? 'pf.id'}${limit}`,
    params,
  );
}

/**
 * One aggregate over the whole listing: how many portfolios match, and the key fingerprints of their
 * investors (a wrong decryption key is refused for the listing, not judged per page).
 */
export async function summarizePortfolios(m: EntityManager, accountId: string, c: PortfolioCriteria): Promise<{ count: number; fingerprints: { keyFingerprint: string }[] }> {
  const { where, params } = listingWhere(accountId, c);
  const [row]: { count: string | number; fingerprints: string[] | null }[] = await m.query(
    `SELECT count(*) AS count, array_agg(DISTINCT i.key_fingerprint) FILTER (WHERE i.key_fingerprint IS NOT NULL) AS fingerprints
     FROM portfolio.portfolios pf JOIN portfolio.investors i ON i.id = pf.investor_id WHERE ${where}`,
    params,
  );
  return { count: Number(row?.count ?? 0), fingerprints: (row?.fingerprints ?? []).map((keyFingerprint) => ({ keyFingerprint })) };
}

export function portfolioViews(rows: readonly ListedRow[], key: Buffer | undefined): PortfolioView[] {
  return rows.map((r) => {
    const pii = openPii(r, key);
    const assets = new Map<string, string>();
    for (const member of r.members) if (!assets.has(member.assetIdentifier)) assets.set(member.assetIdentifier, member.assetName);
    return {
      id: r.id,
      portfolioIdentifier: r.portfolioIdentifier,
      investorIdentifier: r.investorIdentifier,
      investorName: pii.investorName,
      masked: pii.masked,
      assets: [...assets].map(([assetIdentifier, assetName]) => ({ assetIdentifier, assetName })),
      positionIds: r.members.map((member) => member.positionId),
    };
  });
}
