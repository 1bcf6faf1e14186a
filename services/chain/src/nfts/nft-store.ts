import { In, type DataSource, type EntityManager } from 'typeorm';
import type { Caller } from '@green-impact/shared/caller';
import { FailedPreconditionError, InvalidArgumentError, NotFoundError } from '@green-impact/shared/errors';
import {
  decodeTextBeforeToken,
  decodeTextPageToken,
  END_OF_LIST_ID,
  orderOf,
  pageBeforeOf,
  pageOf,
  pageSize,
  type ListingOrders,
  type PageRequest,
} from '@green-impact/shared/paging';
import { keysetPage } from '../keyset-query.js';
import { effectiveStatus, NftEntity, NftSendEntity, type NftRow, type NftSendRow } from './nft-entities.js';
import { validTokenId } from './nft-rules.js';

/** Without a range, list answers the last this many NFTs (spec §8). */
export const LIST_DEFAULT = 20;
/** A range answers at most this many, newest first. */
export const LIST_MAX = 1_000;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** A guid as the database answers it (lowercase): the key of the NFTs' page tokens. */
const GUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

export type NftRange = { from?: Date; to?: Date };

/**
 * The orders an NFT page can be read in (GraphQL NftOrderField), each then by guid. The default stays
 * the list's newest first (created_at, then guid, descending), with its tokens of a guid only. NFTs not
 * minted yet (no token id, no minting time) sort as PostgreSQL puts NULLs: last going up, first going down.
 */
export const NFT_ORDERS: ListingOrders = {
  id: { sql: 'n.guid', type: 'uuid' },
  columns: {
    created_at: { sql: 'n.created_at', type: 'timestamptz' },
    minted_at: { sql: "COALESCE(n.minted_at, 'infinity'::timestamptz)", type: 'timestamptz' },
    token_id: { sql: "COALESCE(n.token_id, 'Infinity'::numeric)", type: 'numeric' },
    network: { sql: 'n.network', type: 'text' },
  },
  default: { field: 'created_at', descending: true },
  from: 'chain.nfts n',
  owner: 'n.account_id',
};

/** Reads of NFTs and sends, and the availability rule every transfer and send checks. */
export class NftStore {
  constructor(private readonly ds: DataSource) {}

  async byGuid(guid: string, m: EntityManager = this.ds.manager): Promise<NftRow | null> {
    const text = guid.trim().toLowerCase();
    if (!UUID.test(text)) return null;
    return m.getRepository(NftEntity).findOneBy({ guid: text });
  }

  /** For the worker: NFTs that must exist, in the order of `guids`, read in one query. */
  async loadMany(guids: string[]): Promise<NftRow[]> {
    const rows = await this.ds.getRepository(NftEntity).findBy({ guid: In(guids.map((g) => g.toLowerCase())) });
    const byGuid = new Map(rows.map((r) => [r.guid, r]));
    return guids.map((guid) => {
      const row = byGuid.get(guid.toLowerCase());
      if (!row) throw new Error(`NFT ${guid} is not in the database`);
      return row;
    });
  }

  /**
   * An NFT of the caller's account by token id on a network (alias resolved), or by guid; NOT_FOUND
   * otherwise, the same for another account's NFT as for none (NFTs are private to their account).
   */
  async owned(caller: Caller, network: { name: string; chainNetwork: string; contract: string | undefined }, nftId: string): Promise<NftRow> {
    const { chainNetwork } = network;
    const text = nftId.trim();
    let row: NftRow | null;
    if (UUID.test(text)) {
      row = await this.byGuid(text);
      if (row && row.chainNetwork !== chainNetwork) row = null;
    } else {
      const tokenId = validTokenId(text);
      row = network.contract ? await this.ds.getRepository(NftEntity).findOneBy({ chainNetwork, contractAddress: network.contract, tokenId }) : null;
    }
    if (!row || row.accountId !== caller.accountId || row.status === 'failed') {
      throw new NotFoundError(`No NFT ${text} on network ${network.name} in your account.`);
    }
    return row;
  }

  /** The caller's NFTs created in [from, to] (ms, inclusive), newest first; the last LIST_DEFAULT without a range. */
  async list(caller: Caller, range: NftRange | undefined, chainNetwork: string | undefined): Promise<NftRow[]> {
    return this.listed(caller, range, chainNetwork)
      .orderBy('n.created_at', 'DESC')
      .addOrderBy('n.guid', 'DESC')
      .take(range ? LIST_MAX : LIST_DEFAULT)
      .getMany();
  }

