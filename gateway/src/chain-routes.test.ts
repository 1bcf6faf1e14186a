import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { JobStatus } from '@green-impact/proto/greenimpact/chain/v1/chain';
import { postCall } from '@green-impact/testing/gateway/v1-calls';
import { jsonHeaders, startTestGateway, type TestAccount, type TestGateway } from '@green-impact/testing/gateway/real-gateway';

/**
 * The chain's HTTP routes against the real chain service (its jobs run on its embedded networks, documents
 * rendered by the real taxonomy service) over gRPC: GET /jobs/<id>.html (verified
 * pages, private to the account), GET /ipfs/<cid> (public, immutable), POST /rpc/<network> (public relay),
 * and /readyz with a chain backend.
 */

const WRITE = { framework_identifier: 'GBF', reporting_year: 2024, solution: 'SVC.Blockchain.Save', operation: 'save', version: 1, network: 'sepolia' };

let t: TestGateway;
let ACME: Record<string, string>;
let other: TestAccount;
let htmlJob: string;
let jsonJob: string;
before(async () => {
  t = await startTestGateway({}, { taxonomy: true, chain: true });
  ACME = jsonHeaders(t.userKey);
  other = await t.createAccount('Other');
  await t.taxonomy!.client.addCurrency({ currencyCode: 'EUR' }, { caller: t.operator });
  const ok = async (operation: string, parameters: Record<string, unknown>) => {
    const res = await postCall(t.baseUrl, { solution: 'SVC.ESG.Credits', operation, parameters }, ACME);
    assert.equal(res.status, 200, res.text);
    return res.json as any;
  };
  await ok('addFramework', { framework_identifier: 'GBF', framework_name: 'Green <Bond> Framework', framework_currency_code: 'EUR' });
  htmlJob = (await ok('writeHtmlFrameworkToBlockchain', WRITE)).job_id;
  jsonJob = (await ok('writeJsonFrameworkToBlockchain', WRITE)).job_id;
  await completed(htmlJob);
  await completed(jsonJob);
});
after(async () => {
  await t.stop();
});

/** Waits for the chain service to run job `id` on its network; it must complete. */
async function completed(id: string): Promise<void> {
  const job = await t.settledJob(id);
  assert.equal(job.status, JobStatus.JOB_STATUS_COMPLETED, JSON.stringify(job));
}

const get = (path: string, headers: Record<string, string> = {}) => fetch(`${t.baseUrl}${path}`, { headers });

