import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createDecipheriv, createHash } from 'node:crypto';
import pg from 'pg';
import { IdentityServiceService, AccountRole, UserRole } from '@green-impact/proto/greenimpact/identity/v1/identity';
import { protoFiles, protoRoot } from '@green-impact/proto/paths';
import { createGrpcClient, type TypedClient } from '@green-impact/shared/grpc/client';
import { startGrpcServer, type StartedGrpcServer } from '@green-impact/shared/grpc/server';
import { createLogger } from '@green-impact/shared/logger';
import { MASKED } from '@green-impact/shared/pii';
import { skipReason, testDatabases } from '@green-impact/testing/shared/databases';
import { rejectsWith } from '@green-impact/testing/shared/assertions';
import type { Caller } from '@green-impact/shared/caller';
import { createIdentityService, type IdentityService } from './service.js';

const BOOTSTRAP = 'bootstrap-key-for-tests';


for (const db of testDatabases) {
  describe(`identity service over gRPC on ${db.name}`, { skip: await skipReason(db) }, () => {
    let stopDb: () => Promise<void>;
    let databaseUrl: string;
    /** Every API key handed out here, to look for in the database. */
    const issuedKeys: string[] = [BOOTSTRAP];
    let service: IdentityService;
    let server: StartedGrpcServer;
    let client: TypedClient<typeof IdentityServiceService>;
    let operator: Caller;
    let alice: Caller;
    let bob: Caller;

    before(async () => {
      const started = await db.start();
      stopDb = started.stop;
      databaseUrl = started.url;
      const log = createLogger('identity-test');
      service = await createIdentityService({ databaseUrl: started.url, bootstrapApiKey: BOOTSTRAP, log, poolSize: 4 });
      server = await startGrpcServer({
        services: [service.registration],
        host: '127.0.0.1',
        port: 0,
        protoRoot,
        protoFiles: [protoFiles.identity],
        log,
      });
      client = createGrpcClient(IdentityServiceService, server.address);
      const auth = await client.authenticate({ apiKey: BOOTSTRAP });
      operator = { accountId: auth.account!.id, role: 'operator' };
    });

    after(async () => {
      client?.close();
      await server?.shutdown(1000);
      await service?.close();
      await stopDb?.();
    });

    it('bootstraps exactly one operator from BOOTSTRAP_API_KEY, also on restart', async () => {
      assert.equal((await service.accounts.bootstrap(BOOTSTRAP)), undefined);
      const { accounts } = await client.listAccounts({}, { caller: operator });
      assert.equal(accounts.length, 1);
      assert.equal(accounts[0]!.role, AccountRole.ACCOUNT_ROLE_OPERATOR);
    });

    it('creates accounts whose keys work, and only operators may', async () => {
      const a = await client.createAccount({ name: 'Alice Issuer', role: AccountRole.ACCOUNT_ROLE_USER }, { caller: operator });
      assert.match(a.apiKey, /^gi_[A-Za-z0-9_-]{43}$/);
      issuedKeys.push(a.apiKey);
      const authA = await client.authenticate({ apiKey: a.apiKey });
      assert.equal(authA.account!.name, 'Alice Issuer');
      alice = { accountId: authA.account!.id, role: 'user' };
      const b = await client.createAccount({ name: 'Bob Investor', role: AccountRole.ACCOUNT_ROLE_USER }, { caller: operator });
      issuedKeys.push(b.apiKey);
      bob = { accountId: (await client.authenticate({ apiKey: b.apiKey })).account!.id, role: 'user' };
      await rejectsWith(client.createAccount({ name: 'x', role: AccountRole.ACCOUNT_ROLE_USER }, { caller: alice }), 'PERMISSION_DENIED', 'Not authorized.');
      await rejectsWith(client.listAccounts({}, { caller: alice }), 'PERMISSION_DENIED');
      await rejectsWith(client.createAccount({ name: 'x', role: AccountRole.ACCOUNT_ROLE_UNSPECIFIED }, { caller: operator }), 'INVALID_ARGUMENT');
    });

    it('reads one account by id for operators (a bearer token\'s account, issue 46); NOT_FOUND for none', async () => {
      const { account } = await client.getAccount({ accountId: alice.accountId }, { caller: operator });
      assert.deepEqual([account!.id, account!.name, account!.role], [alice.accountId, 'Alice Issuer', AccountRole.ACCOUNT_ROLE_USER]);
      await rejectsWith(client.getAccount({ accountId: randomUUID() }, { caller: operator }), 'NOT_FOUND');
      await rejectsWith(client.getAccount({ accountId: 'acme-corp' }, { caller: operator }), 'NOT_FOUND');
      await rejectsWith(client.getAccount({ accountId: bob.accountId }, { caller: alice }), 'PERMISSION_DENIED');
    });

    it('rejects unknown keys and calls without a caller', async () => {
      await rejectsWith(client.authenticate({ apiKey: 'nope' }), 'UNAUTHENTICATED');
      await rejectsWith(client.authenticate({ apiKey: '' }), 'UNAUTHENTICATED', 'Please submit client identifier.');
      await rejectsWith(client.getGroups({}), 'UNAUTHENTICATED');
    });

    it('rotates (old key dead, new key works) and revokes keys', async () => {
      const created = await client.createAccount({ name: 'Rotator', role: AccountRole.ACCOUNT_ROLE_USER }, { caller: operator });
      const me: Caller = { accountId: created.account!.id, role: 'user' };
      const rotated = await client.rotateApiKey({}, { caller: me });
      assert.deepEqual(rotated.revokedKeyIds, [created.key!.id]);
      await rejectsWith(client.authenticate({ apiKey: created.apiKey }), 'UNAUTHENTICATED');
      assert.equal((await client.authenticate({ apiKey: rotated.apiKey })).account!.id, me.accountId);
      const extra = await client.issueApiKey({}, { caller: me });
      await client.revokeApiKey({ keyId: extra.key!.id }, { caller: me });
      await rejectsWith(client.authenticate({ apiKey: extra.apiKey }), 'UNAUTHENTICATED');
      assert.equal((await client.authenticate({ apiKey: rotated.apiKey })).account!.id, me.accountId);
      // Another user account can neither see nor revoke this account's keys.
      await rejectsWith(client.revokeApiKey({ keyId: rotated.key!.id }, { caller: alice }), 'NOT_FOUND', 'No such API key.');
      await rejectsWith(client.rotateApiKey({ accountId: me.accountId }, { caller: alice }), 'PERMISSION_DENIED');
      const { keys } = await client.listApiKeys({ accountId: me.accountId }, { caller: operator });
      assert.equal(keys.filter((k) => !k.revokedAt).length, 1);
    });

    it('lists the seven groups', async () => {
      const { groups } = await client.getGroups({}, { caller: alice });
      assert.deepEqual(
        groups.map((g) => g.group),
        ['bankers', 'investors', 'capitalists', 'issuers', 'agents', 'exchanges', 'regulators'],
      );
      assert.deepEqual(groups.map((g) => g.id), [1, 2, 3, 4, 5, 6, 7]);
    });

    it('adds, updates, reads and removes users with the spec messages', async () => {
      assert.deepEqual((await client.getUsers({}, { caller: alice })).users, []);
      const added = await client.addUser(
        { userIdentifier: 'u1', userFirstName: 'Ada', userLastName: 'Lovelace', userEmail: 'ada@example.org', userRole: UserRole.USER_ROLE_ADMIN },
        { caller: alice },
      );
      assert.equal(added.message, 'User added.');
      const updated = await client.addUser({ userIdentifier: 'u1', userFirstName: 'Augusta', userRole: UserRole.USER_ROLE_UNSPECIFIED }, { caller: alice });
      assert.equal(updated.message, 'User updated.');
      assert.equal(updated.id, added.id);
      const [u] = (await client.getUsers({ userIdentifier: 'u1' }, { caller: alice })).users;
      assert.equal(u!.userFirstName, 'Augusta');
      assert.equal(u!.userLastName, 'Lovelace');
      assert.equal(u!.userRole, UserRole.USER_ROLE_ADMIN);
      await rejectsWith(client.addUser({ userIdentifier: ' ', userRole: 0 }, { caller: alice }), 'INVALID_ARGUMENT', 'User identifier is missing.');
      await rejectsWith(client.getUsers({ userIdentifier: 'nobody' }, { caller: alice }), 'NOT_FOUND', 'No such user.');
      await rejectsWith(client.removeUser({ userIdentifier: 'nobody' }, { caller: alice }), 'NOT_FOUND', 'No such user.');
    });

    it('owns the bounds of what it is given, naming the /v1/call parameter as field', async () => {
      const refused = async (call: Promise<unknown>, field: string, message: string) => {
        const err = await call.then(
          () => assert.fail(`${field}: not refused`),
          (e: unknown) => e as { code?: unknown; message: string; field?: string },
        );
        assert.equal(err.field, field);
        assert.equal(err.message, message);
      };
      const long = 'x'.repeat(256);
      const as = { caller: alice };
      await refused(client.addUser({ userIdentifier: '', userRole: 0 }, as), 'user_identifier', 'User identifier is missing.');
      await refused(client.addUser({ userIdentifier: long, userRole: 0 }, as), 'user_identifier', 'user_identifier must be at most 255 characters.');
      await refused(client.addUser({ userIdentifier: 'b1', userFirstName: long, userRole: 0 }, as), 'user_first_name', 'user_first_name must be at most 255 characters.');
      await refused(client.addUser({ userIdentifier: 'b1', userLastName: long, userRole: 0 }, as), 'user_last_name', 'user_last_name must be at most 255 characters.');
      for (const email of ['ann', 'ann@example', 'a b@example.org'])
        await refused(client.addUser({ userIdentifier: 'b1', userEmail: email, userRole: 0 }, as), 'user_email', 'user_email must be an e-mail address.');
      await refused(
        client.addUser({ userIdentifier: 'b1', userEmail: `${'a'.repeat(310)}@example.org`, userRole: 0 }, as),
        'user_email',
        'user_email must be at most 320 characters.',
      );
      await refused(client.addUser({ userIdentifier: 'b1', encryptionKey: 'short', userRole: 0 }, as), 'encryption_key', 'encryption_key must be 64 hexadecimal characters, as generateEncryptionKey returns.');
      await refused(client.getUsers({ userIdentifier: long }, as), 'user_identifier', 'user_identifier must be at most 255 characters.');
      await refused(client.getUsers({ decryptionKey: 'k' }, as), 'decryption_key', 'decryption_key must be 64 hexadecimal characters, as generateEncryptionKey returns.');
      await refused(client.getInvestorsOfUser({ userIdentifier: long }, as), 'user_identifier', 'user_identifier must be at most 255 characters.');
      await refused(client.removeUser({ userIdentifier: long }, as), 'user_identifier', 'user_identifier must be at most 255 characters.');
      await refused(client.addGroupToUser({ userIdentifier: 'b1', group: long }, as), 'group', 'group must be at most 255 characters.');
      await refused(client.removeGroupFromUser({ userIdentifier: long, group: 'investors' }, as), 'user_identifier', 'user_identifier must be at most 255 characters.');
      await refused(client.addInvestorToUser({ userIdentifier: 'b1', investorIdentifier: long }, as), 'investor_identifier', 'investor_identifier must be at most 255 characters.');
      await refused(client.removeInvestorFromUser({ userIdentifier: 'b1', investorIdentifier: long }, as), 'investor_identifier', 'investor_identifier must be at most 255 characters.');
      await refused(client.createAccount({ name: long, role: AccountRole.ACCOUNT_ROLE_USER }, { caller: operator }), 'name', 'name must be 1 to 255 characters.');
      await refused(client.createAccount({ name: '  ', role: AccountRole.ACCOUNT_ROLE_USER }, { caller: operator }), 'name', 'name must be 1 to 255 characters.');
      await refused(client.listApiKeys({ accountId: long }, { caller: operator }), 'account_id', 'account_id must be at most 255 characters.');
      await refused(client.issueApiKey({ accountId: long }, { caller: operator }), 'account_id', 'account_id must be at most 255 characters.');
      await refused(client.rotateApiKey({ accountId: long }, { caller: operator }), 'account_id', 'account_id must be at most 255 characters.');
      await refused(client.revokeApiKey({ keyId: long }, { caller: operator }), 'key_id', 'key_id must be at most 255 characters.');
      // At the bounds, and an address of the usual form, the change goes through.
      const added = await client.addUser({ userIdentifier: 'u'.repeat(255), userFirstName: 'f'.repeat(255), userEmail: 'ann@example.org', userRole: 0 }, as);
      assert.equal(added.message, 'User added.');
      await client.removeUser({ userIdentifier: 'u'.repeat(255) }, as);
    });

    it('keeps users private to their account', async () => {
      assert.deepEqual((await client.getUsers({}, { caller: bob })).users, []);
      await rejectsWith(client.removeUser({ userIdentifier: 'u1' }, { caller: bob }), 'NOT_FOUND', 'No such user.');
      await rejectsWith(client.addGroupToUser({ userIdentifier: 'u1', group: 'bankers' }, { caller: bob }), 'NOT_FOUND', 'No such user.');
      // The same identifier in another account is another user.
      await client.addUser({ userIdentifier: 'u1', userFirstName: 'Bob', userRole: 0 }, { caller: bob });
      const [bobs] = (await client.getUsers({}, { caller: bob })).users;
      assert.equal(bobs!.userFirstName, 'Bob');
      const [alices] = (await client.getUsers({ userIdentifier: 'u1' }, { caller: alice })).users;
      assert.equal(alices!.userFirstName, 'Augusta');
    });

    it('connects groups once and disconnects them', async () => {
      assert.equal((await client.addGroupToUser({ userIdentifier: 'u1', group: 'bankers' }, { caller: alice })).message, 'Group added to user.');
      await rejectsWith(client.addGroupToUser({ userIdentifier: 'u1', group: 'bankers' }, { caller: alice }), 'ALREADY_EXISTS', 'Group is already connected to user.');
      await client.addGroupToUser({ userIdentifier: 'u1', group: 'Regulators' }, { caller: alice });
      await rejectsWith(client.addGroupToUser({ userIdentifier: 'u1', group: 'pirates' }, { caller: alice }), 'INVALID_ARGUMENT');
      const [u] = (await client.getUsers({ userIdentifier: 'u1' }, { caller: alice })).users;
      assert.deepEqual(u!.userGroups, [{ id: 1, group: 'bankers' }, { id: 7, group: 'regulators' }]);
      assert.equal((await client.removeGroupFromUser({ userIdentifier: 'u1', group: 'bankers' }, { caller: alice })).message, 'Group removed from user.');
      await rejectsWith(client.removeGroupFromUser({ userIdentifier: 'nobody', group: 'bankers' }, { caller: alice }), 'NOT_FOUND', 'No such user.');
      await rejectsWith(client.removeGroupFromUser({ userIdentifier: 'u1', group: 'bankers' }, { caller: alice }), 'NOT_FOUND');
    });

    it('gives users investors and takes them away', async () => {
      assert.equal((await client.addInvestorToUser({ userIdentifier: 'u1', investorIdentifier: 'inv-1' }, { caller: alice })).message, 'Investor added to user.');
      await rejectsWith(client.addInvestorToUser({ userIdentifier: 'u1', investorIdentifier: 'inv-1' }, { caller: alice }), 'ALREADY_EXISTS', 'Investor is already connected to user.');
      await client.addInvestorToUser({ userIdentifier: 'u1', investorIdentifier: 'inv-2' }, { caller: alice });
      const { users } = await client.getInvestorsOfUser({ userIdentifier: 'u1' }, { caller: alice });
      assert.deepEqual(users[0]!.investorIdentifiers, ['inv-1', 'inv-2']);
      await client.removeInvestorFromUser({ userIdentifier: 'u1', investorIdentifier: 'inv-1' }, { caller: alice });
      await rejectsWith(client.removeInvestorFromUser({ userIdentifier: 'u1', investorIdentifier: 'inv-1' }, { caller: alice }), 'NOT_FOUND', 'No such investor.');
      await rejectsWith(client.getInvestorsOfUser({ userIdentifier: 'nobody' }, { caller: alice }), 'NOT_FOUND', 'No such user.');
      assert.deepEqual((await client.getInvestorsOfUser({}, { caller: bob })).users.map((u) => u.investorIdentifiers), [[]]);
    });

    it('encrypts user PII with a key and reads it in clear only with the same key', async () => {
      const { key } = await client.generateEncryptionKey({}, { caller: alice });
      assert.match(key, /^[0-9a-f]{64}$/);
      const { key: other } = await client.generateEncryptionKey({}, { caller: alice });
      await client.addUser(
        { userIdentifier: 'secret', userFirstName: 'Grace', userLastName: 'Hopper', userEmail: 'grace@example.org', userRole: 0, encryptionKey: key },
        { caller: alice },
      );
      const masked = (await client.getUsers({ userIdentifier: 'secret' }, { caller: alice })).users[0]!;
      assert.deepEqual([masked.userFirstName, masked.userLastName, masked.userEmail, masked.masked], [MASKED, MASKED, MASKED, true]);
      const clear = (await client.getUsers({ userIdentifier: 'secret', decryptionKey: key }, { caller: alice })).users[0]!;
      assert.deepEqual([clear.userFirstName, clear.userLastName, clear.userEmail, clear.masked], ['Grace', 'Hopper', 'grace@example.org', false]);
      await rejectsWith(client.getUsers({ userIdentifier: 'secret', decryptionKey: other }, { caller: alice }), 'INVALID_ARGUMENT');
      await rejectsWith(client.getUsers({ decryptionKey: 'not-a-key' }, { caller: alice }), 'INVALID_ARGUMENT');
      // Updating one field needs the key; with it, the rest stays readable.
      await rejectsWith(client.addUser({ userIdentifier: 'secret', userFirstName: 'G.', userRole: 0 }, { caller: alice }), 'INVALID_ARGUMENT');
      await client.addUser({ userIdentifier: 'secret', userFirstName: 'G.', userRole: 0, encryptionKey: key }, { caller: alice });
      const again = (await client.getUsers({ userIdentifier: 'secret', decryptionKey: key }, { caller: alice })).users[0]!;
      assert.deepEqual([again.userFirstName, again.userLastName], ['G.', 'Hopper']);
      // A list read with the key opens the records it fits and leaves others as they are.
      const all = (await client.getUsers({ decryptionKey: key }, { caller: alice })).users;
      assert.equal(all.find((u) => u.userIdentifier === 'u1')!.userFirstName, 'Augusta');
    });

    it('holds PII only as AES-256-GCM ciphertext under the caller\'s key, and API keys only as SHA-256 hashes (read from the database)', async () => {
      const { key } = await client.generateEncryptionKey({}, { caller: alice });
      const person = { firstName: 'Ada', lastName: 'Lovelace', email: 'ada.lovelace@example.org' };
      await client.addUser({ userIdentifier: 'at-rest', userFirstName: person.firstName, userLastName: person.lastName, userEmail: person.email, userRole: 0, encryptionKey: key }, { caller: alice });
      const db = new pg.Client({ connectionString: databaseUrl });
      await db.connect();
      try {
        const { rows: [row] } = await db.query(`SELECT * FROM identity.users WHERE user_identifier = 'at-rest'`);
        const text = JSON.stringify(row);
        for (const clear of [...Object.values(person), key]) assert.ok(!text.includes(clear), `the row holds ${clear} in clear`);
        // Decrypted here with node:crypto after the documented layout (v1.base64(iv 12 ‖ tag 16 ‖ ciphertext),
        // the field bound as AAD), not with the service's decryptField.
        const open = (blob: string, field: string) => {
          assert.match(blob, /^v1\.[A-Za-z0-9+/]+=*$/);
          const raw = Buffer.from(blob.slice(3), 'base64');
          const decipher = createDecipheriv('aes-256-gcm', Buffer.from(key, 'hex'), raw.subarray(0, 12));
          decipher.setAAD(Buffer.from(`identity.users/at-rest/${field}`));
          decipher.setAuthTag(raw.subarray(12, 28));
          return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString('utf8');
        };
        assert.deepEqual(
          { firstName: open(row.first_name, 'firstName'), lastName: open(row.last_name, 'lastName'), email: open(row.email, 'email') },
          person,
        );
        const { rows: keys } = await db.query(`SELECT * FROM identity.api_keys`);
        const stored = JSON.stringify(keys);
        for (const apiKey of issuedKeys) {
          assert.ok(!stored.includes(apiKey), 'an API key is stored in clear');
          assert.ok(keys.some((k) => k.key_hash === createHash('sha256').update(apiKey, 'utf8').digest('hex')), 'each key is stored as its SHA-256');
        }
      } finally {
        await db.end();
      }
    });

    it('removes a user with its links', async () => {
      assert.equal((await client.removeUser({ userIdentifier: 'u1' }, { caller: alice })).message, 'User removed.');
      await rejectsWith(client.getInvestorsOfUser({ userIdentifier: 'u1' }, { caller: alice }), 'NOT_FOUND');
      assert.equal((await client.getUsers({}, { caller: bob })).users.length, 1);
    });
  });
}
