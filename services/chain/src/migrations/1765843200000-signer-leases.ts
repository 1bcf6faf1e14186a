import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Pipelined sending: one worker at a time holds a signer's lease (who may assign its nonces and broadcast,
 * so replicas never interleave one nonce sequence), and the sender reads the queue straight from the table
 * in job order per network.
 */
export class SignerLeases1765843200000 implements MigrationInterface {
  name = 'SignerLeases1765843200000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE chain.signer_nonces ADD COLUMN lease_owner varchar(80), ADD COLUMN lease_until timestamptz`);
    await q.query(`CREATE INDEX jobs_queued_network_ix ON chain.jobs (chain_network, seq) WHERE status = 'queued'`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX chain.jobs_queued_network_ix`);
    await q.query(`ALTER TABLE chain.signer_nonces DROP COLUMN lease_owner, DROP COLUMN lease_until`);
  }
}
