import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { RunningSystem } from '@green-impact/embedded/system';
import type { Browser, Page } from 'playwright-core';
import { launchChromium, skipWithoutChromium } from '@green-impact/testing/gateway/chromium';
import { accessibilityViolations, screenshot } from '@green-impact/testing/gateway/page-checks';
import { testDatabases } from '@green-impact/testing/shared/databases';
import { ESG, seedAccount, seedReferenceData, YEAR, type AccountData } from './support/dataset.js';
import { until } from './support/poll.js';
import { createUserAccount, ok, startTestSystem } from './support/system.js';
import { conformingV1Client } from './support/answer-conformance.js';

const OPERATOR = 'document-pages-operator-key';
const SAVE = { solution: 'SVC.Blockchain.Save', operation: 'save', version: 1, network: 'sepolia' };

/**
 * The written documents as people see them, in Debian's Chromium (playwright-core) on the whole embedded
 * system: the framework and position-impacts pages opened from their signed links show how they are
 * anchored (network, transaction and block linked to the explorer, the content hash, the verification),
 * pass axe-core's WCAG 2.1 AA checks, and leave a screenshot under test-results/screenshots/. Without
 * Chromium the test skips locally and fails under CI (chromium.ts).
 */
describe('document pages in Chromium', { skip: skipWithoutChromium }, () => {
  let system: RunningSystem;
  let browser: Browser;
  let a: AccountData;
  const links = { framework: '', impacts: '' };
  const txHashes = { framework: '', impacts: '' };

  before(async () => {
    system = await startTestSystem(testDatabases[0]!, OPERATOR);
    const owner = await createUserAccount(system.gatewayUrl, OPERATOR, 'Page Owner');
    const esg = conformingV1Client(system.gatewayUrl, owner);
    a = await seedAccount(esg, 'P', await seedReferenceData(conformingV1Client(system.gatewayUrl, OPERATOR)));
    const write = async (operation: string, parameters: Record<string, unknown>) => (await ok(esg(ESG, operation, { reporting_year: YEAR, ...SAVE, ...parameters }), operation)).job_id as string;
    const jobs = {
      framework: await write('writeHtmlFrameworkToBlockchain', { framework_identifier: a.framework, sdg_goals_included: 'yes', eu_objectives_included: 'yes' }),
      impacts: await write('writeHtmlPositionImpactsToBlockchain', { position_id: a.positionId }),
    };
    for (const [name, jobId] of Object.entries(jobs) as [keyof typeof jobs, string][]) {
      const done = await until(() => ok(esg(ESG, 'getJobStatusFromBlockchain', { job_id: jobId }), 'status'), (s) => ['completed', 'failed'].includes(s.info.status.Value), `job ${jobId}`);
      assert.equal(done.info.status.Value, 'completed', JSON.stringify(done));
      txHashes[name] = done.info.hash;
      const reader = name === 'framework' ? 'getHtmlFrameworkFromBlockchain' : 'getHtmlPositionImpactsFromBlockchain';
      links[name] = Object.values(await ok(esg(ESG, reader, { job_id: jobId }), reader))[0] as string;
    }
    browser = await launchChromium();
  });
  after(async () => {
    await browser?.close();
    await system?.stop();
  });

  /** Opens a link in a fresh context (no key, nothing remembered), as someone clicking it in an e-mail. */
  async function open(url: string): Promise<{ page: Page; close: () => Promise<void> }> {
    // bypassCSP for axe-core only (page-checks.ts); the CSP the page is served with is checked here.
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, bypassCSP: true });
    const page = await context.newPage();
    const answer = await page.goto(url);
    assert.equal(answer?.status(), 200, url);
    assert.match((await answer!.allHeaders())['content-security-policy'] ?? '', /^default-src 'none'; style-src 'unsafe-inline'; img-src data:; sandbox$/);
    return { page, close: () => context.close() };
  }

  /** The anchoring panel's facts as the browser shows them. */
  async function anchoring(page: Page): Promise<Record<string, { text: string; href: string | null }>> {
    const aside = page.getByRole('complementary', { name: 'Anchored on the blockchain' });
    await aside.waitFor({ timeout: 10_000 });
    const facts: Record<string, { text: string; href: string | null }> = {};
    for (const item of await aside.locator('dl > div').all()) {
      const label = (await item.locator('dt').innerText()).trim();
      const dd = item.locator('dd');
      facts[label] = { text: (await dd.innerText()).trim(), href: (await dd.locator('a').count()) ? await dd.locator('a').getAttribute('href') : null };
    }
    assert.match(await aside.locator('.anchoring-status').innerText(), /^Verified: the content's SHA-256 equals the hash anchored on sepolia/);
    return facts;
  }

  for (const kind of ['framework', 'impacts'] as const) {
    it(`the ${kind} page shows how it is anchored, links the explorer, and hashes to what it says`, { timeout: 60_000 }, async () => {
      const { page, close } = await open(links[kind]);
      try {
        const facts = await anchoring(page);
        assert.equal(facts['Network']?.text, 'sepolia');
        assert.equal(facts['Transaction']?.text, txHashes[kind]);
        assert.match(facts['Block']?.text ?? '', /^\d+$/);
        const sha256 = facts['Content SHA-256']?.text ?? '';
        assert.match(sha256, /^[0-9a-f]{64}$/);
        // The embedded network has no explorer of its own: the gateway's receipt page, which names the block.
        const explorer = await page.context().newPage();
        const receipt = await explorer.goto(new URL(facts['Transaction']!.href!, links[kind]).toString());
        assert.equal(receipt?.status(), 200);
        assert.match(await explorer.locator('main').innerText(), new RegExp(`Block\\s+${facts['Block']!.text}\\b`));
        // "The document alone": exactly the bytes whose hash the panel shows.
        const rawHref = await page.getByRole('link', { name: 'The document alone' }).getAttribute('href');
        const raw = await fetch(new URL(rawHref!, links[kind]));
        assert.equal(raw.status, 200);
        const { createHash } = await import('node:crypto');
        assert.equal(createHash('sha256').update(Buffer.from(await raw.arrayBuffer())).digest('hex'), sha256);

        assert.deepEqual(await accessibilityViolations(page), [], 'axe-core finds nothing');
        assert.ok((await screenshot(page, `document-${kind}`)).length > 10_000, 'a screenshot of the page');
      } finally {
        await close();
      }
    });
  }
});
