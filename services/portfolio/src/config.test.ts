import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ConfigError, envReader } from '@green-impact/shared/config';
import { loadPortfolioConfig } from './config.js';

const base = { DATABASE_URL: 'postgres://portfolio@db:5432/green_impact', TAXONOMY_GRPC_ADDR: 'taxonomy:50052' };

test('the portfolio process reads its database, the taxonomy address, the recomputation timings and batch size, and refuses a bad one by name', () => {
  assert.deepEqual(loadPortfolioConfig(envReader(base)), {
    databaseUrl: base.DATABASE_URL,
    poolSize: 10,
    migrate: 'apply',
    taxonomyAddress: 'taxonomy:50052',
    recompute: { leaseMs: 30_000, pollMs: 5_000, batchSize: 1_000 },
    limits: { maxListItems: 2_000, maxPublicItemsPerAccount: 1_000 },
  });
  const refused = (env: Record<string, string>, message: RegExp) =>
    assert.throws(() => loadPortfolioConfig(envReader(env)), (err: unknown) => err instanceof ConfigError && message.test(err.message));
  refused({ DATABASE_URL: base.DATABASE_URL }, /^TAXONOMY_GRPC_ADDR is required/);
  refused({ ...base, RECOMPUTE_JOB_POLL_MS: '10' }, /^RECOMPUTE_JOB_POLL_MS must be at least 100, got 10\./);
  refused({ ...base, RECOMPUTE_BATCH: '0' }, /^RECOMPUTE_BATCH must be at least 1, got 0\./);
  assert.equal(loadPortfolioConfig(envReader({ ...base, RECOMPUTE_BATCH: '50' })).recompute.batchSize, 50);
  refused({ ...base, MAX_LIST_ITEMS: 'many' }, /^MAX_LIST_ITEMS must be an integer/);
  assert.equal(loadPortfolioConfig(envReader({ ...base, MIGRATIONS: 'check' })).migrate, 'check');
  refused({ ...base, MIGRATIONS: 'later' }, /^MIGRATIONS must be one of apply, check, allow-newer/);
});
