import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Content in the database (CONTENT_STORE=database, the default outside the embedded system): report
 * documents, NFT metadata, images and certificates by CID, readable by every replica without a shared
 * volume.
 */
export class ContentTable1766620800000 implements MigrationInterface {
  name = 'ContentTable1766620800000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE chain.content (
        cid varchar(100) PRIMARY KEY,
        content bytea NOT NULL,
        content_type varchar(255) NOT NULL,
        size integer NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE chain.content`);
  }
}
