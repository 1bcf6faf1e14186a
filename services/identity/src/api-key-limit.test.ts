import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { IdentityServiceService, AccountRole } from '@green-impact/proto/greenimpact/identity/v1/identity';
import { protoFiles, protoRoot } from '@green-impact/proto/paths';
import { createGrpcClient, type TypedClient } from '@green-impact/shared/grpc/client';
import { startGrpcServer, type StartedGrpcServer } from '@green-impact/shared/grpc/server';
import { createLogger } from '@green-impact/shared/logger';
import { envReader } from '@green-impact/shared/config';
import { skipReason, testDatabases } from '@green-impact/testing/shared/databases';
import { rejectsWith } from '@green-impact/testing/shared/assertions';
import type { Caller } from '@green-impact/shared/caller';
import { createIdentityService, type IdentityService } from './service.js';
import { loadIdentityConfig } from './config.js';

const BOOTSTRAP = 'gi_Qm9vdHN0cmFwS2V5Rm9yS2V5TGltaXRUZXN0czEyMzQ1';
const MAX = 3;
const FULL = `The account already holds ${MAX} active API keys, the most it may (MAX_API_KEYS_PER_ACCOUNT); revoke one first.`;

it('MAX_API_KEYS_PER_ACCOUNT: 20 by default, checked at start', () => {
  const base = { DATABASE_URL: 'postgres://localhost/x' };
  assert.equal(loadIdentityConfig(envReader(base)).maxApiKeysPerAccount, 20);
  assert.equal(loadIdentityConfig(envReader({ ...base, MAX_API_KEYS_PER_ACCOUNT: '5' })).maxApiKeysPerAccount, 5);
  assert.throws(() => loadIdentityConfig(envReader({ ...base, MAX_API_KEYS_PER_ACCOUNT: '0' })), /MAX_API_KEYS_PER_ACCOUNT/);
});

/**
 * API keys per account are bounded (issue 46): each key draws from a rate-limit bucket of its own in the
 * gateway, so unbounded keys would be unbounded request rates. Real identity service over gRPC.
 */
for (const db of testDatabases) {
  describe(`API keys per account on ${db.name}`, { skip: await skipReason(db) }, () => {
    let stopDb: () => Promise<void>;
    let service: IdentityService;
    let server: StartedGrpcServer;
    let client: TypedClient<typeof IdentityServiceService>;
    let operator: Caller;

    before(async () => {
      const started = await db.start();
      stopDb = started.stop;
      const log = createLogger('identity-test', { level: 'silent' });
      service = await createIdentityService({ databaseUrl: started.url, bootstrapApiKey: BOOTSTRAP, log, poolSize: 4, maxApiKeysPerAccount: MAX });
      server = await startGrpcServer({ services: [service.registration], host: '127.0.0.1', port: 0, protoRoot, protoFiles: [protoFiles.identity], log });
      client = createGrpcClient(IdentityServiceService, server.address);
      operator = { accountId: (await client.authenticate({ apiKey: BOOTSTRAP })).account!.id, role: 'operator' };
    });
    after(async () => {
      client?.close();
      await server?.shutdown(1000);
      await service?.close();
      await stopDb?.();
    });

    const active = async (caller: Caller) => (await client.listApiKeys({}, { caller })).keys.filter((k) => !k.revokedAt).length;

    it('an account holds at most MAX_API_KEYS_PER_ACCOUNT active keys, however many issues race; a revoked key frees a place', async () => {
      const created = await client.createAccount({ name: 'Many keys', role: AccountRole.ACCOUNT_ROLE_USER }, { caller: operator });
      const user: Caller = { accountId: created.account!.id, role: 'user' };
      // One key from createAccount; six issues at once for the two places left.
      const outcomes = await Promise.allSettled(Array.from({ length: 6 }, () => client.issueApiKey({}, { caller: user })));
      assert.equal(outcomes.filter((o) => o.status === 'fulfilled').length, MAX - 1);
      for (const o of outcomes.filter((o) => o.status === 'rejected')) await rejectsWith(Promise.reject(o.reason), 'RESOURCE_EXHAUSTED', FULL);
      assert.equal(await active(user), MAX);
      // An operator issuing for the account is held to the same bound.
      await rejectsWith(client.issueApiKey({ accountId: user.accountId }, { caller: operator }), 'RESOURCE_EXHAUSTED', FULL);

      const [first] = (await client.listApiKeys({}, { caller: user })).keys;
      await client.revokeApiKey({ keyId: first!.id }, { caller: user });
      assert.ok((await client.issueApiKey({}, { caller: user })).apiKey.startsWith('gi_'));
      assert.equal(await active(user), MAX);
      // Rotation leaves one active key, so it is never refused.
      await client.rotateApiKey({}, { caller: user });
      assert.equal(await active(user), 1);
    });
  });
}
