import { existsSync } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';
import { skipUnless } from '../shared/skip-rule.js';

/**
 * Debian's Chromium for the browser tests, driven by playwright-core. .ci/run installs it; without it
 * the tests skip locally (`skip` says why) and fail under CI.
 */
export const executablePath = process.env['CHROMIUM_PATH'] ?? '/usr/bin/chromium';

/** The `skip` option of a browser test: false when Chromium is there, else the reason (under CI: throws, apt-get install chromium). */
export const skipWithoutChromium: false | string = skipUnless(existsSync(executablePath), `no Chromium at ${executablePath}`);

/** A headless Chromium, kept from calling home at start (the machine's network is closed). */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath,
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
}
