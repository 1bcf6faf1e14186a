import { createCipheriv, createDecipheriv, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { InvalidArgumentError } from './errors.js';

/**
 * PII encryption at rest (AES-256-GCM). Keys come from generateEncryptionKey and are never stored: a
 * record keeps only a fingerprint (HMAC of the key) so a read can tell "no key" from "wrong key" and
 * answer clearly instead of returning garbage. Ciphertexts are bound to their field via AAD, so one
 * field's ciphertext cannot be pasted into another.
 */
export const MASKED = '********';
const VERSION = 'v1';
const FINGERPRINT_LABEL = 'green-impact/pii-key-fingerprint/v1';

export const WRONG_KEY_MESSAGE = 'The decryption key does not match the key the data was encrypted with.';

export function generateEncryptionKey(): string {
  return randomBytes(32).toString('hex');
}

export function parseEncryptionKey(key: string, parameter = 'encryption_key'): Buffer {
  if (!/^[0-9a-fA-F]{64}$/.test(key)) {
    throw new InvalidArgumentError(`${parameter} must be 64 hexadecimal characters, as generateEncryptionKey returns.`, { field: parameter });
  }
  return Buffer.from(key, 'hex');
}

export function keyFingerprint(key: Buffer): string {
  return createHmac('sha256', key).update(FINGERPRINT_LABEL).digest('hex');
}

export function fingerprintMatches(key: Buffer, fingerprint: string): boolean {
  const a = Buffer.from(keyFingerprint(key), 'hex');
  const b = Buffer.from(fingerprint, 'hex');
  return a.length === b.length && timingSafeEqual(a, b);
}

export function encryptField(plain: string, key: Buffer, field: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  cipher.setAAD(Buffer.from(field));
  const ct = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
  const tag = cipher.getAuthTag();
  return `${VERSION}.${Buffer.concat([iv, tag, ct]).toString('base64')}`;
}

export function decryptField(blob: string, key: Buffer, field: string): string {
  const [version, body] = blob.split('.', 2);
  if (version !== VERSION || body === undefined) throw new InvalidArgumentError(WRONG_KEY_MESSAGE);
  const raw = Buffer.from(body, 'base64');
  const iv = raw.subarray(0, 12);
  const tag = raw.subarray(12, 28);
  const ct = raw.subarray(28);
  try {
    const decipher = createDecipheriv('aes-256-gcm', key, iv);
    decipher.setAAD(Buffer.from(field));
    decipher.setAuthTag(tag);
    return Buffer.concat([decipher.update(ct), decipher.final()]).toString('utf8');
  } catch {
    throw new InvalidArgumentError(WRONG_KEY_MESSAGE);
  }
}