describe('GET /jobs/<job_id>.html', () => {
  test('serves the verified page with its content type and the document headers', async () => {
    const res = await get(`/jobs/${htmlJob}.html`, { 'x-api-key': t.userKey });
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('content-type'), 'text/html; charset=utf-8');
    assert.equal(res.headers.get('cache-control'), 'private, no-cache');
    assert.equal(res.headers.get('x-content-type-options'), 'nosniff');
    assert.match(res.headers.get('content-security-policy') ?? '', /default-src 'none'.*sandbox/);
    const cid = res.headers.get('x-document-cid');
    assert.match(cid ?? '', /^bafkrei/);
    const sha256 = res.headers.get('x-document-sha256') ?? '';
    assert.match(sha256, /^[0-9a-f]{64}$/);
    assert.equal(res.headers.get('etag'), null, 'the page carries the time of its verification');
    const text = await res.text();
    assert.match(text, /^<!DOCTYPE html>\n[\s\S]*<title>Green &lt;Bond&gt; Framework \(GBF\), reporting year 2024<\/title>/);
    // The anchoring facts around the document (pages/anchoring.ts): network, transaction, block, hash, status.
    const panel = /<aside class="anchoring"[\s\S]*?<\/aside>/.exec(text)?.[0] ?? '';
    assert.match(panel, /<strong>Verified<\/strong>: the content's SHA-256 equals the hash anchored on sepolia, read from the chain at <time datetime="\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ">/);
    assert.match(panel, /<dt>Network<\/dt><dd>sepolia<\/dd>/);
    assert.match(panel, /<dt>Transaction<\/dt><dd><a class="mono" href="[^"]+\/tx\/0x[0-9a-f]{64}">0x[0-9a-f]{64}<\/a><\/dd>/);
    assert.match(panel, /<dt>Block<\/dt><dd><a href="[^"]+">\d+<\/a><\/dd>/);
    assert.ok(panel.includes(`<span class="mono">${sha256}</span>`), 'the content hash');
    assert.ok(panel.includes(`<span class="mono">${cid}</span>`), 'the CID');

    // raw=1: exactly the anchored bytes, which the panel names and the headers hash.
    const raw = await get(`/jobs/${htmlJob}.html?raw=1`, { 'x-api-key': t.userKey });
    assert.equal(raw.status, 200);
    assert.equal(raw.headers.get('etag'), `"${cid}"`);
    assert.match(raw.headers.get('content-security-policy') ?? '', /default-src 'none'.*sandbox/);
    const bytes = Buffer.from(await raw.arrayBuffer());
    assert.equal(createHash('sha256').update(bytes).digest('hex'), sha256);
    assert.ok(!bytes.toString('utf8').includes('class="anchoring"'));
    assert.ok(panel.includes(`href="/jobs/${htmlJob}.html?raw=1"`), 'the panel links the bytes alone');
    // The document's bytes stand unchanged in the page, the panel and its style around them.
    const [head, rest] = [bytes.toString('utf8').split('</head>')[0]!, bytes.toString('utf8').split('<body>')[1]!];
    assert.ok(text.startsWith(head) && text.endsWith(rest), 'the document is unchanged inside the page');
    assert.equal((await get(`/jobs/${htmlJob}.html?raw=yes`, { 'x-api-key': t.userKey })).status, 400);
  });

  test('needs the account key: jobs are private', async () => {
    const res = await get(`/jobs/${htmlJob}.html`);
    assert.equal(res.status, 401);
    assert.deepEqual(await res.json(), { message: 'Please submit client identifier.', code: 'UNAUTHENTICATED' });
    const theirs = await get(`/jobs/${htmlJob}.html`, { 'x-api-key': other.apiKey });
    assert.equal(theirs.status, 404);
    assert.equal(((await theirs.json()) as any).code, 'NOT_FOUND');
  });

  test('unknown job 404; a JSON document has no page; a job not yet completed is 400', async () => {
    const unknown = await get('/jobs/00000000-0000-4000-8000-000000000000.html', { 'x-api-key': t.userKey });
    assert.equal(unknown.status, 404);
    assert.deepEqual(await unknown.json(), { message: 'No such job 00000000-0000-4000-8000-000000000000.', code: 'NOT_FOUND' });
    const json = await get(`/jobs/${jsonJob}.html`, { 'x-api-key': t.userKey });
    assert.equal(json.status, 404);
    assert.deepEqual(await json.json(), { message: `Job ${jsonJob} has no HTML document: it holds a JSON document.`, code: 'NOT_FOUND' });
    // The chain's worker stopped meanwhile (as on a replica without one): the job stays queued.
    await t.chainLevers!.stopWorker();
    try {
      const res = await postCall(t.baseUrl, { solution: 'SVC.ESG.Credits', operation: 'writeHtmlFrameworkToBlockchain', parameters: WRITE }, ACME);
      const pending = await get(`/jobs/${(res.json as any).job_id}.html`, { 'x-api-key': t.userKey });
      assert.equal(pending.status, 400);
      assert.equal(((await pending.json()) as any).code, 'FAILED_PRECONDITION');
    } finally {
      await t.chainLevers!.startWorker();
    }
    assert.equal((await get(`/jobs/${htmlJob}`, { 'x-api-key': t.userKey })).status, 404);
  });

  test('the chain facts are read from the node on the first view only; the content is hashed on every view, so a tampered file fails at once', async () => {
    // Its own bytes (another precision): tampering with them touches no other test's document.
    const res = await postCall(t.baseUrl, { solution: 'SVC.ESG.Credits', operation: 'writeHtmlFrameworkToBlockchain', parameters: { ...WRITE, decimals: 1 } }, ACME);
    const jobId = (res.json as any).job_id as string;
    await completed(jobId);
    const node = t.chainLevers!.watchNodeRequests('sepolia');
    const first = await get(`/jobs/${jobId}.html`, { 'x-api-key': t.userKey });
    assert.equal(first.status, 200);
    const readAt = /read from the chain at <time datetime="([^"]+)">/.exec(await first.text())?.[1];
    const firstReads = node.splice(0);
    assert.ok(firstReads.includes('eth_call') && firstReads.includes('eth_getTransactionReceipt'), `the first view reads the anchor and the receipt: ${firstReads.join(', ')}`);
    const second = await get(`/jobs/${jobId}.html`, { 'x-api-key': t.userKey });
    assert.equal(second.status, 200);
    const page = await second.text();
    assert.deepEqual(node.splice(0), [], 'the second view asks the node nothing');
    // The page says when the chain facts were read (the first view), and that the content was hashed now.
    assert.ok(page.includes(`read from the chain at <time datetime="${readAt}">`), 'the same chain read time');
    assert.match(page, /the stored content was hashed again when this page was served, at <time datetime="[^"]+">|read from the chain at <time datetime="[^"]+">[^<]+<\/time> when this page was served/);
    // Tampered with after that: the very next view refuses it, still without asking the node.
    const { cid } = await t.chain!.client.getDocument({ jobId }, { caller: t.user });
    assert.deepEqual(node.splice(0), []);
    await writeFile(join(t.chainLevers!.contentDir, 'blocks', cid), '<!doctype html><p>changed</p>');
    const tampered = await get(`/jobs/${jobId}.html`, { 'x-api-key': t.userKey });
    assert.equal(tampered.status, 400);
    assert.match(((await tampered.json()) as { message: string }).message, new RegExp(`^The document of job ${jobId} does not match its anchor`));
    assert.deepEqual(node.splice(0), [], 'the kept facts caught it');
  });

  test('a page that no longer matches its anchor is refused, never served', async () => {
    const res = await postCall(t.baseUrl, { solution: 'SVC.ESG.Credits', operation: 'writeHtmlFrameworkToBlockchain', parameters: { ...WRITE, decimals: 3 } }, ACME);
    const jobId = (res.json as any).job_id as string;
    await completed(jobId);
    // Its stored bytes changed in the chain's content store.
    const { cid } = await t.chain!.client.getDocument({ jobId }, { caller: t.user });
    await writeFile(join(t.chainLevers!.contentDir, 'blocks', cid), '<!doctype html><p>changed</p>');
    const page = await get(`/jobs/${jobId}.html`, { 'x-api-key': t.userKey });
    assert.equal(page.status, 400);
    assert.equal(page.headers.get('content-type'), 'application/json; charset=utf-8');
    const body = (await page.json()) as any;
    assert.equal(body.code, 'FAILED_PRECONDITION');
    assert.match(body.message, new RegExp(`^The document of job ${jobId} does not match its anchor`));
  });
});

