import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Browser } from 'playwright-core';
import { launchChromium, skipWithoutChromium } from '@green-impact/testing/gateway/chromium';
import { JobStatus } from '@green-impact/proto/greenimpact/chain/v1/chain';
import { postCall } from '@green-impact/testing/gateway/v1-calls';
import { jsonHeaders, startTestGateway, type TestGateway } from '@green-impact/testing/gateway/real-gateway';

/**
 * The link getHtmlFrameworkFromBlockchain answers, opened in a real browser: Debian's Chromium driven by
 * playwright-core follows it with no header at all (nothing but the address, as when a user clicks it in
 * an e-mail) and sees the document; the same link altered shows the 404 page. As explorer.browser.test.ts:
 * .ci/run installs chromium; without it the test skips locally and fails under CI.
 */

let t: TestGateway;
let browser: Browser;
let link: string;
before(async () => {
  if (skipWithoutChromium) return;
  t = await startTestGateway({}, { taxonomy: true, chain: true });
  const ok = async (operation: string, parameters: Record<string, unknown>) => {
    const res = await postCall(t.baseUrl, { solution: 'SVC.ESG.Credits', operation, parameters }, jsonHeaders(t.userKey));
    assert.equal(res.status, 200, res.text);
    return res.json as any;
  };
  await ok('addFramework', { framework_identifier: 'GBF-LINK', framework_name: 'Linked Green Framework', framework_currency_code: 'EUR' });
  const { job_id } = await ok('writeHtmlFrameworkToBlockchain', {
    framework_identifier: 'GBF-LINK', reporting_year: 2024, solution: 'SVC.Blockchain.Save', operation: 'save', version: 1, network: 'sepolia',
  });
  assert.equal((await t.settledJob(job_id)).status, JobStatus.JOB_STATUS_COMPLETED, 'anchored on the embedded network');
  link = Object.values(await ok('getHtmlFrameworkFromBlockchain', { job_id }))[0] as string;
  browser = await launchChromium();
});
after(async () => {
  await browser?.close();
  await t?.stop();
});

test('the signed link opens the document in Chromium without any header; an altered one is a 404 page', { skip: skipWithoutChromium, timeout: 60_000 }, async () => {
  const context = await browser.newContext();
  const page = await context.newPage();
  const sent: Record<string, string>[] = [];
  page.on('request', (r) => sent.push(r.headers()));

  const answer = await page.goto(link);
  assert.equal(answer?.status(), 200);
  // The framework document as taxonomy renders it (services/taxonomy/src/documents/framework-html.ts).
  assert.equal(await page.title(), 'Linked Green Framework (GBF-LINK), reporting year 2024');
  await page.locator('.subtitle', { hasText: 'GBF-LINK' }).waitFor({ timeout: 10_000 });
  assert.ok(sent.every((h) => h['x-api-key'] === undefined), 'the browser sent no key');

  const altered = new URL(link);
  altered.searchParams.set('exp', String(Number(altered.searchParams.get('exp')) + 60));
  const refused = await page.goto(altered.toString());
  assert.equal(refused?.status(), 404);
  await page.locator('.error', { hasText: 'No such job' }).waitFor({ timeout: 10_000 });
  assert.doesNotMatch(await page.content(), /Linked Green Framework/);
  await context.close();
});
