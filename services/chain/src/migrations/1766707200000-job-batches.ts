import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Several jobs carried by one transaction. A batch is a job of its own (kind `document_batch`, the
 * service's account): it has the nonce, the signed transactions, the receipt, and goes through the
 * sender and tracker like any job. Its member jobs point at it (`batch_job_id`) and keep their own id,
 * status and outcome; `proof` holds a member's Merkle proof, written when the batch is formed.
 */
export class JobBatches1766707200000 implements MigrationInterface {
  name = 'JobBatches1766707200000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE chain.jobs ADD COLUMN batch_job_id uuid NULL, ADD COLUMN proof jsonb NULL`);
    await q.query(`CREATE INDEX jobs_batch_job_id ON chain.jobs (batch_job_id) WHERE batch_job_id IS NOT NULL`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX chain.jobs_batch_job_id`);
    await q.query(`ALTER TABLE chain.jobs DROP COLUMN batch_job_id, DROP COLUMN proof`);
  }
}
