import { existsSync } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';

/**
 * Debian's Chromium for the browser tests, driven by playwright-core. .ci/run installs it; without it
 * the tests skip locally (`skip` says why) and fail under CI.
 */
export const executablePath = process.env['CHROMIUM_PATH'] ?? '/usr/bin/chromium';
const available = existsSync(executablePath);
if (!available && process.env['CI']) throw new Error(`Chromium is required under CI but ${executablePath} does not exist (apt-get install chromium).`);

/** The `skip` option of a browser test: false when Chromium is there, else the reason. */
export const skipWithoutChromium: false | string = available ? false : `no Chromium at ${executablePath}`;

/** A headless Chromium, kept from calling home at start (the machine's network is closed). */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath,
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
}
