import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Access to stored documents follows the data's visibility (docs/decisions.md "Documents and links"):
 * a document is served by CID to anyone only when written `public` (a public framework's); every other
 * one only to its account or through a signed link, and `link_epoch` is what revokes those links.
 * Documents written before this migration become private: the safe side. The CID indexes answer
 * "who may read this CID" in one indexed look-up per /ipfs request.
 */
export class DocumentAccess1766534400000 implements MigrationInterface {
  name = 'DocumentAccess1766534400000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE chain.documents ADD COLUMN public boolean NOT NULL DEFAULT false`);
    await q.query(`ALTER TABLE chain.documents ADD COLUMN link_epoch integer NOT NULL DEFAULT 0`);
    await q.query(`CREATE INDEX documents_cid_ix ON chain.documents (cid)`);
    await q.query(`CREATE INDEX nfts_metadata_cid_ix ON chain.nfts (metadata_cid)`);
    await q.query(`CREATE INDEX nfts_image_cid_ix ON chain.nfts (image_cid)`);
    await q.query(`CREATE INDEX nfts_certificate_pdf_cid_ix ON chain.nfts (certificate_pdf_cid) WHERE certificate_pdf_cid IS NOT NULL`);
    await q.query(`CREATE INDEX nfts_certificate_jpg_cid_ix ON chain.nfts (certificate_jpg_cid) WHERE certificate_jpg_cid IS NOT NULL`);
  }

  async down(q: QueryRunner): Promise<void> {
    for (const ix of ['nfts_certificate_jpg_cid_ix', 'nfts_certificate_pdf_cid_ix', 'nfts_image_cid_ix', 'nfts_metadata_cid_ix', 'documents_cid_ix']) {
      await q.query(`DROP INDEX chain.${ix}`);
    }
    await q.query(`ALTER TABLE chain.documents DROP COLUMN link_epoch`);
    await q.query(`ALTER TABLE chain.documents DROP COLUMN public`);
  }
}
