import type { MigrationInterface, QueryRunner } from 'typeorm';

/** The spec's seven groups (§2.8), with stable ids in the order the spec lists them. */
export const GROUPS = ['bankers', 'investors', 'capitalists', 'issuers', 'agents', 'exchanges', 'regulators'] as const;

export class InitIdentity1763769600000 implements MigrationInterface {
  name = 'InitIdentity1763769600000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE identity.accounts (
        id uuid PRIMARY KEY,
        name varchar(255) NOT NULL,
        role varchar(16) NOT NULL CHECK (role IN ('operator', 'user')),
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`
      CREATE TABLE identity.api_keys (
        id uuid PRIMARY KEY,
        account_id uuid NOT NULL REFERENCES identity.accounts(id) ON DELETE CASCADE,
        key_hash char(64) NOT NULL UNIQUE,
        hint varchar(8) NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        revoked_at timestamptz,
        last_used_at timestamptz
      )`);
    await q.query(`CREATE INDEX api_keys_account_idx ON identity.api_keys (account_id)`);
    await q.query(`
      CREATE TABLE identity.groups (
        id int PRIMARY KEY,
        name varchar(64) NOT NULL UNIQUE
      )`);
    for (const [i, name] of GROUPS.entries()) {
      await q.query(`INSERT INTO identity.groups (id, name) VALUES ($1, $2)`, [i + 1, name]);
    }
    await q.query(`
      CREATE TABLE identity.users (
        id serial PRIMARY KEY,
        account_id uuid NOT NULL REFERENCES identity.accounts(id) ON DELETE CASCADE,
        user_identifier varchar(255) NOT NULL,
        first_name text,
        last_name text,
        email text,
        role varchar(8) NOT NULL CHECK (role IN ('user', 'admin')),
        key_fingerprint char(64),
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT users_account_identifier_uq UNIQUE (account_id, user_identifier)
      )`);
    await q.query(`
      CREATE TABLE identity.user_groups (
        user_id int NOT NULL REFERENCES identity.users(id) ON DELETE CASCADE,
        group_id int NOT NULL REFERENCES identity.groups(id),
        PRIMARY KEY (user_id, group_id)
      )`);
    await q.query(`
      CREATE TABLE identity.user_investors (
        id serial PRIMARY KEY,
        user_id int NOT NULL REFERENCES identity.users(id) ON DELETE CASCADE,
        investor_identifier varchar(255) NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT user_investors_uq UNIQUE (user_id, investor_identifier)
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE identity.user_investors`);
    await q.query(`DROP TABLE identity.user_groups`);
    await q.query(`DROP TABLE identity.users`);
    await q.query(`DROP TABLE identity.groups`);
    await q.query(`DROP TABLE identity.api_keys`);
    await q.query(`DROP TABLE identity.accounts`);
  }
}
