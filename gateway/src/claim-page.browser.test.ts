import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Browser } from 'playwright-core';
import { launchChromium, skipWithoutChromium } from '@green-impact/testing/gateway/chromium';
import { JobStatus } from '@green-impact/proto/greenimpact/chain/v1/chain';
import { postCall } from '@green-impact/testing/gateway/v1-calls';
import { jsonHeaders, startTestGateway, type TestGateway } from '@green-impact/testing/gateway/real-gateway';
import { serveNftImage } from '@green-impact/testing/gateway/nft-image';

/**
 * The claim link as the e-mail now carries it (`/claim?guid=…#code=…`, services/chain/src/mail/claim-email.ts),
 * opened in Debian's Chromium: the code is in the fragment, so no request the browser makes carries it in its
 * address (what access logs keep); the page's script, allowed by its strict CSP, puts it into the form and
 * out of the address bar, and the form POSTs it. As explorer.browser.test.ts: without Chromium the test
 * skips locally and fails under CI.
 */

const NFT = 'SVC.NFT.zK';
const WALLET = '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed';

let t: TestGateway;
let browser: Browser;
let image: Awaited<ReturnType<typeof serveNftImage>>;
before(async () => {
  if (skipWithoutChromium) return;
  // The NFT's image is fetched for real: from this process, on loopback.
  image = await serveNftImage();
  t = await startTestGateway({}, { chain: true, nftImage: { allowPrivateHosts: true } });
  browser = await launchChromium();
});
after(async () => {
  await browser?.close();
  await t?.stop();
  await image?.close();
});

async function call(operation: string, parameters: Record<string, unknown>, envelope: Record<string, unknown> = { version: 1, network: 'amoy' }): Promise<any> {
  const res = await postCall(t.baseUrl, { solution: NFT, operation, ...envelope, parameters }, jsonHeaders(t.userKey));
  assert.equal(res.status, 200, res.text);
  return res.json;
}

test('a #code= link: the code reaches the server only in the POST body, under the page\'s CSP, and leaves the address bar', { skip: skipWithoutChromium, timeout: 60_000 }, async () => {
  const { info } = await call('new', { name: 'Fragment Farm', description: 'd', image: image.url });
  assert.equal((await t.settledJob(info.jobId)).status, JobStatus.JOB_STATUS_COMPLETED, 'minted on the embedded network');
  const { guid, result } = (await call('fetch', { jobId: info.jobId }, {})).info;
  const code = (await call('send', { nftId: result.nftId, email: 'ann@example.org' })).info.transferCodes.receiver as string;

  const context = await browser.newContext();
  const page = await context.newPage();
  const requests: { url: string; method: string; body: string | null }[] = [];
  page.on('request', (r) => requests.push({ url: r.url(), method: r.method(), body: r.postData() }));
  const violations: string[] = [];
  page.on('console', (m) => {
    if (/Content Security Policy|Refused to/.test(m.text())) violations.push(m.text());
  });

  const answer = await page.goto(`${t.baseUrl}/claim?guid=${guid}#code=${code}`);
  assert.equal(answer?.status(), 200);
  assert.match((await answer!.allHeaders())['content-security-policy'] ?? '', /default-src 'none'.*script-src 'self'/);
  await page.waitForFunction(`document.getElementById('code')?.value === ${JSON.stringify(code)}`, undefined, { timeout: 10_000 });
  assert.equal(new URL(page.url()).hash, '', 'the code left the address bar');
  await page.fill('#address', WALLET);
  await Promise.all([page.waitForURL(/\/claim$/), page.click('button[type=submit]')]);
  await page.locator('.ok', { hasText: 'Your claim was accepted.' }).waitFor({ timeout: 10_000 }).catch(async (e) => assert.fail(`${e}: ${await page.content()}`));

  assert.deepEqual(violations, [], 'nothing refused by the CSP');
  assert.ok(requests.some((r) => r.url.endsWith('/claim/fill-code.js')), 'the script was loaded from this gateway');
  assert.ok(requests.every((r) => !r.url.includes(code)), `no request address carries the code: ${requests.map((r) => r.url).join(', ')}`);
  const posted = requests.filter((r) => r.method === 'POST');
  assert.equal(posted.length, 1);
  assert.equal(new URLSearchParams(posted[0]!.body ?? '').get('code'), code, 'the code travelled in the POST body');
  const claimed = t.chain!.calls.filter((c) => c.method === 'claimNft').at(-1)!;
  assert.equal((claimed.request as { receiverCode: string }).receiverCode, code);
  await context.close();
});
