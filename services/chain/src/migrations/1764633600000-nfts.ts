import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * NFTs (spec §4.13): one row per NFT (minted to the service's custody wallet, owned by an account) and
 * one row per e-mailed send with its two single-use codes, stored as SHA-256 hashes only.
 *
 * `status` is the NFT's own state; the jobs that move it (mint, transfer, claim) update it in the same
 * transaction as their own status change. `send_expires_at` repeats the open send's expiry so that a
 * read can tell an expired send (shown as created again) without a join.
 */
export class Nfts1764633600000 implements MigrationInterface {
  name = 'Nfts1764633600000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE chain.nfts (
        guid uuid PRIMARY KEY,
        account_id uuid NOT NULL,
        network varchar(64) NOT NULL,
        chain_network varchar(64) NOT NULL,
        status varchar(16) NOT NULL
          CHECK (status IN ('minting', 'created', 'transferring', 'transferred', 'emailed', 'failed')),
        token_id numeric(78, 0),
        contract_address varchar(42),
        metadata jsonb NOT NULL,
        metadata_cid varchar(128) NOT NULL,
        image_cid varchar(128) NOT NULL,
        image_source text NOT NULL,
        mint_job_id uuid NOT NULL UNIQUE REFERENCES chain.jobs(id),
        mint_tx_hash varchar(66),
        transfer_job_id uuid REFERENCES chain.jobs(id),
        owner_address varchar(42),
        transferred_to varchar(320),
        send_expires_at timestamptz,
        certificate_pdf_cid varchar(128),
        certificate_jpg_cid varchar(128),
        error text,
        created_at timestamptz NOT NULL DEFAULT now(),
        minted_at timestamptz,
        status_changed_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE INDEX nfts_account_created_ix ON chain.nfts (account_id, created_at DESC)`);
    await q.query(`CREATE UNIQUE INDEX nfts_token_uq ON chain.nfts (chain_network, contract_address, token_id) WHERE token_id IS NOT NULL`);

    await q.query(`
      CREATE TABLE chain.nft_sends (
        id uuid PRIMARY KEY,
        nft_guid uuid NOT NULL REFERENCES chain.nfts(guid),
        email varchar(320) NOT NULL,
        owner_code_hash char(64) NOT NULL UNIQUE,
        receiver_code_hash char(64) NOT NULL UNIQUE,
        expires_at timestamptz NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        claimed_at timestamptz,
        claim_address varchar(42),
        claim_job_id uuid REFERENCES chain.jobs(id),
        revoked_at timestamptz
      )`);
    // At most one open send per NFT.
    await q.query(`CREATE UNIQUE INDEX nft_sends_open_uq ON chain.nft_sends (nft_guid) WHERE claimed_at IS NULL AND revoked_at IS NULL`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE chain.nft_sends`);
    await q.query(`DROP TABLE chain.nfts`);
  }
}
