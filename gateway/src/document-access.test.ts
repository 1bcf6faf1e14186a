import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { DocumentLinks } from './document-links.js';
import { postCall } from '@green-impact/testing/gateway/v1-calls';
import { jsonHeaders, startTestGateway, type TestGateway } from '@green-impact/testing/gateway/real-gateway';
import { data, gqlAt } from '@green-impact/testing/gateway/graphql-calls';

/**
 * Access to written documents through the gateway, on the real services (identity, taxonomy rendering the
 * documents, chain writing them on its embedded network): the signed links getHtml*FromBlockchain and
 * Document.pageUrl hand out open the page without a key until they expire or are revoked, and say nothing
 * when altered; /ipfs/<cid> serves a public framework's document to anyone.
 */

const SECRET = 'N_onJngBdXzsBc8dkWpFNjrf5IxcELlR8eecTWdX_vw'; // random, made once for this test
const WRITE = { reporting_year: 2024, solution: 'SVC.Blockchain.Save', operation: 'save', version: 1, network: 'sepolia' };

let t: TestGateway;
/** The key of another account, which owns none of the documents. */
let strangerKey: string;
let privateJob: string;
let publicJob: string;
const ok = async (operation: string, parameters: Record<string, unknown>, headers = jsonHeaders(t.userKey)) => {
  const res = await postCall(t.baseUrl, { solution: 'SVC.ESG.Credits', operation, parameters }, headers);
  assert.equal(res.status, 200, res.text);
  return res.json as any;
};
const linkOf = async (jobId: string) => Object.values(await ok('getHtmlFrameworkFromBlockchain', { job_id: jobId }))[0] as string;
const open = (url: string, headers: Record<string, string> = {}) => fetch(url, { headers });

before(async () => {
  t = await startTestGateway({ DOCUMENT_LINK_SECRET: SECRET, DOCUMENT_LINK_TTL_SECONDS: '600' }, { taxonomy: true, chain: true });
  await t.loadExampleTaxonomy();
  strangerKey = (await t.createAccount('Stranger')).apiKey;
  await ok('addFramework', { framework_identifier: 'GBF-PRIV', framework_name: 'Private Framework', framework_currency_code: 'EUR' });
  await ok('addFramework', { framework_identifier: 'GBF-PUB', framework_name: 'Public Framework', framework_currency_code: 'EUR', framework_visibility: 'public' });
  for (const framework_identifier of ['GBF-PRIV', 'GBF-PUB']) {
    await ok('addYearSpecificsToFramework', { framework_identifier, value_outstanding: 1_000_000, allocated_amount: 800_000, value_outstanding_framework: 'yes', reporting_year: 2024 });
  }
  privateJob = (await ok('writeHtmlFrameworkToBlockchain', { ...WRITE, framework_identifier: 'GBF-PRIV' })).job_id;
  publicJob = (await ok('writeHtmlFrameworkToBlockchain', { ...WRITE, framework_identifier: 'GBF-PUB' })).job_id;
  for (const job of [privateJob, publicJob]) assert.equal((await t.settledJob(job)).error, undefined, `job ${job} completed`);
});
after(async () => {
  await t.stop();
});