  /**
   * One page of the NFTs list's filters in the asked order (NFT_ORDERS; default the list's, newest first)
   * but without its caps: keyset after the token's NFT or right before page_before's (LIMIT size + 1
   * rows), with the number of matching NFTs from one COUNT. A default token's NFT is compared in SQL, so
   * its microseconds count; a token's NFT must be one of the caller's account (a failed mint since stays
   * a valid place to resume after).
   */
  async page(
    caller: Caller,
    range: NftRange | undefined,
    chainNetwork: string | undefined,
    page: PageRequest & { before?: string | undefined; order?: { field: string; descending: boolean } | undefined },
  ): Promise<{ rows: NftRow[]; nextPageToken: string; totalCount: number; hasPreviousPage: boolean; itemPageTokens: string[] }> {
    const size = pageSize(page.size);
    const order = orderOf(NFT_ORDERS, page.order);
    const before = decodeTextBeforeToken(page.token, page.before, GUID);
    const after = decodeTextPageToken(page.token, GUID);
    const token = before ?? after;
    if (token && !(before && Number(before.id) === END_OF_LIST_ID)) {
      const known: unknown[] = await this.ds.query(`SELECT 1 FROM chain.nfts WHERE guid = $1 AND account_id = $2`, [token.id, caller.accountId]);
      const field = before ? 'page_before' : 'page_token';
      if (known.length === 0) throw new InvalidArgumentError(`${field} must be a next_page_token of this listing.`, { field });
    }
    const totalCount = await this.listed(caller, range, chainNetwork).getCount();
    const rows = await keysetPage(this.listed(caller, range, chainNetwork), order, token, size, before !== undefined, caller.accountId);
    if (before) {
      const { items, nextPageToken, hasPreviousPage, itemPageTokens } = pageBeforeOf(rows, size, before, (r) => r.guid, order, totalCount);
      return { rows: items, nextPageToken, totalCount, hasPreviousPage, itemPageTokens };
    }
    const { items, nextPageToken, itemPageTokens } = pageOf(rows, size, after, (r) => r.guid, order);
    return { rows: items, nextPageToken, totalCount, hasPreviousPage: after !== undefined, itemPageTokens };
  }

  /** The account's listed NFTs (failed mints are not NFTs) narrowed by network and creation time. */
  private listed(caller: Caller, range: NftRange | undefined, chainNetwork: string | undefined) {
    const q = this.ds
      .getRepository(NftEntity)
      .createQueryBuilder('n')
      .where('n.account_id = :account', { account: caller.accountId })
      .andWhere(`n.status <> 'failed'`);
    if (chainNetwork) q.andWhere('n.chain_network = :network', { network: chainNetwork });
    if (range?.from) q.andWhere('n.created_at >= :from', { from: range.from });
    // Stored times have microseconds: the last millisecond of the range is included whole.
    if (range?.to) q.andWhere('n.created_at < :to', { to: new Date(range.to.getTime() + 1) });
    return q;
  }

  /** The NFT locked for a change (inside the change's transaction). */
  async lock(m: EntityManager, guid: string): Promise<NftRow> {
    return m.getRepository(NftEntity).findOneOrFail({ where: { guid }, lock: { mode: 'pessimistic_write' } });
  }

  async sendByCodeHash(which: 'owner' | 'receiver', hash: string, m: EntityManager = this.ds.manager, lock = false): Promise<NftSendRow | null> {
    return m.getRepository(NftSendEntity).findOne({
      where: which === 'owner' ? { ownerCodeHash: hash } : { receiverCodeHash: hash },
      ...(lock ? { lock: { mode: 'pessimistic_write' as const } } : {}),
    });
  }
}

/**
 * An NFT can be transferred or sent while the custody wallet holds it and nothing else is under way:
 * created, or e-mailed with an expired send. Otherwise the reason, as a sentence.
 */
export function requireAvailable(row: NftRow, now = new Date()): void {
  const id = row.tokenId ?? row.guid;
  switch (effectiveStatus(row, now)) {
    case 'created':
      return;
    case 'minting':
      throw new FailedPreconditionError(`NFT ${row.guid} is still being minted; try again once its mint job (${row.mintJobId}) completed.`);
    case 'transferring':
      throw new FailedPreconditionError(`NFT ${id} is being transferred (job ${row.transferJobId}).`);
    case 'transferred':
      throw new FailedPreconditionError(`NFT ${id} was already transferred to ${row.transferredTo}; the service no longer holds it.`);
    case 'emailed':
      throw new FailedPreconditionError(`NFT ${id} was sent by e-mail and waits to be claimed; revoke the send with its owner code first.`);
    case 'failed':
      throw new InvalidArgumentError(`NFT ${row.guid} was never minted.`);
  }
}
