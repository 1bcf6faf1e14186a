import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { JobStatus } from '@green-impact/proto/greenimpact/chain/v1/chain';
import { serveNftImage } from '@green-impact/testing/gateway/nft-image';
import { postCall } from '@green-impact/testing/gateway/v1-calls';
import { jsonHeaders, startTestGateway, type TestGateway } from '@green-impact/testing/gateway/real-gateway';
import { metricsRegistry } from '@green-impact/shared/metrics';

/**
 * The public NFT pages against the real chain service (minting on its embedded amoy an image served on
 * loopback): certificate files and landing page, the claim form (GET and POST, no API key), and the
 * receipt page for networks without an explorer.
 */

const NFT = 'SVC.NFT.zK';
const WALLET = '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed';
const UNKNOWN = '00000000-0000-4000-8000-000000000000';

let t: TestGateway;
let image: Awaited<ReturnType<typeof serveNftImage>>;
let ACME: Record<string, string>;
/** The chain service's signer on amoy: it mints the NFTs to itself. */
let signer: string;
let guid: string;
let nftId: string;
let mintHash: string;
let mintBlock: number;
before(async () => {
  image = await serveNftImage();
  t = await startTestGateway({}, { chain: true, nftImage: { allowPrivateHosts: true } });
  ACME = jsonHeaders(t.userKey);
  signer = (await t.chain!.client.listNetworks({}, { caller: t.user })).networks.find((n) => n.name === 'amoy')!.signerAddress;
  ({ guid, nftId, hash: mintHash, block: mintBlock } = await minted('Solar <Park> "2024"'));
});
after(async () => {
  await t.stop();
  await image.close();
});

async function call(operation: string, parameters: Record<string, unknown>, envelope: Record<string, unknown> = { version: 1, network: 'amoy' }): Promise<any> {
  const res = await postCall(t.baseUrl, { solution: NFT, operation, ...envelope, parameters }, ACME);
  assert.equal(res.status, 200, res.text);
  return res.json;
}

/** Mints (and waits for the mint, unless `complete` is false: the chain's worker is then stopped meanwhile, as on a replica without one). */
async function minted(name: string, complete = true): Promise<{ guid: string; nftId: string; hash: string; block: number }> {
  if (!complete) await t.chainLevers!.stopWorker();
  try {
    const { info } = await call('new', { name, description: 'A <b>bold</b> claim', image: image.url, attributes: { tonnes: 12 } });
    if (complete) assert.equal((await t.settledJob(info.jobId)).status, JobStatus.JOB_STATUS_COMPLETED);
    const fetched = (await call('fetch', { jobId: info.jobId }, {})).info;
    return { guid: fetched.guid, nftId: fetched.result?.nftId ?? '', hash: fetched.hash ?? '', block: fetched.receipt?.blockNumber ?? 0 };
  } finally {
    if (!complete) await t.chainLevers!.startWorker();
  }
}

/** The chain service's page reads by outcome (chain_page_node_reads_total; it runs in this process). */
async function nodeReads(outcome: 'hit' | 'joined' | 'relayed'): Promise<number> {
  const metric = await metricsRegistry.getSingleMetric('chain_page_node_reads_total')!.get();
  return metric.values.find((v) => v.labels['outcome'] === outcome)?.value ?? 0;
}

const get = (path: string, headers: Record<string, string> = {}) => fetch(`${t.baseUrl}${path}`, { headers, redirect: 'manual' });
const postForm = (fields: Record<string, string>, headers: Record<string, string> = {}) =>
  fetch(`${t.baseUrl}/claim`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers }, body: new URLSearchParams(fields).toString() });

function assertPageHeaders(res: Response, cache: string) {
  assert.equal(res.headers.get('content-type'), 'text/html; charset=utf-8');
  assert.equal(res.headers.get('cache-control'), cache);
  assert.match(res.headers.get('content-security-policy') ?? '', /default-src 'none'.*form-action 'self'; frame-ancestors 'none'/);
  assert.equal(res.headers.get('referrer-policy'), 'no-referrer');
  assert.equal(res.headers.get('x-frame-options'), 'DENY');
  assert.equal(res.headers.get('x-content-type-options'), 'nosniff');
}

