import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Browser } from 'playwright-core';
import { launchChromium, skipWithoutChromium } from '@green-impact/testing/gateway/chromium';
import { startTestIssuer, TEST_AUDIENCE, type TestIssuer } from '@green-impact/testing/gateway/oidc-issuer';
import { startTestGateway, type TestGateway } from '@green-impact/testing/gateway/real-gateway';

/**
 * The explorer page signs in: Chromium opens /graphql, clicks "Sign in", meets the real OpenID provider
 * (oidc-provider on a loopback port: its login and consent pages), comes back with a code, and the page
 * exchanges it with its PKCE verifier; the query then runs as the person's account with the bearer token.
 * No token is typed anywhere. The page's CSP stays strict: scripts from the gateway only, requests to the
 * gateway and the issuer only.
 */

let t: TestGateway;
let issuer: TestIssuer;
let browser: Browser;
before(async () => {
  if (skipWithoutChromium) return;
  issuer = await startTestIssuer();
  t = await startTestGateway({
    GRAPHQL_EXPLORER: 'true',
    OIDC_ISSUERS: JSON.stringify([
      { issuer: issuer.issuer, audience: TEST_AUDIENCE, explorerClientId: issuer.explorerClientId, explorerAuthorizationParams: { resource: TEST_AUDIENCE } },
    ]),
  });
  await issuer.allowExplorerRedirect(`${t.baseUrl}/graphql`);
  issuer.setUser('alice', { account: t.user.accountId });
  browser = await launchChromium();
});
after(async () => {
  await browser?.close();
  await t?.stop();
  await issuer?.close();
});

test('the explorer signs in with the Authorization Code flow and PKCE, then queries with the token', { skip: skipWithoutChromium, timeout: 90_000 }, async () => {
  const page = await browser.newPage();
  const problems: string[] = [];
  const requested: { url: string; method: string; body: string | null; headers: Record<string, string> }[] = [];
  page.on('request', (r) => requested.push({ url: r.url(), method: r.method(), body: r.postData(), headers: r.headers() }));
  page.on('pageerror', (err) => problems.push(`page error: ${err.message}`));

  const explorer = await page.goto(`${t.baseUrl}/graphql?query=${encodeURIComponent('{ me { id name role } }')}`);
  const csp = explorer!.headers()['content-security-policy'] ?? '';
  assert.match(csp, /script-src 'self';/);
  assert.match(csp, new RegExp(`connect-src 'self' ${issuer.issuer.replace(/[.]/g, '\\.')};`));

  await page.click('#sign-in');
  // The provider's own pages (devInteractions): any login, then consent.
  await page.waitForURL((url) => url.href.startsWith(issuer.issuer), { timeout: 30_000 });
  const authorize = requested.find((r) => r.url.startsWith(`${issuer.issuer}/auth?`));
  assert.ok(authorize, 'the page went to the authorization endpoint');
  const asked = new URL(authorize.url).searchParams;
  assert.equal(asked.get('response_type'), 'code');
  assert.equal(asked.get('code_challenge_method'), 'S256');
  assert.match(asked.get('code_challenge') ?? '', /^[A-Za-z0-9_-]{43}$/);
  assert.equal(asked.get('redirect_uri'), `${t.baseUrl}/graphql`);
  await page.fill('input[name="login"]', 'alice');
  await page.fill('input[name="password"]', 'any');
  await page.click('button[type="submit"]');
  await page.locator('button', { hasText: 'Continue' }).click({ timeout: 30_000 });

  await page.waitForURL((url) => url.href.startsWith(`${t.baseUrl}/graphql`), { timeout: 30_000 });
  await page.locator('#signed-in', { hasText: 'Signed in as alice' }).waitFor({ timeout: 30_000 });
  assert.equal(new URL(page.url()).searchParams.get('code'), null, 'the code leaves the address bar');
  const exchange = requested.find((r) => r.url === `${issuer.issuer}/token` && r.method === 'POST');
  const form = new URLSearchParams(exchange?.body ?? '');
  assert.equal(form.get('grant_type'), 'authorization_code');
  assert.match(form.get('code_verifier') ?? '', /^[A-Za-z0-9_-]{43}$/);

  const run = page.locator('.graphiql-execute-button');
  await run.waitFor({ state: 'visible', timeout: 30_000 });
  await run.click();
  await page.locator('.result-window', { hasText: t.user.accountId }).waitFor({ timeout: 30_000 });
  assert.match(await page.locator('.result-window').innerText(), /"name": "Acme"/);
  const query = requested.filter((r) => r.url === `${t.baseUrl}/graphql` && r.method === 'POST').at(-1);
  assert.match(query?.headers['authorization'] ?? '', /^Bearer ey/);
  assert.equal(query?.headers['x-api-key'], undefined);
  assert.deepEqual(problems, []);
});
