import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { DomainError } from '@green-impact/shared/errors';
import { FolderContentStore, type ContentStore } from '../content/content-store.js';
import { startImageServer, testJpeg, testPng } from '@green-impact/testing/chain/nft-fixtures';
import { imageType, loadImage, storeCid } from './image-source.js';
import { addressRange, isPublicAddress } from './public-address.js';

const BASE = 'https://impact.example.org/gi';

/**
 * One address from every special-purpose range IANA lists (IPv4 and IPv6 special-purpose registries),
 * plus the IPv6 forms that carry an IPv4 address: none may be fetched from.
 */
const NOT_PUBLIC: [string, string][] = [
  ['0.1.2.3', '"this network" 0.0.0.0/8'],
  ['10.1.2.3', 'private 10/8'],
  ['100.64.0.1', 'carrier-grade NAT 100.64/10'],
  ['127.0.0.1', 'loopback'],
  ['169.254.169.254', 'link-local (cloud metadata)'],
  ['172.20.0.1', 'private 172.16/12'],
  ['192.0.0.8', 'IETF protocol assignments 192.0.0/24'],
  ['192.0.2.1', 'documentation TEST-NET-1'],
  ['192.31.196.1', 'AS112'],
  ['192.52.193.1', 'AMT'],
  ['192.88.99.1', '6to4 relay anycast'],
  ['192.168.1.1', 'private 192.168/16'],
  ['192.175.48.1', 'AS112 direct delegation'],
  ['198.18.0.1', 'benchmarking 198.18/15'],
  ['198.51.100.1', 'documentation TEST-NET-2'],
  ['203.0.113.1', 'documentation TEST-NET-3'],
  ['224.0.0.1', 'multicast'],
  ['240.0.0.1', 'reserved 240/4'],
  ['255.255.255.255', 'limited broadcast'],
  ['::', 'unspecified'],
  ['::1', 'loopback'],
  ['::ffff:127.0.0.1', 'IPv4-mapped loopback'],
  ['::ffff:169.254.169.254', 'IPv4-mapped link-local'],
  ['::ffff:0:127.0.0.1', 'IPv4-translated loopback (RFC 6145)'],
  ['64:ff9b::7f00:1', 'NAT64 64:ff9b::/96 to loopback'],
  ['64:ff9b::a9fe:a9fe', 'NAT64 to cloud metadata'],
  ['64:ff9b::a00:1', 'NAT64 to 10.0.0.1'],
  ['64:ff9b:1::808:808', 'NAT64 local-use 64:ff9b:1::/48'],
  ['2002:7f00:1::1', '6to4 2002::/16 (to 127.0.0.1)'],
  ['2002:808:808::1', '6to4, even to a public IPv4'],
  ['::7f00:1', 'IPv4-compatible ::/96 (to 127.0.0.1)'],
  ['::808:808', 'IPv4-compatible, even to a public IPv4'],
  ['100::1', 'discard-only 100::/64'],
  ['2001::1', 'Teredo 2001::/32'],
  ['2001:0:4136:e378:8000:63bf:3fff:fdd2', 'Teredo'],
  ['2001:2::1', 'benchmarking 2001:2::/48'],
  ['2001:3::1', 'AMT 2001:3::/32'],
  ['2001:4:112::1', 'AS112-v6'],
  ['2001:10::1', 'ORCHID (deprecated)'],
  ['2001:20::1', 'ORCHIDv2'],
  ['2001:30::1', 'drone remote ID'],
  ['2001:db8::1', 'documentation 2001:db8::/32'],
  ['3fff::1', 'documentation 3fff::/20'],
  ['2620:4f:8000::1', 'AS112 direct delegation v6'],
  ['5f00::1', 'segment routing 5f00::/16'],
  ['fc00::1', 'unique local fc00::/7'],
  ['fd00::1', 'unique local'],
  ['fe80::1', 'link-local'],
  ['fec0::1', 'site-local (deprecated)'],
  ['ff02::1', 'multicast'],
  ['ff0e::1', 'multicast, global scope'],
  ['4000::1', 'outside 2000::/3 (not allocated)'],
];
const PUBLIC = ['8.8.8.8', '93.184.216.34', '1.1.1.1', '2606:4700:4700::1111', '2001:4860:4860::8888', '2a00:1450:4001::1', '::ffff:8.8.8.8', '64:ff9b::808:808'];

