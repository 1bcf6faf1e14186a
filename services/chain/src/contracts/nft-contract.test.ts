import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { CID } from 'multiformats/cid';
import { base58btc } from 'multiformats/bases/base58';
import { contentCid } from '../proofs/document-proof.js';
import { encodeMintDigests, metadataDigest } from './nft-contract.js';

test('metadataDigest: the sha-256 of a raw CIDv1 in its canonical spelling, nothing for any other URI', () => {
  const bytes = Buffer.from('{"name":"Solar"}');
  const cid = contentCid(bytes);
  assert.equal(metadataDigest(`ipfs://${cid}`), `0x${createHash('sha256').update(bytes).digest('hex')}`);
  // The contract rebuilds "ipfs://b…" from the digest: another spelling of the same CID would read back differently.
  assert.equal(metadataDigest(`ipfs://${CID.parse(cid).toString(base58btc)}`), undefined);
  assert.equal(metadataDigest(`ipfs://${cid.toUpperCase()}`), undefined);
  assert.equal(metadataDigest('ipfs://bafybeigdyrzt5sfp7udm7hu76uh7y26nf3efuylqabf3oclgtqy55fbzdi'), undefined, 'dag-pb');
  assert.equal(metadataDigest(`https://example.org/${cid}`), undefined);
  assert.equal(metadataDigest('ipfs://not-a-cid'), undefined);
  assert.throws(() => encodeMintDigests([{ to: '0x0000000000000000000000000000000000000001', tokenUri: 'ipfs://not-a-cid' }]), /not ipfs:\/\/<CIDv1 raw sha2-256>/);
});