describe('GET /ipfs/<cid>', () => {
  test("a private framework's document: only with the account's key, never shared; 304 for a known ETag", async () => {
    const page = await get(`/jobs/${htmlJob}.html?raw=1`, { 'x-api-key': t.userKey });
    const cid = page.headers.get('x-document-cid')!;
    const res = await get(`/ipfs/${cid}`, { 'x-api-key': t.userKey });
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('content-type'), 'text/html; charset=utf-8');
    assert.equal(res.headers.get('cache-control'), 'private, no-cache');
    assert.equal(res.headers.get('vary'), 'X-Api-Key');
    assert.equal(res.headers.get('etag'), `"${cid}"`);
    assert.equal(res.headers.get('access-control-allow-origin'), null);
    assert.equal(await res.text(), await page.text());
    assert.equal(t.chain!.calls.filter((c) => c.method === 'getContent').at(-1)!.caller?.accountId, t.user.accountId);
    const again = await get(`/ipfs/${cid}`, { 'x-api-key': t.userKey, 'if-none-match': `W/"x", "${cid}"` });
    assert.equal(again.status, 304);
    // Without a key or with another account's: the answer of an unknown CID, and a 304 only to whom may read it.
    for (const headers of [{}, { 'x-api-key': other.apiKey }, { 'if-none-match': `"${cid}"` }] as Record<string, string>[]) {
      const refused = await get(`/ipfs/${cid}`, headers);
      assert.equal(refused.status, 404);
      assert.deepEqual(await refused.json(), { message: `No content with CID ${cid}.`, code: 'NOT_FOUND' });
    }
  });

  test('unknown CID 404, not a CID 400', async () => {
    const unknown = await get('/ipfs/bafkreiaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa');
    assert.equal(unknown.status, 404);
    assert.equal(((await unknown.json()) as any).code, 'NOT_FOUND');
    const bad = await get('/ipfs/not-a-cid');
    assert.equal(bad.status, 400);
    assert.deepEqual(await bad.json(), { message: '"not-a-cid" is not a CID.', code: 'INVALID_ARGUMENT' });
  });
});

