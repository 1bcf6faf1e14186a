import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ConfigError, envReader } from '@green-impact/shared/config';
import { loadIdentityConfig } from './config.js';

const DATABASE_URL = 'postgres://identity@db:5432/green_impact';

test('BOOTSTRAP_API_KEY: a weak key is refused at start, naming the variable; a random one or none is taken', () => {
  const key = 'gi_YGJMLCNJE696XRCVzDIM0vNKyfbR3CyO_CuW2s4x030'; // random, made once for this test
  const { limits: _limits, ...config } = loadIdentityConfig(envReader({ DATABASE_URL, BOOTSTRAP_API_KEY: key }));
  assert.deepEqual(config, { databaseUrl: DATABASE_URL, bootstrapApiKey: key, poolSize: 10, migrate: 'apply', maxApiKeysPerAccount: 20 });
  assert.equal(loadIdentityConfig(envReader({ DATABASE_URL })).bootstrapApiKey, undefined);
  for (const weak of ['k', 'dev-operator-key-not-for-production', 'gi_' + 'a'.repeat(43)]) {
    assert.throws(() => loadIdentityConfig(envReader({ DATABASE_URL, BOOTSTRAP_API_KEY: weak })), (err: unknown) =>
      err instanceof ConfigError && /^BOOTSTRAP_API_KEY is too weak: /.test(err.message));
  }
});
