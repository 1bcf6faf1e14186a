import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DomainError } from '@green-impact/shared/errors';
import { FolderContentStore, type ContentStore } from '../content/content-store.js';
import { startImageServer, testJpeg, testPng } from '../testing/nft-fixtures.js';
import { imageType, isPrivateAddress, loadImage, storeCid } from './image-source.js';

const BASE = 'https://impact.example.org/gi';

describe('NFT image sources', () => {
  let server: Awaited<ReturnType<typeof startImageServer>>;
  let dir: string;
  let store: ContentStore;
  const open = { publicBaseUrl: BASE, maxBytes: 64 * 1024, timeoutMs: 500, allowPrivateHosts: true };
  const refused = async (p: Promise<unknown>, code: string, message: RegExp) =>
    assert.rejects(p, (err: unknown) => err instanceof DomainError && err.code === code && message.test(err.message));

  before(async () => {
    server = await startImageServer({
      '/a.jpg': { type: 'image/jpeg', body: testJpeg() },
      '/a.png': { body: testPng() },
      '/a.svg': { type: 'image/svg+xml', body: Buffer.from('<?xml version="1.0"?>\n<svg xmlns="http://www.w3.org/2000/svg"/>') },
      '/a.bmp': { type: 'image/bmp', body: Buffer.from('BM....') },
      '/slow.jpg': { hang: true },
      '/loop': { status: 301, location: '/loop' },
      '/empty.jpg': { type: 'image/jpeg' },
    });
    dir = await mkdtemp(join(tmpdir(), 'image-source-'));
    store = new FolderContentStore(dir);
    await store.init();
  });
  after(async () => {
    await server.stop();
    await rm(dir, { recursive: true, force: true });
  });

  it('fetches http(s) images and tells their type by their bytes', async () => {
    assert.equal((await loadImage(`${server.url}/a.jpg`, store, open)).contentType, 'image/jpeg');
    assert.equal((await loadImage(`${server.url}/a.png`, store, open)).contentType, 'image/png');
    assert.equal((await loadImage(`${server.url}/a.svg`, store, open)).contentType, 'image/svg+xml');
    assert.equal((await loadImage(`${server.url}/a.bmp`, store, open)).contentType, 'image/bmp', 'a declared image type is trusted');
  });

  it('refuses what it cannot fetch in time, loops, empty answers and big images', async () => {
    await refused(loadImage(`${server.url}/slow.jpg`, store, open), 'FAILED_PRECONDITION', /no complete answer within 500 ms/);
    await refused(loadImage(`${server.url}/loop`, store, open), 'FAILED_PRECONDITION', /more than 3 redirects/);
    await refused(loadImage(`${server.url}/empty.jpg`, store, open), 'FAILED_PRECONDITION', /the response is empty/);
    await refused(loadImage(`${server.url}/a.jpg`, store, { ...open, maxBytes: 100 }), 'FAILED_PRECONDITION', /larger than 100 bytes/);
    await refused(loadImage(`${server.url}/a.jpg?token=secret`, store, { ...open, maxBytes: 100 }), 'FAILED_PRECONDITION', /^(?!.*secret)/);
    await refused(loadImage('http://no-such-host.invalid/a.jpg', store, open), 'FAILED_PRECONDITION', /does not resolve/);
  });

  it('does not fetch from private addresses unless allowed', async () => {
    const guarded = { ...open, allowPrivateHosts: false };
    await refused(loadImage(`${server.url}/a.jpg`, store, guarded), 'FAILED_PRECONDITION', /private, loopback or link-local address/);
    await refused(loadImage(`http://localhost:${new URL(server.url).port}/a.jpg`, store, guarded), 'FAILED_PRECONDITION', /resolves to a private, loopback or link-local address/);
    for (const a of ['127.0.0.1', '10.1.2.3', '172.20.0.1', '192.168.1.1', '169.254.169.254', '100.64.0.1', '::1', 'fe80::1', 'fd00::1', '::ffff:127.0.0.1', '0.0.0.0']) {
      assert.equal(isPrivateAddress(a), true, a);
    }
    for (const a of ['93.184.216.34', '2606:2800:220:1:248:1893:25c8:1946', '::ffff:8.8.8.8']) assert.equal(isPrivateAddress(a), false, a);
  });

  it('reads the service\'s own URIs from the content store', async () => {
    const { cid } = await store.put(testPng(), 'image/png');
    for (const uri of [`ipfs://${cid}`, `ipfs://ipfs/${cid}`, `/ipfs/${cid}`, `${BASE}/ipfs/${cid}`]) {
      assert.equal(storeCid(uri, BASE), cid, uri);
      assert.equal((await loadImage(uri, store, open)).contentType, 'image/png');
    }
    assert.equal(storeCid(`https://other.example.org/gi/ipfs/${cid}`, BASE), undefined);
    assert.equal(storeCid(`${BASE}/ipfs/${cid}?x=1`, BASE), undefined);
    await refused(loadImage('ipfs://not-a-cid', store, open), 'INVALID_ARGUMENT', /is not a content id of this store/);
    await refused(loadImage('data:image/png;base64,AAAA', store, open), 'INVALID_ARGUMENT', /got a data: URL/);
    await refused(loadImage('  ', store, open), 'INVALID_ARGUMENT', /image is required/);
  });

  it('is no image when neither the bytes nor the declared type say so', () => {
    assert.throws(() => imageType(Buffer.from('{"a":1}'), 'application/json', 'x'), /x is not an image \(content type application\/json\)/);
    assert.equal(imageType(Buffer.from('GIF89a...'), 'text/plain', 'x'), 'image/gif');
  });
});
