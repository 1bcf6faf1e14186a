import type { KeyObject } from 'node:crypto';
import { CallerSigner } from './caller-signer.js';
import { CallerVerifier, GATEWAY_ISSUER, RELAY_GRANTS } from './caller-verifier.js';
import { generateCallerKeyPair } from './caller-keys.js';

/** The caller keys of this process: the issuers it signs as, and the issuers whose tokens it accepts. */
export interface CallerTrust {
  /** The signer of `issuer`; throws when this process holds no key for it (a configuration mistake). */
  signer(issuer: string): CallerSigner;
  verifier: CallerVerifier;
}

/** Signs as the issuers given their private keys, accepts the issuers given their public keys. */
export function callerTrust(opts: { signing?: Record<string, KeyObject>; trusted: ReadonlyMap<string, KeyObject | readonly KeyObject[]> }): CallerTrust {
  const signers = new Map(Object.entries(opts.signing ?? {}).map(([issuer, key]) => [issuer, new CallerSigner(issuer, key)]));
  return {
    signer(issuer) {
      const signer = signers.get(issuer);
      if (!signer) throw new Error(`This process holds no caller signing key of "${issuer}" (CALLER_SIGNING_KEY).`);
      return signer;
    },
    verifier: new CallerVerifier(new Map([...opts.trusted].map(([issuer, k]) => [issuer, Array.isArray(k) ? k : [k as KeyObject]]))),
  };
}

/**
 * One key pair made in this process, trusted as every issuer: the embedded system (every service and the
 * gateway in one process) and tests. No key leaves the process, so nothing outside it can sign a caller.
 */
export function inProcessCallerTrust(): CallerTrust {
  const { privateKey, publicKey } = generateCallerKeyPair();
  const issuers = [GATEWAY_ISSUER, ...Object.keys(RELAY_GRANTS)];
  return callerTrust({
    signing: Object.fromEntries(issuers.map((i) => [i, privateKey])),
    trusted: new Map(issuers.map((i) => [i, publicKey])),
  });
}

let current: CallerTrust | undefined;

/**
 * This process's caller trust: what a standalone process configured at start (useCallerTrust, from
 * CALLER_SIGNING_KEY / CALLER_TRUSTED_KEYS), else an in-process key pair made on first use. Process-wide
 * because a process has one identity whoever builds its clients and servers; a process that talks to
 * other processes always configures it (service-main.ts, the gateway's launcher), so the in-process pair
 * never signs anything another process would accept.
 */
export function processCallerTrust(): CallerTrust {
  return (current ??= inProcessCallerTrust());
}

export function useCallerTrust(trust: CallerTrust): void {
  current = trust;
}
