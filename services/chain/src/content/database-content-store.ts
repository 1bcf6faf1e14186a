import { createHash } from 'node:crypto';
import type { DataSource } from 'typeorm';
import { cidOf, requireStoreCid, type ContentStore, type ReadContent, type StoredContent } from './content-store.js';

/**
 * Content in the chain schema's own table (chain.content), so every replica reads what any replica wrote
 * without a shared volume (ReadWriteMany is what common storage classes do not offer). Writes are
 * idempotent (the CID is the key). `fallback` answers reads of content written before the switch from the
 * folder store (CONTENT_DIR), so nothing stored earlier goes missing.
 */
export class DatabaseContentStore implements ContentStore {
  constructor(
    private readonly ds: DataSource,
    private readonly fallback?: Pick<ContentStore, 'get'>,
  ) {}

  async init(): Promise<void> {
    // The table comes with the chain schema's migrations.
  }

  async put(content: Uint8Array, contentType: string): Promise<StoredContent> {
    const { cid, sha256 } = cidOf(content);
    await this.ds.query(
      `INSERT INTO chain.content (cid, content, content_type, size) VALUES ($1, $2, $3, $4) ON CONFLICT (cid) DO NOTHING`,
      [cid, Buffer.from(content.buffer, content.byteOffset, content.byteLength), contentType, content.byteLength],
    );
    return { cid, sha256, size: content.byteLength, contentType };
  }

  async get(cidText: string): Promise<ReadContent | undefined> {
    const cid = requireStoreCid(cidText);
    const [row] = (await this.ds.query(`SELECT content, content_type FROM chain.content WHERE cid = $1`, [cid])) as {
      content: Uint8Array;
      content_type: string;
    }[];
    if (!row) return this.fallback?.get(cid);
    const content = Buffer.from(row.content.buffer, row.content.byteOffset, row.content.byteLength);
    // What was read, hashed: callers that need integrity compare it with the CID (see documents).
    const sha256 = createHash('sha256').update(content).digest('hex');
    return { cid, sha256, size: content.byteLength, contentType: row.content_type, content };
  }
}
