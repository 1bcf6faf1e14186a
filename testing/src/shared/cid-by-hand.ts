import { createHash } from 'node:crypto';

const BASE32 = 'abcdefghijklmnopqrstuvwxyz234567';

/**
 * The CID IPFS gives a raw block: CIDv1, raw codec (0x55), sha2-256 multihash (0x12, 32 bytes), multibase
 * base32 lower case without padding (prefix `b`, so `bafkrei…`). Written out here so a test checks the
 * service's CIDs against the definition, not against the service's own library (multiformats), and the
 * stand-in IPFS node (chain/nft-fixtures.ts) answers what a real node would. scripts/known-answers/
 * make-vectors.mjs spells out the same for the committed fixtures.
 */
export function rawCidOf(bytes: Uint8Array): string {
  const cid = Buffer.concat([Buffer.from([0x01, 0x55, 0x12, 0x20]), createHash('sha256').update(bytes).digest()]);
  let bits = 0;
  let value = 0;
  let out = 'b';
  for (const byte of cid) {
    value = (value << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      out += BASE32[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  if (bits > 0) out += BASE32[(value << (5 - bits)) & 31];
  return out;
}
