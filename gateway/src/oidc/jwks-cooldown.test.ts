import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { startTestIssuer, TEST_AUDIENCE, type TestIssuer } from '@green-impact/testing/gateway/oidc-issuer';
import { BearerVerifier } from './bearer-tokens.js';
import { loadOidcIssuers } from './issuers.js';

/**
 * The JWKS cooldown (OIDC_JWKS_COOLDOWN_MS) at a value other than 0, against a real OpenID provider: a
 * token naming a key the gateway does not hold fetches the JWKS again at most once per cooldown, so a
 * flood of tokens with made-up or rotated key ids costs the provider nothing. Counted at the provider
 * (its /jwks requests), not timed: the cooldown is an hour here, far past this test.
 */
const ACCOUNT = '2f1e8c4a-0000-4000-8000-000000000abc';
let issuer: TestIssuer;
before(async () => {
  issuer = await startTestIssuer();
});
after(async () => {
  await issuer?.close();
});

const verifierWith = (cooldownMs: number) =>
  new BearerVerifier(loadOidcIssuers({ OIDC_ISSUERS: JSON.stringify([{ issuer: issuer.issuer, audience: TEST_AUDIENCE }]) }), { jwksCooldownMs: cooldownMs });

test('within the cooldown a rotated key is not fetched for: one JWKS fetch, however many tokens name the new key', async () => {
  const verifier = verifierWith(3_600_000);
  const before = issuer.jwksRequests;
  assert.equal((await verifier.verify(await issuer.mint({ subject: 'ann', account: ACCOUNT }))).subject, 'ann');
  assert.equal(issuer.jwksRequests, before + 1, 'the first token fetches the JWKS');
  await issuer.rotateKeys();
  const rotated = await issuer.mint({ subject: 'ann', account: ACCOUNT });
  for (let i = 0; i < 5; i++) await assert.rejects(verifier.verify(rotated), (err: Error) => err.name === 'UnauthenticatedError' || assert.fail(String(err)));
  assert.equal(issuer.jwksRequests, before + 1, 'no fetch within the cooldown');
});

test('with the cooldown at 0 the same rotation is fetched for at once and the new key accepted', async () => {
  const verifier = verifierWith(0);
  const before = issuer.jwksRequests;
  await verifier.verify(await issuer.mint({ subject: 'bo', account: ACCOUNT }));
  await issuer.rotateKeys();
  assert.equal((await verifier.verify(await issuer.mint({ subject: 'bo', account: ACCOUNT }))).subject, 'bo');
  assert.equal(issuer.jwksRequests, before + 2);
});
