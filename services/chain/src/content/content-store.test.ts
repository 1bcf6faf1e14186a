import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { DataSource } from 'typeorm';
import { openServiceDataSource } from '@green-impact/shared/db/data-source';
import { skipReason, testDatabases } from '@green-impact/testing/shared/databases';
import { chainSchema } from '../service.js';
import { FolderContentStore, cidOf, parseStoreCid, type ContentStore } from './content-store.js';
import { DatabaseContentStore } from './database-content-store.js';

// Resolved before any suite is declared (see rate-limiter.test: a later top-level await loses the suites after it under --test-force-exit).
const skips = await Promise.all(testDatabases.map(async (db) => [db, await skipReason(db)] as const));

describe('content ids', () => {
  it('computes the CID IPFS gives a raw block (CIDv1, raw, sha2-256)', () => {
    // `ipfs add --cid-version 1 --raw-leaves` of "hello world\n" (a single raw block).
    assert.equal(cidOf(Buffer.from('hello world\n')).cid, 'bafkreifjjcie6lypi6ny7amxnfftagclbuxndqonfipmb64f2km2devei4');
    assert.equal(cidOf(Buffer.from('')).sha256, 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
  });

  it('accepts only its own kind of CID', () => {
    assert.ok(parseStoreCid('bafkreifjjcie6lypi6ny7amxnfftagclbuxndqonfipmb64f2km2devei4'));
    assert.equal(parseStoreCid('QmT78zSuBmuS4z925WZfrqQ1qHaJ56DQaTfyMUF7F8ff5o'), undefined); // CIDv0 (dag-pb)
    assert.equal(parseStoreCid('../../etc/passwd'), undefined);
  });
});


/** What every content store must do. */
function contract(name: string, open: () => Promise<ContentStore>) {
  it(`${name}: stores by content, idempotently, and reads back with the content type`, async () => {
    const store = await open();
    const a = await store.put(Buffer.from('{"a":1}'), 'application/json');
    const again = await store.put(Buffer.from('{"a":1}'), 'application/json');
    assert.equal(a.cid, again.cid);
    const read = await store.get(a.cid);
    assert.deepEqual([read!.content.toString(), read!.contentType, read!.size, read!.sha256], ['{"a":1}', 'application/json', 7, a.sha256]);
    assert.equal(await store.get(cidOf(Buffer.from('other')).cid), undefined);
  });

  it(`${name}: keeps binary content byte for byte and refuses a foreign CID`, async () => {
    const store = await open();
    const bytes = Buffer.from(Array.from({ length: 4096 }, (_, i) => (i * 37) % 256));
    const put = await store.put(bytes, 'image/png');
    const read = await store.get(put.cid);
    assert.ok(read!.content.equals(bytes));
    assert.equal(read!.sha256, cidOf(bytes).sha256);
    await assert.rejects(store.get('../../etc/passwd'), /not a content id of this store/);
  });
}

describe('content store', () => {
  let dir: string;
  const sources: DataSource[] = [];
  const stops: (() => Promise<void>)[] = [];
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'content-'));
  });
  after(async () => {
    for (const ds of sources) await ds.destroy();
    for (const stop of stops) await stop();
    await rm(dir, { recursive: true, force: true });
  });

  contract('folder', async () => {
    const store = new FolderContentStore(dir);
    await store.init();
    return store;
  });

  for (const [db, skip] of skips) {
    describe(`database (${db.name})`, { skip }, () => {
      let store: DatabaseContentStore;
      let folder: FolderContentStore;
      before(async () => {
        const server = await db.start();
        stops.push(() => server.stop());
        const ds = await openServiceDataSource({ url: server.url, ...chainSchema });
        sources.push(ds);
        folder = new FolderContentStore(join(dir, db.name));
        await folder.init();
        store = new DatabaseContentStore(ds, folder);
      });

      contract(db.name, async () => store);

      it('reads content written to the folder before the switch to the database', async () => {
        const earlier = await folder.put(Buffer.from(`written by an earlier version on ${db.name}`), 'text/plain');
        const read = await store.get(earlier.cid);
        assert.equal(read?.content.toString(), `written by an earlier version on ${db.name}`);
        assert.equal(read?.contentType, 'text/plain');
      });
    });
  }
});
