import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { IdentityServiceService, AccountRole, type Account, type User } from '@green-impact/proto/greenimpact/identity/v1/identity';
import { protoFiles, protoRoot } from '@green-impact/proto/paths';
import { createGrpcClient, type TypedClient } from '@green-impact/shared/grpc/client';
import { startGrpcServer, type StartedGrpcServer } from '@green-impact/shared/grpc/server';
import { createLogger } from '@green-impact/shared/logger';
import { MASKED, WRONG_KEY_MESSAGE } from '@green-impact/shared/pii';
import { skipReason, testDatabases } from '@green-impact/testing/shared/databases';
import { rejectsWith } from '@green-impact/testing/shared/assertions';
import type { Caller } from '@green-impact/shared/caller';
import { createIdentityService, type IdentityService } from './service.js';

const BOOTSTRAP = 'bootstrap-key-for-page-tests';
const token = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
const BAD_TOKEN = 'page_token must be a next_page_token of this listing.';

/** GetUsers and ListAccounts with page_size / page_token: keyset pages in the whole list's order, counted. */
for (const db of testDatabases) {
  describe(`users and accounts paged by the identity service on ${db.name}`, { skip: await skipReason(db) }, () => {
    let stopDb: () => Promise<void>;
    let service: IdentityService;
    let server: StartedGrpcServer;
    let client: TypedClient<typeof IdentityServiceService>;
    let operator: Caller;
    let alice: Caller;
    let bob: Caller;
    let key: string;

    const addUser = (caller: Caller, userIdentifier: string, encryptionKey?: string) =>
      client.addUser({ userIdentifier, userFirstName: `First ${userIdentifier}`, userRole: 0, ...(encryptionKey ? { encryptionKey } : {}) }, { caller });
    const userPages = async (caller: Caller, size: number, more: { userIdentifier?: string; decryptionKey?: string } = {}, between?: (page: number) => Promise<void>) => {
      const pages: User[][] = [];
      const totals: (number | undefined)[] = [];
      let pageToken: string | undefined;
      for (;;) {
        const res = await client.getUsers({ ...more, pageSize: size, ...(pageToken ? { pageToken } : {}) }, { caller });
        pages.push(res.users);
        totals.push(res.totalCount);
        if (!res.nextPageToken) break;
        assert.equal(res.users.length, size, 'a page before the last is full');
        pageToken = res.nextPageToken;
        await between?.(pages.length);
      }
      return { users: pages.flat(), totals };
    };
    const accountPages = async (size: number, between?: (page: number) => Promise<void>) => {
      const seen: Account[] = [];
      let pageToken: string | undefined;
      for (let page = 1; ; page++) {
        const res = await client.listAccounts({ pageSize: size, ...(pageToken ? { pageToken } : {}) }, { caller: operator });
        seen.push(...res.accounts);
        assert.equal(res.totalCount, (await client.listAccounts({}, { caller: operator })).accounts.length);
        if (!res.nextPageToken) return seen;
        pageToken = res.nextPageToken;
        await between?.(page);
      }
    };
    const createAccount = async (name: string): Promise<Caller> =>
      ({ accountId: (await client.createAccount({ name, role: AccountRole.ACCOUNT_ROLE_USER }, { caller: operator })).account!.id, role: 'user' });

    before(async () => {
      const started = await db.start();
      stopDb = started.stop;
      const log = createLogger('identity-page-test');
      service = await createIdentityService({ databaseUrl: started.url, bootstrapApiKey: BOOTSTRAP, log, poolSize: 4 });
      server = await startGrpcServer({ services: [service.registration], host: '127.0.0.1', port: 0, protoRoot, protoFiles: [protoFiles.identity], log });
      client = createGrpcClient(IdentityServiceService, server.address);
      operator = { accountId: (await client.authenticate({ apiKey: BOOTSTRAP })).account!.id, role: 'operator' };
      alice = await createAccount('Alice');
      bob = await createAccount('Bob');
      key = (await client.generateEncryptionKey({}, { caller: alice })).key;
      for (let n = 1; n <= 7; n++) {
        await addUser(alice, `a-${n}`, n === 6 ? key : undefined);
        if (n % 3 === 0) await addUser(bob, `b-${n}`);
      }
    });
    after(async () => {
      client?.close();
      await server?.shutdown(1000);
      await service?.close();
      await stopDb?.();
    });

    it("users: pages cover the account's users exactly once, in id order, counted; absent page_size is the whole list", async () => {
      const whole = await client.getUsers({}, { caller: alice });
      assert.deepEqual([whole.users.length, whole.nextPageToken, whole.totalCount], [7, '', undefined]);
      for (const size of [1, 3, 7, 1000]) {
        const paged = await userPages(alice, size);
        assert.deepEqual(paged.users, whole.users, `page size ${size}`);
        assert.ok(paged.totals.every((t) => t === 7));
      }
      const theirs = (await userPages(bob, 1)).users;
      assert.deepEqual(theirs.map((u) => u.userIdentifier), ['b-3', 'b-6']);
      assert.ok(theirs.every((u) => !whole.users.some((w) => w.userId === u.userId)), "another account's users never appear");
      // The identifier filter goes with the page; an unknown one is NOT_FOUND as for the whole list.
      const one = await client.getUsers({ userIdentifier: 'a-4', pageSize: 5 }, { caller: alice });
      assert.deepEqual([one.users.map((u) => u.userIdentifier), one.totalCount, one.nextPageToken], [['a-4'], 1, '']);
      await rejectsWith(client.getUsers({ userIdentifier: 'b-3', pageSize: 5 }, { caller: alice }), 'NOT_FOUND', 'No such user.');
    });

    it('users: inserts and removals between pages neither repeat nor skip a user present throughout', async () => {
      const before = (await userPages(alice, 100)).users.map((u) => u.userId);
      const paged = await userPages(alice, 3, {}, async (page) => {
        if (page !== 1) return;
        await addUser(alice, 'a-late');
        await client.removeUser({ userIdentifier: 'a-5' }, { caller: alice }); // on a later page
        await client.removeUser({ userIdentifier: 'a-1' }, { caller: alice }); // already read
      });
      const ids = paged.users.map((u) => u.userId);
      assert.deepEqual([...new Set(ids)].sort((x, y) => x - y), ids);
      assert.equal(ids.filter((id) => before.includes(id)).length, before.length - 1);
      assert.deepEqual(paged.users.map((u) => u.userIdentifier), ['a-1', 'a-2', 'a-3', 'a-4', 'a-6', 'a-7', 'a-late']);
    });

    it('users: the key is checked against the whole listing, not the page; bad tokens and sizes are refused', async () => {
      const first = await client.getUsers({ pageSize: 1, decryptionKey: key }, { caller: alice });
      assert.equal(first.users[0]!.userIdentifier, 'a-2', 'a-6, the only encrypted user, is not on this page');
      const opened = (await userPages(alice, 2, { decryptionKey: key })).users.find((u) => u.userIdentifier === 'a-6')!;
      assert.deepEqual([opened.userFirstName, opened.masked], ['First a-6', false]);
      assert.equal((await userPages(alice, 2)).users.find((u) => u.userIdentifier === 'a-6')!.userFirstName, MASKED);
      const wrong = (await client.generateEncryptionKey({}, { caller: alice })).key;
      await rejectsWith(client.getUsers({ pageSize: 1, decryptionKey: wrong }, { caller: alice }), 'INVALID_ARGUMENT', WRONG_KEY_MESSAGE);
      for (const pageToken of ['not a token!', token([1, 'a1b2']), token([1, 0]), token({})]) {
        await rejectsWith(client.getUsers({ pageSize: 2, pageToken }, { caller: alice }), 'INVALID_ARGUMENT', BAD_TOKEN);
      }
      for (const pageSize of [0, -1, 1001]) {
        await rejectsWith(client.getUsers({ pageSize }, { caller: alice }), 'INVALID_ARGUMENT', `page_size must be an integer from 1 to 1000, got ${pageSize}.`);
      }
      const past = await client.getUsers({ pageSize: 2, pageToken: token([0, '999999999999999']) }, { caller: alice });
      assert.deepEqual([past.users, past.nextPageToken, past.totalCount], [[], '', 6]);
    });

    it('accounts: pages in creation order cover every account once; operators only; a new account is on a later page', async () => {
      for (let n = 1; n <= 4; n++) await createAccount(`Extra ${n}`);
      const whole = (await client.listAccounts({}, { caller: operator })).accounts;
      assert.equal(whole.length, 7);
      for (const size of [1, 2, 7, 1000]) assert.deepEqual(await accountPages(size), whole, `page size ${size}`);
      const paged = await accountPages(3, async (page) => {
        if (page === 1) await createAccount('Late');
      });
      assert.deepEqual(paged.map((a) => a.id), [...whole.map((a) => a.id), paged.at(-1)!.id]);
      assert.equal(paged.at(-1)!.name, 'Late');
      await rejectsWith(client.listAccounts({ pageSize: 2 }, { caller: alice }), 'PERMISSION_DENIED');
      const unknown = token([1, '00000000-0000-4000-8000-000000000000']);
      for (const pageToken of ['not a token!', token([1, '12']), token([1, whole[0]!.id.toUpperCase()]), unknown]) {
        await rejectsWith(client.listAccounts({ pageSize: 2, pageToken }, { caller: operator }), 'INVALID_ARGUMENT', BAD_TOKEN);
      }
      await rejectsWith(client.listAccounts({ pageSize: 1001 }, { caller: operator }), 'INVALID_ARGUMENT', 'page_size must be an integer from 1 to 1000, got 1001.');
    });
  });
}
