import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The person who asked for a recompute (issue 30): an OpenID Connect token's subject and issuer, from the
 * caller token; both null for an API-key request or a recompute the service queued itself.
 */
export class RecomputeActingPerson1767312000000 implements MigrationInterface {
  name = 'RecomputeActingPerson1767312000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(
      `ALTER TABLE portfolio.recompute_jobs ADD COLUMN acted_by_subject varchar(255) NULL, ADD COLUMN acted_by_issuer varchar(1024) NULL,
         ADD CONSTRAINT recompute_jobs_acted_by_both CHECK ((acted_by_subject IS NULL) = (acted_by_issuer IS NULL))`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE portfolio.recompute_jobs DROP CONSTRAINT recompute_jobs_acted_by_both, DROP COLUMN acted_by_subject, DROP COLUMN acted_by_issuer`);
  }
}
