import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { ConfigError, envReader } from '../config.js';
import { generateCallerKeyPair, privateKeyText, publicKeyText } from './caller-keys.js';
import { loadCallerTrust } from './caller-trust-config.js';

const gateway = generateCallerKeyPair();
const portfolio = generateCallerKeyPair();
const IDENTITY = 'greenimpact.identity.v1.IdentityService';
const load = (env: Record<string, string>, opts: Parameters<typeof loadCallerTrust>[1]) => loadCallerTrust(envReader(env), opts);
const refused = (env: Record<string, string>, opts: Parameters<typeof loadCallerTrust>[1], message: RegExp) =>
  assert.throws(() => load(env, opts), (err: unknown) => err instanceof ConfigError && message.test(err.message) && !err.message.includes(privateKeyText(gateway.privateKey)));
const gatewaySigning = (key: ReturnType<typeof generateCallerKeyPair>) =>
  load({ CALLER_SIGNING_KEY: privateKeyText(key.privateKey) }, { signsAs: 'gateway', verifies: false }).signer('gateway');

/** CALLER_SIGNING_KEY / CALLER_TRUSTED_KEYS are checked before a standalone process starts. */
describe('caller key configuration', () => {
  it('refuses to start a signer without its key, or with a key that is not one', () => {
    refused({}, { signsAs: 'gateway', verifies: false }, /CALLER_SIGNING_KEY is required/);
    refused({ CALLER_SIGNING_KEY: 'secret' }, { signsAs: 'gateway', verifies: false }, /43 base64url characters/);
    refused({ CALLER_SIGNING_KEY: 'A'.repeat(43) }, { signsAs: 'gateway', verifies: false }, /not a random key/);
    refused({ CALLER_SIGNING_KEY: `${privateKeyText(gateway.privateKey)}x` }, { signsAs: 'gateway', verifies: false }, /Ed25519 key/);
  });

  it('refuses to start a service that trusts no gateway key, or names an issuer that signs nothing', () => {
    refused({}, { verifies: true }, /must name the gateway's public key/);
    refused({ CALLER_TRUSTED_KEYS: `portfolio=${publicKeyText(portfolio.publicKey)}` }, { verifies: true }, /must name the gateway's public key/);
    refused({ CALLER_TRUSTED_KEYS: `mallory=${publicKeyText(portfolio.publicKey)}` }, { verifies: true }, /names "mallory", which signs no callers/);
    refused({ CALLER_TRUSTED_KEYS: `gateway:${publicKeyText(gateway.publicKey)}` }, { verifies: true }, /issuer=publicKey pairs/);
    refused({ CALLER_TRUSTED_KEYS: [1, 2, 3].map(() => `gateway=${publicKeyText(gateway.publicKey)}`).join(',') }, { verifies: true }, /more than twice/);
  });

  it('signs as the configured issuer only and trusts the configured keys', async () => {
    const env = { CALLER_SIGNING_KEY: privateKeyText(gateway.privateKey), CALLER_TRUSTED_KEYS: `gateway=${publicKeyText(gateway.publicKey)}, portfolio=${publicKeyText(portfolio.publicKey)}` };
    const trust = load(env, { signsAs: 'gateway', verifies: true });
    assert.deepEqual(trust.verifier.issuers, ['gateway', 'portfolio']);
    assert.throws(() => trust.signer('portfolio'), /no caller signing key of "portfolio"/);
    const token = trust.signer('gateway').token({ accountId: 'a', role: 'user' }, IDENTITY);
    assert.deepEqual((await trust.verifier.verify(token, IDENTITY, 'GetGroups')).caller, { accountId: 'a', role: 'user' });
  });

  it('trusts an old and a new gateway key while the key is rotated, and only the new one after', async () => {
    const next = generateCallerKeyPair();
    const both = load({ CALLER_TRUSTED_KEYS: `gateway=${publicKeyText(gateway.publicKey)},gateway=${publicKeyText(next.publicKey)}` }, { verifies: true });
    for (const key of [gateway, next]) {
      assert.equal((await both.verifier.verify(gatewaySigning(key).token(undefined, IDENTITY), IDENTITY, 'Authenticate')).issuer, 'gateway');
    }
    const retired = load({ CALLER_TRUSTED_KEYS: `gateway=${publicKeyText(next.publicKey)}` }, { verifies: true });
    await assert.rejects(retired.verifier.verify(gatewaySigning(gateway).token(undefined, IDENTITY), IDENTITY, 'Authenticate'), { code: 'UNAUTHENTICATED' });
  });
});