/** A real pino logger whose lines are kept, to see what the log holds that the caller is not told. */
function recordingLogger() {
  const lines: Record<string, unknown>[] = [];
  const log = pino({ level: 'info' }, { write: (line: string) => void lines.push(JSON.parse(line) as Record<string, unknown>) });
  return { log, lines };
}

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
      '/page.html': { type: 'text/html', body: Buffer.from('<!doctype html><title>internal dashboard</title>') },
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

  it('answers every failed fetch with one generic message and logs the reason (no scanning oracle)', async () => {
    const { log, lines } = recordingLogger();
    const port = new URL(server.url).port;
    const generic = (url: string, max = open.maxBytes) =>
      `The image could not be fetched from ${url}: it must be an image of at most ${max} bytes that a public address answers within 500 ms. Nothing was minted.`;
    const cases: [string, string, RegExp, number?][] = [
      [`${server.url}/slow.jpg`, `${server.url}/slow.jpg`, /no complete answer within 500 ms/],
      [`${server.url}/loop`, `${server.url}/loop`, /more than 3 redirects/],
      [`${server.url}/empty.jpg`, `${server.url}/empty.jpg`, /the response is empty/],
      [`${server.url}/missing.jpg`, `${server.url}/missing.jpg`, /HTTP 404 Not Found/],
      [`${server.url}/a.jpg?token=secret`, `${server.url}/a.jpg`, /larger than 100 bytes/, 100],
      [`${server.url}/page.html`, `${server.url}/page.html`, /is not an image \(content type text\/html\)/],
      ['http://no-such-host.invalid/a.jpg', 'http://no-such-host.invalid/a.jpg', /does not resolve/],
      [`http://127.0.0.1:1/a.jpg`, 'http://127.0.0.1:1/a.jpg', /the connection was refused/],
      [`http://localhost:${port}/a.jpg`, `http://localhost:${port}/a.jpg`, /resolves to an address that is not public \(127\.0\.0\.1, loopback\)/],
    ];
    for (const [url, shownUrl, why, maxBytes] of cases) {
      const guarded = url.includes('localhost');
      const opts = { ...open, ...(maxBytes ? { maxBytes } : {}), ...(guarded ? { allowPrivateHosts: false } : {}) };
      lines.length = 0;
      await assert.rejects(loadImage(url, store, opts, log), (err: unknown) => {
        assert.ok(err instanceof DomainError && err.code === 'FAILED_PRECONDITION', url);
        assert.equal(err.message, generic(shownUrl, opts.maxBytes), url);
        return true;
      });
      assert.equal(lines.length, 1, url);
      assert.equal(lines[0]!['image'], shownUrl);
      assert.match(String(lines[0]!['reason']), why, url);
      assert.doesNotMatch(JSON.stringify(lines[0]), /secret/, 'the query (signed URLs carry secrets there) is not logged either');
    }
  });

  it('allows only public unicast addresses: every special-purpose range, IPv4-embedded IPv6 forms judged by their IPv4', () => {
    const passing = NOT_PUBLIC.filter(([a]) => isPublicAddress(a)).map(([a, what]) => `${a} (${what})`);
    assert.deepEqual(passing, [], 'special-purpose addresses that would be fetched from');
    assert.deepEqual(PUBLIC.filter((a) => !isPublicAddress(a)).map((a) => `${a}: ${addressRange(a)}`), [], 'public addresses that would be refused');
    for (const a of ['', 'localhost', '1.2.3', '::g', '127.0.0.1.nip.io']) assert.equal(isPublicAddress(a), false, a);
  });

  it('does not connect to a literal host outside public unicast, nor to a name that resolves inside, unless allowed', async () => {
    const guarded = { ...open, allowPrivateHosts: false };
    const { log, lines } = recordingLogger();
    for (const host of [new URL(server.url).host, '[64:ff9b::7f00:1]:1', '[2002:7f00:1::1]:1', '[::7f00:1]:1', '[::ffff:0:7f00:1]:1', '[2001:db8::1]:1', '192.0.2.1:1']) {
      lines.length = 0;
      await refused(loadImage(`http://${host}/a.jpg`, store, guarded, log), 'FAILED_PRECONDITION', /^The image could not be fetched from .*Nothing was minted\.$/);
      assert.match(String(lines[0]?.['reason']), /its host is not a public address/, host);
    }
    assert.equal((await loadImage(`${server.url}/a.jpg`, store, open)).contentType, 'image/jpeg', 'allowPrivateHosts turns the check off');
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
