import type { DataSource } from 'typeorm';
import type { Caller } from '@green-impact/shared/caller';
import { NotFoundError } from '@green-impact/shared/errors';
import { parseStoreCid, type ContentStore, type ReadContent } from './content-store.js';

/** Content a caller may read, and whether anyone may. */
export interface AccessibleContent extends ReadContent {
  public: boolean;
}

/**
 * Who may read a CID of the content-addressed store (docs/decisions.md "Documents and links"). CIDs are
 * public on the chain (the registry's logs, readable through /rpc), so the CID is no secret and the
 * rule is decided by what the content is:
 * - anyone: a document written `public` (a public framework's) and the NFT files (metadata JSON, image,
 *   certificates) — wallets and marketplaces fetch those without credentials, and the token is public;
 * - the writing account only: every other document (private frameworks, every position-impacts document);
 * - nobody: bytes the store holds that no row names (a write that failed after storing its content).
 * Whoever may not read it gets exactly the answer of an unknown CID.
 */
export class ContentAccess {
  constructor(
    private readonly ds: DataSource,
    private readonly content: ContentStore,
  ) {}

  /** 'public', 'account' (the caller's account wrote it), or undefined: not the caller's to read. */
  async access(cid: string, caller: Caller | undefined): Promise<'public' | 'account' | undefined> {
    const rows: { public: boolean }[] = await this.ds.query(
      `SELECT public FROM chain.documents WHERE cid = $1 AND (public OR account_id = $2::uuid)
       UNION ALL
       SELECT true FROM chain.nfts WHERE metadata_cid = $1 OR image_cid = $1 OR certificate_pdf_cid = $1 OR certificate_jpg_cid = $1
       ORDER BY 1 DESC LIMIT 1`,
      [cid, caller?.accountId ?? null],
    );
    if (!rows[0]) return undefined;
    return rows[0].public ? 'public' : 'account';
  }

  /** The content when the caller may read it; undefined when it may not or it is not stored. */
  async read(cidText: string, caller: Caller | undefined): Promise<AccessibleContent | undefined> {
    const cid = parseStoreCid(cidText);
    // Not one of this store's CIDs: the store says so (INVALID_ARGUMENT), which reveals nothing.
    if (!cid) return this.content.get(cidText).then(() => undefined);
    const access = await this.access(cid.toString(), caller);
    if (!access) return undefined;
    const found = await this.content.get(cid.toString());
    return found && { ...found, public: access === 'public' };
  }

  /** The content, or NOT_FOUND with the same words whether it is absent or not the caller's to read. */
  async get(cidText: string, caller: Caller | undefined): Promise<AccessibleContent> {
    const found = await this.read(cidText, caller);
    if (!found) throw new NotFoundError(`No content with CID ${cidText.trim()}.`);
    return found;
  }
}
