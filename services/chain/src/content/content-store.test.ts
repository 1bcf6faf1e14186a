import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ContentStore, cidOf, parseStoreCid } from './content-store.js';

describe('content store', () => {
  let dir: string;
  let store: ContentStore;
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'content-'));
    store = new ContentStore(dir);
    await store.init();
  });
  after(() => rm(dir, { recursive: true, force: true }));

  it('computes the CID IPFS gives a raw block (CIDv1, raw, sha2-256)', () => {
    // `ipfs add --cid-version 1 --raw-leaves` of "hello world\n" (a single raw block).
    assert.equal(cidOf(Buffer.from('hello world\n')).cid, 'bafkreifjjcie6lypi6ny7amxnfftagclbuxndqonfipmb64f2km2devei4');
    assert.equal(cidOf(Buffer.from('')).sha256, 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
  });

  it('stores by content, idempotently, and reads back with the content type', async () => {
    const a = await store.put(Buffer.from('{"a":1}'), 'application/json');
    const again = await store.put(Buffer.from('{"a":1}'), 'application/json');
    assert.equal(a.cid, again.cid);
    const read = await store.get(a.cid);
    assert.deepEqual([read!.content.toString(), read!.contentType, read!.size, read!.sha256], ['{"a":1}', 'application/json', 7, a.sha256]);
    assert.equal(await store.get(cidOf(Buffer.from('other')).cid), undefined);
  });

  it('accepts only its own kind of CID', () => {
    assert.ok(parseStoreCid('bafkreifjjcie6lypi6ny7amxnfftagclbuxndqonfipmb64f2km2devei4'));
    assert.equal(parseStoreCid('QmT78zSuBmuS4z925WZfrqQ1qHaJ56DQaTfyMUF7F8ff5o'), undefined); // CIDv0 (dag-pb)
    assert.equal(parseStoreCid('../../etc/passwd'), undefined);
  });
});
