import { test } from 'node:test';
import assert from 'node:assert/strict';
import { documentProofSection } from './document-proof-section.js';

const proof = {
  format: 'greenimpact-document-proof/1',
  method: 'merkle',
  documentSha256: 'ab'.repeat(32),
  cid: 'bafkreiexample',
  anchorId: `0x${'12'.repeat(16)}${'0'.repeat(32)}`,
  leaf: `0x${'cd'.repeat(32)}`,
  path: [`0x${'01'.repeat(32)}`, `0x${'02'.repeat(32)}`],
  root: `0x${'ef'.repeat(32)}`,
  network: 'sepolia',
  chainId: 11155111,
  contract: '0x5FbDB2315678afecb367f032d93F642f64180aa3',
  transaction: `0x${'9a'.repeat(32)}`,
  blockNumber: 7,
};

test('the proof section shows the path, root, network, contract, transaction and the verification', () => {
  const text = documentProofSection(proof, true, `https://sepolia.etherscan.io/tx/${proof.transaction}`).text;
  for (const part of [proof.documentSha256, proof.leaf, ...proof.path, proof.root, 'sepolia (chain id 11155111)', proof.contract, 'greenimpact-verify-document', '--trust trust-anchor.json', '/trust-anchor.json']) {
    assert.ok(text.includes(part), part);
  }
  assert.match(text, /class="ok">Verified now/);
  assert.match(text, /under a Merkle root \(2 steps\)/);
  assert.ok(text.includes(`href="https://sepolia.etherscan.io/tx/${proof.transaction}"`));
});

test('a single anchor shows no Merkle rows; a failed verification says so; values are escaped', () => {
  const text = documentProofSection({ ...proof, method: 'anchor', leaf: '', path: [], root: '', network: '<script>' }, false).text;
  assert.ok(!text.includes('>Leaf<') && !text.includes('>Root<') && !text.includes('>Path<'));
  assert.match(text, /alone, one transaction/);
  assert.match(text, /class="bad">NOT verified/);
  assert.ok(text.includes('&lt;script&gt;') && !text.includes('<script>'));
});