describe('signed links to pages', () => {
  test('getHtmlFrameworkFromBlockchain hands out a signed link that opens without any header', async () => {
    const before = Math.floor(Date.now() / 1000);
    const url = await linkOf(privateJob);
    const parsed = new URL(url);
    assert.equal(`${parsed.origin}${parsed.pathname}`, `${t.baseUrl}/jobs/${privateJob}.html`);
    assert.deepEqual([...parsed.searchParams.keys()], ['v', 'exp', 'sig']);
    const exp = Number(parsed.searchParams.get('exp'));
    assert.ok(exp >= before + 600 && exp <= before + 602, 'DOCUMENT_LINK_TTL_SECONDS from now');
    const res = await open(url);
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('content-type'), 'text/html; charset=utf-8');
    assert.equal(res.headers.get('cache-control'), 'private, no-store');
    assert.equal(res.headers.get('referrer-policy'), 'no-referrer');
    // The taxonomy service's rendering of the framework.
    assert.match(await res.text(), /<title>Private Framework \(GBF-PRIV\), reporting year 2024<\/title>/);
    // The chain service renders the page (RenderDocumentPage), asked as a link: no caller, the link's epoch.
    const read = t.chain!.calls.filter((c) => c.method === 'renderDocumentPage').at(-1)!;
    assert.equal(read.caller, undefined, 'read as a link, not as an account');
    const { jobId, linkEpoch } = read.request as { jobId: string; linkEpoch?: number };
    assert.deepEqual({ jobId, linkEpoch }, { jobId: privateJob, linkEpoch: 0 });
    // A key alongside changes nothing: the link is judged by its signature.
    assert.equal((await open(url, { 'x-api-key': strangerKey })).status, 200);
  });

  test('altered, expired or foreign links are refused as pages: 404 saying nothing, 403 for a genuine expired one', async () => {
    const url = new URL(await linkOf(privateJob));
    const variant = (name: string, value: string) => {
      const u = new URL(url);
      u.searchParams.set(name, value);
      return u.toString();
    };
    const sig = url.searchParams.get('sig')!;
    const forged = [
      variant('sig', `${sig[0] === 'A' ? 'B' : 'A'}${sig.slice(1)}`),
      variant('exp', String(Number(url.searchParams.get('exp')) + 3600)),
      variant('v', '1'),
      `${t.baseUrl}/jobs/${publicJob}.html${url.search}`,
      `${t.baseUrl}/jobs/${privateJob}.html?sig=${sig}`,
    ];
    for (const link of forged) {
      const res = await open(link);
      assert.equal(res.status, 404, link);
      assert.equal(res.headers.get('content-type'), 'text/html; charset=utf-8');
      const text = await res.text();
      assert.match(text, /No such job/);
      assert.doesNotMatch(text, /Private Framework|expired/);
    }
    const past = new DocumentLinks({ secret: Buffer.from(SECRET), previousSecret: undefined, ttlSeconds: 60, generated: false }, () => Date.now() - 3_600_000);
    const expired = await open(past.sign(`${t.baseUrl}/jobs/${privateJob}.html`, privateJob, 0));
    assert.equal(expired.status, 403);
    assert.match(await expired.text(), /This link has expired\. Ask whoever sent it for a new one\./);
    // Without any link parameter the page still needs the key, as before.
    assert.equal((await open(`${t.baseUrl}/jobs/${privateJob}.html`)).status, 401);
  });

  test('revokeDocumentLinks: every link handed out so far stops opening; new ones open; only the owner revokes', async () => {
    const first = await linkOf(publicJob);
    assert.equal((await open(first)).status, 200);
    const stranger = await postCall(t.baseUrl, { solution: 'SVC.ESG.Credits', operation: 'revokeDocumentLinks', parameters: { job_id: publicJob } }, jsonHeaders(strangerKey));
    assert.equal(stranger.status, 404);
    assert.equal((await open(first)).status, 200);
    assert.deepEqual(await ok('revokeDocumentLinks', { job_id: publicJob }), { message: `The links to the document of job ${publicJob} are revoked.` });
    assert.equal((await open(first)).status, 404);
    const second = await linkOf(publicJob);
    assert.match(second, /\?v=1&/);
    assert.equal((await open(second)).status, 200);
    const revoked = data(await gqlAt(t.baseUrl, 'mutation($id: ID!) { revokeDocumentLinks(jobId: $id) { revoked { jobId linkEpoch } } }', { id: publicJob }, t.userKey));
    assert.deepEqual(revoked, { revokeDocumentLinks: { revoked: { jobId: publicJob, linkEpoch: 2 } } });
    assert.equal((await open(second)).status, 404);
    assert.equal((await open(`${t.baseUrl}/jobs/${publicJob}.html`, { 'x-api-key': t.userKey })).status, 200, 'the key still opens it');
  });

  test('GraphQL: Document.pageUrl is a signed link that opens without a key', async () => {
    const res = data(await gqlAt(t.baseUrl, 'query($id: ID!) { document(jobId: $id) { pageUrl content } }', { id: privateJob }, t.userKey));
    const { pageUrl, content } = res['document'];
    assert.match(pageUrl, new RegExp(`^${t.baseUrl}/jobs/${privateJob}\\.html\\?v=0&exp=\\d+&sig=[A-Za-z0-9_-]{43}$`));
    const page = await open(pageUrl);
    assert.equal(page.status, 200);
    assert.match(await page.text(), /<aside class="anchoring"/, 'the page: the document with its anchoring facts');
    const raw = await open(`${pageUrl}&raw=1`);
    assert.equal(await raw.text(), content, 'the document alone: the content GraphQL answers');
  });
});

describe('GET /ipfs/<cid> by visibility', () => {
  test("a public framework's document is served to anyone, shared and immutable", async () => {
    const page = await open(`${t.baseUrl}/jobs/${publicJob}.html`, { 'x-api-key': t.userKey });
    const cid = page.headers.get('x-document-cid')!;
    for (const headers of [{}, { 'x-api-key': strangerKey }, { 'x-api-key': t.userKey }] as Record<string, string>[]) {
      const res = await open(`${t.baseUrl}/ipfs/${cid}`, headers);
      assert.equal(res.status, 200);
      assert.equal(res.headers.get('cache-control'), 'public, max-age=31536000, immutable');
      assert.equal(res.headers.get('access-control-allow-origin'), '*');
    }
    const submitted = t.chain!.calls.filter((c) => c.method === 'submitDocument').map((c) => (c.request as { frameworkIdentifier: string; public?: boolean }));
    assert.deepEqual(submitted.map((r) => [r.frameworkIdentifier, r.public]), [['GBF-PRIV', false], ['GBF-PUB', true]]);
  });

  test('a refused key is 401, not a look at the content', async () => {
    const res = await open(`${t.baseUrl}/ipfs/bafkreiaaaa`, { 'x-api-key': 'no-such-key' });
    assert.equal(res.status, 401);
  });
});