describe('POST /rpc/<network>', () => {
  const rpc = (network: string, body: string, headers: Record<string, string> = { 'content-type': 'application/json' }) =>
    fetch(`${t.baseUrl}/rpc/${network}`, { method: 'POST', headers, body });

  test('relays a JSON-RPC request without a key and answers JSON-RPC', async () => {
    const res = await rpc('sepolia', JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_blockNumber', params: [] }));
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('content-type'), 'application/json; charset=utf-8');
    assert.equal(res.headers.get('access-control-allow-origin'), '*');
    assert.match(((await res.json()) as { jsonrpc: string; id: number; result: string }).result, /^0x[0-9a-f]+$/);
    const sent = t.chain!.calls.filter((c) => c.method === 'relayJsonRpc').at(-1)!;
    assert.equal(sent.caller, undefined, 'public: no caller');
    // Any content type is relayed as it came (some clients send text/plain).
    const plain = await rpc('mumbai', JSON.stringify({ jsonrpc: '2.0', id: 'a', method: 'eth_sendRawTransaction', params: ['0x00'] }), { 'content-type': 'text/plain' });
    assert.equal(plain.status, 200);
    assert.equal(((await plain.json()) as any).error.code, -32601);
  });

  test('an unknown network is 400 with the known ones; a CORS preflight is answered', async () => {
    const res = await rpc('goerli', '{}');
    assert.equal(res.status, 400);
    assert.deepEqual(await res.json(), { message: 'Unknown network "goerli"; expected one of sepolia, amoy, mumbai.', code: 'INVALID_ARGUMENT' });
    const preflight = await fetch(`${t.baseUrl}/rpc/sepolia`, { method: 'OPTIONS', headers: { origin: 'https://dapp.example', 'access-control-request-method': 'POST' } });
    assert.equal(preflight.status, 204);
    assert.equal(preflight.headers.get('access-control-allow-methods'), 'POST, OPTIONS');
    assert.equal(preflight.headers.get('access-control-allow-headers'), 'Content-Type');
  });

  test('a body over the limit is 413', async () => {
    const res = await rpc('sepolia', 'x'.repeat(20_000));
    assert.equal(res.status, 413);
  });
});

test('GET /trust-anchor.json: public, per chain id the contracts and signer that the proofs of getDocumentProof name (issue 46)', async () => {
  const res = await get('/trust-anchor.json');
  assert.equal(res.status, 200);
  assert.equal(res.headers.get('content-type'), 'application/json; charset=utf-8');
  assert.equal(res.headers.get('access-control-allow-origin'), '*');
  const anchor = (await res.json()) as Record<string, { network: string; signer: string; contracts: Record<string, string> }>;
  assert.equal(t.chain!.calls.filter((c) => c.method === 'getTrustAnchor').at(-1)!.caller, undefined, 'public: no caller');
  const { networks } = await t.chain!.client.listNetworks({}, { caller: t.user });
  const sepolia = networks.find((n) => n.name === 'sepolia')!;
  assert.deepEqual(
    { network: anchor[String(sepolia.chainId)]!.network, signer: anchor[String(sepolia.chainId)]!.signer, registry: anchor[String(sepolia.chainId)]!.contracts['documentRegistry'] },
    { network: 'sepolia', signer: sepolia.signerAddress, registry: sepolia.documentRegistryAddress },
  );
  assert.equal(Object.keys(anchor).length, networks.filter((n) => !n.aliasOf).length, 'each network once, aliases left out');
  const proved = await postCall(t.baseUrl, { solution: 'SVC.ESG.Credits', operation: 'getDocumentProof', parameters: { job_id: htmlJob } }, ACME);
  const { verified, reason, proof } = proved.json as unknown as { verified: boolean; reason?: string; proof: { chainId: number; contract: string } };
  assert.deepEqual([verified, reason], [true, undefined]);
  assert.ok(Object.values(anchor[String(proof.chainId)]!.contracts).includes(proof.contract), 'the proof names a contract the anchor trusts');
});

test('/readyz checks the chain backend', async () => {
  const res = await get('/readyz');
  assert.equal(res.status, 200);
  assert.deepEqual(((await res.json()) as any).backends, { identity: 'SERVING', taxonomy: 'SERVING', chain: 'SERVING' });
});

test('without a chain backend the routes answer 503', async () => {
  const bare = await t.another({ CHAIN_GRPC_ADDR: undefined });
  try {
    const res = await fetch(`${bare.baseUrl}/ipfs/bafkreiabc`);
    assert.equal(res.status, 503);
    assert.equal(((await res.json()) as any).code, 'UNAVAILABLE');
    const rpc = await fetch(`${bare.baseUrl}/rpc/sepolia`, { method: 'POST', body: '{}' });
    assert.equal(rpc.status, 503);
  } finally {
    await bare.stop();
  }
});