describe('GET /certificates/<guid>.pdf and .jpg', () => {
  test('serve the files with their types, without a key, cacheable and revalidated by CID', async () => {
    const pdf = await get(`/certificates/${guid}.pdf`);
    assert.equal(pdf.status, 200);
    assert.equal(pdf.headers.get('content-type'), 'application/pdf');
    assert.equal(pdf.headers.get('cache-control'), 'public, max-age=86400');
    assert.equal(pdf.headers.get('content-disposition'), `inline; filename="certificate-${guid}.pdf"`);
    assert.equal(pdf.headers.get('access-control-allow-origin'), '*');
    const etag = pdf.headers.get('etag')!;
    assert.match(etag, /^"bafkrei[a-z0-9]+"$/);
    // The file the chain service rendered and stores under that CID.
    const stored = async (cid: string) => Buffer.from((await t.chain!.client.getContent({ cid }, { caller: t.user })).content);
    const pdfBytes = Buffer.from(await pdf.arrayBuffer());
    assert.equal(pdfBytes.subarray(0, 5).toString('latin1'), '%PDF-');
    assert.deepEqual(pdfBytes, await stored(etag.slice(1, -1)));

    const jpg = await get(`/certificates/${guid}.jpg`);
    assert.equal(jpg.headers.get('content-type'), 'image/jpeg');
    const jpgBytes = Buffer.from(await jpg.arrayBuffer());
    assert.deepEqual(jpgBytes.subarray(0, 3), Buffer.from([0xff, 0xd8, 0xff]));
    assert.deepEqual(jpgBytes, await stored(jpg.headers.get('etag')!.slice(1, -1)));

    const contents = t.chain!.count('getContent');
    const cached = await get(`/certificates/${guid}.pdf`, { 'if-none-match': etag });
    assert.equal(cached.status, 304);
    assert.equal(t.chain!.count('getContent'), contents, 'no content read for a 304');
    const read = t.chain!.calls.filter((c) => c.method === 'getNft').at(-1)!;
    assert.equal(read.caller, undefined, 'the public read has no caller');
  });

  test('unknown or malformed guids are 404; a certificate not rendered yet is 404 with the reason', async () => {
    const unknown = await get(`/certificates/${UNKNOWN}.pdf`);
    assert.equal(unknown.status, 404);
    assert.equal(((await unknown.json()) as any).code, 'NOT_FOUND');
    assert.equal((await get('/certificates/not-a-guid.pdf')).status, 404);
    const pending = await minted('Pending', false);
    const res = await get(`/certificates/${pending.guid}.jpg`);
    assert.equal(res.status, 404);
    assert.deepEqual(await res.json(), { message: `The certificate of NFT ${pending.guid} is not available: the mint is not confirmed yet.`, code: 'NOT_FOUND' });
  });
});

