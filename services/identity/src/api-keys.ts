import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/** API keys: 256 random bits, shown once, stored only as a SHA-256 hash (fast lookup by hash is safe for high-entropy secrets). */
export function generateApiKey(): string {
  return `gi_${randomBytes(32).toString('base64url')}`;
}

export function hashApiKey(key: string): string {
  return createHash('sha256').update(key, 'utf8').digest('hex');
}

/** Constant-time comparison of a presented key against a stored hash. */
export function apiKeyMatches(key: string, storedHash: string): boolean {
  const a = Buffer.from(hashApiKey(key), 'hex');
  const b = Buffer.from(storedHash, 'hex');
  return a.length === b.length && timingSafeEqual(a, b);
}

export function keyHint(key: string): string {
  return key.slice(-4);
}
