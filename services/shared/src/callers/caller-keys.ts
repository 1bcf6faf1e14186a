import { createPrivateKey, createPublicKey, generateKeyPairSync, type KeyObject } from 'node:crypto';
import { ConfigError } from '../config.js';

/**
 * Ed25519 keys of caller tokens, written as the base64url of their 32 raw bytes (a JWK's `d` and `x`):
 * short enough for an environment variable, and what `node scripts/caller-keys.mjs` prints.
 */
export interface CallerKeyPair {
  privateKey: KeyObject;
  publicKey: KeyObject;
}

// DER prefixes of an Ed25519 PKCS#8 private key and SPKI public key (RFC 8410); the 32 raw bytes follow.
const PKCS8_PREFIX = Buffer.from('302e020100300506032b657004220420', 'hex');
const SPKI_PREFIX = Buffer.from('302a300506032b6570032100', 'hex');
const BASE64URL = /^[A-Za-z0-9_-]{43}$/;

export function generateCallerKeyPair(): CallerKeyPair {
  return generateKeyPairSync('ed25519');
}

/** The private key from `name`'s value; a value that is not 32 random-looking bytes is refused. */
export function parsePrivateKey(name: string, text: string): CallerKeyPair {
  const raw = rawKey(name, text);
  // A random seed has about 30 distinct bytes; fewer than 16 is a typed or padded value, not a key.
  if (new Set(raw).size < 16) throw new ConfigError(`${name} is not a random key: generate one with node scripts/caller-keys.mjs.`);
  const privateKey = createPrivateKey({ key: Buffer.concat([PKCS8_PREFIX, raw]), format: 'der', type: 'pkcs8' });
  return { privateKey, publicKey: createPublicKey(privateKey) };
}

export function parsePublicKey(name: string, text: string): KeyObject {
  return createPublicKey({ key: Buffer.concat([SPKI_PREFIX, rawKey(name, text)]), format: 'der', type: 'spki' });
}

export function privateKeyText(key: KeyObject): string {
  return key.export({ format: 'jwk' }).d!;
}

export function publicKeyText(key: KeyObject): string {
  return key.export({ format: 'jwk' }).x!;
}

function rawKey(name: string, text: string): Buffer {
  // Never echoes the value: it may be a private key.
  if (!BASE64URL.test(text)) throw new ConfigError(`${name} must be an Ed25519 key: 43 base64url characters (32 bytes).`);
  return Buffer.from(text, 'base64url');
}
