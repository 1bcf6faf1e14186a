import { generateCallerKeyPair, parsePrivateKey, privateKeyText, publicKeyText } from '@green-impact/shared/callers/caller-keys';
import { callerTrust, useCallerTrust } from '@green-impact/shared/callers/caller-trust';
import { GATEWAY_ISSUER, RELAY_GRANTS } from '@green-impact/shared/callers/caller-verifier';

let keys: { CALLER_SIGNING_KEY: string; CALLER_TRUSTED_KEYS: string } | undefined;

/**
 * For a test that starts service processes of its own and calls them: makes this process sign (as every
 * issuer) and verify with one key pair, and answers the environment that makes a child trust it
 * (CALLER_TRUSTED_KEYS) or sign with it (CALLER_SIGNING_KEY, for a gateway child). A child that runs
 * services in its own process (the bench's system) passes its parent's CALLER_SIGNING_KEY as `signingKey`
 * to share the pair.
 */
export function callerKeysForChildren(signingKey?: string): { CALLER_SIGNING_KEY: string; CALLER_TRUSTED_KEYS: string } {
  if (keys) return keys;
  const { privateKey, publicKey } = signingKey ? parsePrivateKey('CALLER_SIGNING_KEY', signingKey) : generateCallerKeyPair();
  const issuers = [GATEWAY_ISSUER, ...Object.keys(RELAY_GRANTS)];
  useCallerTrust(callerTrust({ signing: Object.fromEntries(issuers.map((i) => [i, privateKey])), trusted: new Map(issuers.map((i) => [i, publicKey])) }));
  keys = {
    CALLER_SIGNING_KEY: privateKeyText(privateKey),
    CALLER_TRUSTED_KEYS: issuers.map((i) => `${i}=${publicKeyText(publicKey)}`).join(','),
  };
  return keys;
}
