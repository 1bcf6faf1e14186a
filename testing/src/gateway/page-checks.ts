import { mkdir, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';

/**
 * What the browser tests check on every page they open: axe-core's automated accessibility rules (WCAG 2.1
 * A and AA, and axe's best practices), and a screenshot kept for people to look at.
 */

const axeSource = (createRequire(import.meta.url)('axe-core') as { source: string }).source;

/** The rule sets axe runs: WCAG 2.0/2.1 levels A and AA and axe's best practices. */
const AXE_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'];

interface AxeResult {
  violations: { id: string; impact?: string; help: string; nodes: { target: unknown[] }[] }[];
}

/**
 * axe-core's violations on the page, one line each (rule, impact, what it asks, where). The source is
 * evaluated through the DevTools protocol. Open the page in a context with `bypassCSP: true`: in a
 * document served with CSP `sandbox` (the written documents) axe.run never settles; the CSP changes no
 * markup or style the rules look at (inline styles are allowed there).
 */
export async function accessibilityViolations(page: Page): Promise<string[]> {
  await page.evaluate(axeSource);
  // A string, not a function: this package compiles without the DOM's types.
  const result = (await page.evaluate(`axe.run(document, { runOnly: { type: 'tag', values: ${JSON.stringify(AXE_TAGS)} } })`)) as AxeResult;
  return result.violations.map((v) => `${v.id} (${v.impact ?? 'n/a'}): ${v.help} at ${v.nodes.map((n) => n.target.join(' ')).join('; ')}`);
}

/** Where the browser tests leave their screenshots: `test-results/screenshots/` at the repository root. */
export const SCREENSHOT_DIR = new URL('../../../test-results/screenshots/', import.meta.url);

/** A full-page PNG of the page under SCREENSHOT_DIR; answers its bytes. */
export async function screenshot(page: Page, name: string): Promise<Buffer> {
  await mkdir(SCREENSHOT_DIR, { recursive: true });
  const png = await page.screenshot({ fullPage: true, type: 'png' });
  await writeFile(new URL(`${name}.png`, SCREENSHOT_DIR), png);
  return png;
}