describe('GET /certificates/<guid>', () => {
  test('the landing page: what was certified, escaped; network, contract, token, transaction; the owner read from the chain', async () => {
    const relayedBefore = await nodeReads('relayed');
    const res = await get(`/certificates/${guid}`);
    assert.equal(res.status, 200);
    assertPageHeaders(res, 'public, max-age=60');
    const body = await res.text();
    assert.match(body, /<title>Certificate of trust: Solar &lt;Park&gt; &quot;2024&quot;<\/title>/);
    assert.match(body, /A &lt;b&gt;bold&lt;\/b&gt; claim/);
    assert.doesNotMatch(body, /<script/i);
    assert.match(body, /<th>Network<\/th><td>amoy<\/td>/);
    assert.match(body, new RegExp(`<th>Token id</th><td>${nftId}</td>`));
    assert.match(body, new RegExp(`href="${t.baseUrl.replace(/[.]/g, '\\.')}/explorer/amoy/tx/${mintHash}"`));
    assert.match(body, new RegExp(`${signer}</span> <span class="ok">\\(read from the chain now\\)`, 'i'));
    assert.match(body, new RegExp(`href="${guid}.pdf"`));
    assert.match(body, new RegExp(`href="${guid}.jpg"`));
    assert.match(body, /href="..\/ipfs\/bafkrei/);
    // Rendered by the chain service, which read the holder (ownerOf) from the node itself.
    assert.deepEqual(t.chain!.calls.filter((c) => c.method === 'renderCertificatePage').at(-1)!.request, { guid });
    assert.equal((await nodeReads('relayed')) - relayedBefore, 1, 'one ownerOf eth_call');
  });

  test('an unknown NFT is a 404 page', async () => {
    const res = await get(`/certificates/${UNKNOWN}`);
    assert.equal(res.status, 404);
    assertPageHeaders(res, 'no-store');
    assert.match(await res.text(), /No NFT/);
  });
});

describe('/claim', () => {
  test('GET shows the NFT and a form with the code hidden; no key; never cached', async () => {
    const { guid: g, nftId } = await minted('Wind farm');
    const sent = await call('send', { nftId, email: 'ann@example.org' }, { network: 'amoy' });
    const code = sent.info.transferCodes.receiver as string;
    const res = await get(`/claim?guid=${g}&code=${code}`);
    assert.equal(res.status, 200);
    assertPageHeaders(res, 'no-store');
    const body = await res.text();
    assert.match(body, /Someone sent you <strong>Wind farm<\/strong> \(token \d+ on amoy\)/);
    assert.match(body, new RegExp(`<input type="hidden" name="code" value="${code}">`));
    assert.match(body, new RegExp(`<input type="hidden" name="guid" value="${g}">`));
    assert.doesNotMatch(body, /ann@example.org/, 'the recipient is not shown publicly');
    // Without a code in the link, the form asks for it.
    assert.match(await (await get(`/claim?guid=${g}`)).text(), /<input type="text" id="code" name="code" required/);
    assert.match(await (await get('/claim')).text(), /Enter the receiver code/);
  });

  test('the page loads its one script from this gateway (CSP script-src \'self\'), which reads the code from the fragment', async () => {
    const page = await get('/claim');
    assert.match(page.headers.get('content-security-policy') ?? '', /; script-src 'self'$/);
    assert.match(await page.text(), /<script src="claim\/fill-code.js"><\/script>/);
    const script = await get('/claim/fill-code.js');
    assert.equal(script.status, 200);
    assert.equal(script.headers.get('content-type'), 'text/javascript; charset=utf-8');
    assert.match(await script.text(), /location\.hash/);
  });

  test("POST from Chromium's own form (Origin: null under no-referrer, Sec-Fetch-Site: same-origin) is not refused as cross-site", async () => {
    const sameOrigin = await postForm({ code: 'c', address: WALLET }, { origin: 'null', 'sec-fetch-site': 'same-origin' });
    assert.doesNotMatch(await sameOrigin.text(), /claim page of this site only/);
    const unknown = await postForm({ code: 'c', address: WALLET }, { origin: 'null' });
    assert.equal(unknown.status, 403, 'an opaque origin without the browser saying same-origin is refused');
  });

  test('POST takes only the form: JSON is refused; a cross-site post is refused', async () => {
    const json = await fetch(`${t.baseUrl}/claim`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ code: 'c', address: WALLET }) });
    assert.equal(json.status, 400);
    assert.match(((await json.json()) as any).message, /application\/x-www-form-urlencoded/);
    const calls = t.chain!.count('claimNft');
    const cross = await postForm({ code: 'c', address: WALLET }, { 'sec-fetch-site': 'cross-site' });
    assert.equal(cross.status, 403);
    assert.match(await cross.text(), /claim page of this site only/);
    const foreign = await postForm({ code: 'c', address: WALLET }, { origin: 'https://evil.example' });
    assert.equal(foreign.status, 403);
    assert.equal(t.chain!.count('claimNft'), calls, 'no claim was tried');
  });

  test('POST with the code and an address claims: the job and a status link; the code is spent', async () => {
    const { guid: g, nftId } = await minted('Hydro');
    const code = (await call('send', { nftId, email: 'bob@example.org' }, { network: 'amoy' })).info.transferCodes.receiver as string;
    const bad = await postForm({ guid: g, code, address: '0x1234' }, { origin: t.baseUrl, 'sec-fetch-site': 'same-origin' });
    assert.equal(bad.status, 400);
    const badBody = await bad.text();
    assert.match(badBody, /The address must be a wallet address/);
    assert.match(badBody, /<form method="post" action="claim">/, 'the form again, to correct the address');

    const res = await postForm({ guid: g, code, address: WALLET }, { origin: t.baseUrl, 'sec-fetch-site': 'same-origin' });
    assert.equal(res.status, 200);
    assertPageHeaders(res, 'no-store');
    const body = await res.text();
    const jobId = /<th>Transfer job<\/th><td><span class="mono">([0-9a-f-]{36})<\/span>/.exec(body)?.[1];
    assert.ok(jobId, body);
    assert.match(body, new RegExp(`href="certificates/${g}"`));
    const sent = t.chain!.calls.filter((c) => c.method === 'claimNft').at(-1)!;
    assert.equal(sent.caller, undefined);
    assert.deepEqual((sent.request as any).requestEcho, { solution: NFT, operation: 'claim', parameters: { address: WALLET, guid: g } });

    const again = await postForm({ guid: g, code, address: WALLET });
    assert.equal(again.status, 400);
    assert.match(await again.text(), /The receiver code was already used: the NFT was claimed./);
  });
});

