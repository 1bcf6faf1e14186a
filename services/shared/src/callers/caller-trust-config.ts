import type { KeyObject } from 'node:crypto';
import { ConfigError, type EnvReader } from '../config.js';
import { parsePrivateKey, parsePublicKey } from './caller-keys.js';
import { callerTrust, type CallerTrust } from './caller-trust.js';
import { GATEWAY_ISSUER, RELAY_GRANTS } from './caller-verifier.js';

/**
 * The caller keys of a standalone process, validated at start:
 * - CALLER_SIGNING_KEY: this process's Ed25519 private key, when it calls other services (`signsAs`: the
 *   gateway, and portfolio for its taxonomy reads).
 * - CALLER_TRUSTED_KEYS: `issuer=publicKey,…`, the issuers whose callers a service accepts (gateway always;
 *   portfolio on taxonomy), when it serves gRPC (`verifies`); an issuer named twice has two keys, the
 *   old and the new one while a key is rotated.
 */
export function loadCallerTrust(read: EnvReader, opts: { signsAs?: string | undefined; verifies: boolean }): CallerTrust {
  const signing: Record<string, KeyObject> = {};
  if (opts.signsAs !== undefined) {
    const text = read.optionalString('CALLER_SIGNING_KEY');
    if (text === undefined) throw new ConfigError(`CALLER_SIGNING_KEY is required: ${opts.signsAs} signs the caller of every call it makes (docs/configuration.md).`);
    signing[opts.signsAs] = parsePrivateKey('CALLER_SIGNING_KEY', text).privateKey;
  }
  const trusted = new Map<string, KeyObject[]>();
  for (const entry of read.list('CALLER_TRUSTED_KEYS')) {
    const [issuer, key, extra] = entry.split('=').map((s) => s.trim());
    if (!issuer || key === undefined || extra !== undefined) throw new ConfigError('CALLER_TRUSTED_KEYS must be issuer=publicKey pairs separated by commas.');
    if (issuer !== GATEWAY_ISSUER && !(issuer in RELAY_GRANTS)) {
      throw new ConfigError(`CALLER_TRUSTED_KEYS names "${issuer}", which signs no callers; issuers: ${[GATEWAY_ISSUER, ...Object.keys(RELAY_GRANTS)].join(', ')}.`);
    }
    // Twice while its key is rotated (docs/operations.md "Rotate keys"), never more.
    const keys = trusted.get(issuer) ?? [];
    if (keys.length === 2) throw new ConfigError(`CALLER_TRUSTED_KEYS names "${issuer}" more than twice (two keys while one is rotated).`);
    trusted.set(issuer, [...keys, parsePublicKey(`CALLER_TRUSTED_KEYS (${issuer})`, key)]);
  }
  if (opts.verifies && !trusted.has(GATEWAY_ISSUER)) {
    throw new ConfigError('CALLER_TRUSTED_KEYS must name the gateway\'s public key (gateway=…): a service accepts only callers the gateway signed.');
  }
  return callerTrust({ signing, trusted });
}
