import { randomBytes } from 'node:crypto';

const BASE32 = 'abcdefghijklmnopqrstuvwxyz234567';

/**
 * A random investor identifier: `inv_` + 20 base32 characters (100 random bits). It says nothing about
 * the investor, so it may be shown, logged and written to a blockchain where a name may not.
 */
export function newInvestorIdentifier(): string {
  const bytes = randomBytes(20);
  let out = 'inv_';
  for (const b of bytes) out += BASE32[b & 31];
  return out;
}