describe('GET /explorer/<network>/block/<number>', () => {
  test('a mined block: its transactions, each linked to its receipt page; the receipt page links the block', async () => {
    const res = await get(`/explorer/amoy/block/${mintBlock}`);
    assert.equal(res.status, 200);
    assertPageHeaders(res, 'public, max-age=60');
    const body = await res.text();
    assert.match(body, new RegExp(`<th>Block</th><td>${mintBlock}</td>`));
    assert.match(body, new RegExp(`<a class="mono" href="/explorer/amoy/tx/${mintHash}">${mintHash}</a>`, 'i'));
    assert.match(body, /<th>Mined at<\/th><td><time datetime="\d{4}-\d\d-\d\dT/);
    const receipt = await (await get(`/explorer/amoy/tx/${mintHash}`)).text();
    assert.match(receipt, new RegExp(`<th>Block</th><td><a href="/explorer/amoy/block/${mintBlock}">${mintBlock}</a></td>`));
  });

  test('a block not mined yet is a 404 page; a malformed number a 400 page', async () => {
    const future = await get('/explorer/amoy/block/999999999999999');
    assert.equal(future.status, 404);
    assert.match(await future.text(), /has no block 999999999999999 yet/);
    for (const bad of ['-1', '012', '1e3', '0x10', '1'.repeat(16)]) {
      const res = await get(`/explorer/amoy/block/${bad}`);
      assert.equal(res.status, 400, bad);
      assert.match(await res.text(), /whole number of at most 15 digits/);
    }
  });
});

describe('GET /explorer/<network>/tx/<hash>', () => {
  test('the receipt of a mined transaction, read through the relay', async () => {
    const res = await get(`/explorer/amoy/tx/${mintHash}`);
    assert.equal(res.status, 200);
    assertPageHeaders(res, 'public, max-age=60');
    const body = await res.text();
    assert.match(body, /<span class="ok">success<\/span>/);
    assert.match(body, new RegExp(`<th>Block</th><td><a href="/explorer/amoy/block/${mintBlock}">${mintBlock}</a></td>`));
    assert.match(body, new RegExp(`<strong>Transfer</strong> of token ${nftId} minted to <span class="mono">${signer}`, 'i'));
  });

  test('the receipt page asks the node once however often it is opened, at once or later (cached, reads joined)', async () => {
    const { hash } = await minted('Hydro');
    // The chain service renders the page and reads the node itself (its NodeReadCache), on the relay's
    // pages quota: the gateway relays nothing, and the chain counts what reached the node.
    const relayedByGateway = () => t.chain!.calls.filter((c) => c.method === 'relayJsonRpc').length;
    const before = [relayedByGateway(), await nodeReads('relayed')];
    const pages = await Promise.all(Array.from({ length: 20 }, () => get(`/explorer/amoy/tx/${hash}`)));
    for (const page of pages) {
      assert.equal(page.status, 200);
      assert.match(await page.text(), /<span class="ok">success<\/span>/);
    }
    assert.equal((await get(`/explorer/amoy/tx/${hash}`)).status, 200);
    assert.equal((await nodeReads('relayed')) - before[1]!, 1, 'one eth_getTransactionReceipt for 21 pages');
    assert.equal(relayedByGateway() - before[0]!, 0);
    assert.equal(t.chain!.calls.filter((c) => c.method === 'renderExplorerPage').length >= 21, true);
  });

  test('an unknown transaction is a 404 page, a malformed hash a 400 page, an unknown network the service\'s 400', async () => {
    const unknown = await get(`/explorer/amoy/tx/0x${'9'.repeat(64)}`);
    assert.equal(unknown.status, 404);
    assert.match(await unknown.text(), /knows no transaction/);
    const malformed = await get('/explorer/amoy/tx/0x123');
    assert.equal(malformed.status, 400);
    assert.match(await malformed.text(), /0x and 64 hex digits/);
    const network = await get(`/explorer/goerli/tx/${mintHash}`);
    assert.equal(network.status, 400);
    assert.match(await network.text(), /Unknown network &quot;goerli&quot;/);
  });
});
