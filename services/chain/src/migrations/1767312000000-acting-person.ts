import type { MigrationInterface, QueryRunner } from 'typeorm';

const TABLES = ['jobs', 'documents', 'nft_sends'] as const;

/**
 * The person who acted (issue 30): when an OpenID Connect token authenticated the request, its subject and
 * issuer come in the caller token (`act`) and are kept with what the request created: jobs, documents and
 * NFT sends. Both or neither: an API-key request names no person.
 */
export class ActingPerson1767312000000 implements MigrationInterface {
  name = 'ActingPerson1767312000000';

  async up(q: QueryRunner): Promise<void> {
    for (const table of TABLES) {
      await q.query(
        `ALTER TABLE chain.${table} ADD COLUMN acted_by_subject varchar(255) NULL, ADD COLUMN acted_by_issuer varchar(1024) NULL,
           ADD CONSTRAINT ${table}_acted_by_both CHECK ((acted_by_subject IS NULL) = (acted_by_issuer IS NULL))`,
      );
    }
  }

  async down(q: QueryRunner): Promise<void> {
    for (const table of TABLES) {
      await q.query(`ALTER TABLE chain.${table} DROP CONSTRAINT ${table}_acted_by_both, DROP COLUMN acted_by_subject, DROP COLUMN acted_by_issuer`);
    }
  }
}
