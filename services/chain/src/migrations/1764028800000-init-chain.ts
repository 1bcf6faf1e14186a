import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Tables of the chain schema: jobs (one row per asynchronous chain job, its transactions and outcome),
 * documents (the entry ids of anchored report documents), signer_nonces (the next nonce per chain and
 * signer, kept beside the chain's own count) and the transactional outbox the relay publishes to Kafka.
 *
 * A chain instance is `chain:<chain id>` for a real network and `embedded:<name>` for an embedded one
 * (whose history the service replays at every start): nonces are unique per instance and signer.
 */
export class InitChain1764028800000 implements MigrationInterface {
  name = 'InitChain1764028800000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE chain.jobs (
        id uuid PRIMARY KEY,
        seq bigint GENERATED ALWAYS AS IDENTITY UNIQUE,
        account_id uuid NOT NULL,
        kind varchar(32) NOT NULL,
        document_kind varchar(40),
        network varchar(64) NOT NULL,
        chain_network varchar(64) NOT NULL,
        chain_instance varchar(80),
        status varchar(16) NOT NULL CHECK (status IN ('queued', 'submitted', 'completed', 'failed')),
        request jsonb NOT NULL DEFAULT '{}',
        payload jsonb NOT NULL,
        request_hash char(64) NOT NULL,
        idempotency_key varchar(255),
        signer varchar(42),
        nonce bigint,
        tx_hash varchar(66),
        transactions jsonb NOT NULL DEFAULT '[]',
        block_number bigint,
        receipt jsonb,
        gas_used bigint,
        gas_price numeric(78, 0),
        network_cost double precision,
        network_fee double precision,
        network_total double precision,
        result jsonb,
        outcome jsonb,
        error text,
        attempts int NOT NULL DEFAULT 0,
        framework_identifier varchar(255),
        position_id bigint,
        investor_identifier varchar(255),
        reporting_year int,
        language_code varchar(16),
        kv_key varchar(128),
        lease_owner varchar(64),
        lease_until timestamptz,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        submitted_at timestamptz,
        last_sent_at timestamptz,
        completed_at timestamptz
      )`);
    await q.query(`CREATE UNIQUE INDEX jobs_idempotency_uq ON chain.jobs (account_id, idempotency_key) WHERE idempotency_key IS NOT NULL`);
    // One transaction per nonce and signer, ever: a second job can never be given a nonce already used.
    await q.query(`CREATE UNIQUE INDEX jobs_nonce_uq ON chain.jobs (chain_instance, signer, nonce) WHERE nonce IS NOT NULL`);
    await q.query(`CREATE INDEX jobs_account_seq_ix ON chain.jobs (account_id, seq DESC)`);
    await q.query(`CREATE INDEX jobs_submitted_ix ON chain.jobs (chain_network, seq) WHERE status = 'submitted'`);

    await q.query(`
      CREATE TABLE chain.documents (
        id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        job_id uuid NOT NULL UNIQUE REFERENCES chain.jobs(id),
        account_id uuid NOT NULL,
        kind varchar(40) NOT NULL,
        cid varchar(128) NOT NULL,
        sha256 char(64) NOT NULL,
        content_type varchar(255) NOT NULL,
        size bigint NOT NULL,
        framework_identifier varchar(255),
        investor_identifier varchar(255),
        position_id bigint,
        reporting_year int,
        language_code varchar(16),
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE INDEX documents_framework_ix ON chain.documents (account_id, framework_identifier, id)`);
    await q.query(`CREATE INDEX documents_position_ix ON chain.documents (account_id, investor_identifier, position_id, id)`);

    await q.query(`
      CREATE TABLE chain.signer_nonces (
        chain_instance varchar(80) NOT NULL,
        signer varchar(42) NOT NULL,
        next_nonce bigint NOT NULL,
        updated_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (chain_instance, signer)
      )`);

    await q.query(`
      CREATE TABLE chain.outbox (
        id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        topic varchar(128) NOT NULL,
        message_key varchar(255),
        payload jsonb NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    for (const t of ['outbox', 'signer_nonces', 'documents', 'jobs']) await q.query(`DROP TABLE chain.${t}`);
  }
}
