import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { deadPort } from '@green-impact/testing/gateway/dead-port';
import { rawCidOf } from '@green-impact/testing/shared/cid-by-hand';
import { anchorIdOf } from '../contracts/document-registry.js';
import { documentLeaf, merkleTree, parentOf, rootOf } from './merkle.js';
import { PROOF_FORMAT, contentCid, jsonRpcOver, verifyDocumentProof, type DocumentProof } from './document-proof.js';
import type { TrustAnchor } from './trust-anchor.js';

/**
 * The service's proofs against known answers computed without its code (scripts/known-answers/
 * make-vectors.mjs: node:crypto, js-sha3's keccak-256, CIDs spelled out after the CIDv1 spec, the tree
 * re-built from docs/chain.md "Proofs"). A wrong leaf encoding, pair order or CID would pass a test that
 * checks the tree with its own rootOf; here it fails, as an outside verifier would.
 */
interface Vectors {
  documents: { contentBase64: string; sha256: string; cid: string; jobId: string; anchorId: string; leaf: string }[];
  innerNodes: { a: string; b: string; parent: string }[];
  trees: { leaves: string[]; root: string; proofs: string[][] }[];
}
const root = fileURLToPath(new URL('../../../../', import.meta.url));
const vectors = JSON.parse(readFileSync(`${root}services/chain/test-vectors/document-proofs.json`, 'utf8')) as Vectors;

describe('document proofs against known answers', () => {
  it('the fixtures are what the script that documents them computes', () => {
    execFileSync(process.execPath, [`${root}scripts/known-answers/make-vectors.mjs`, '--check'], { stdio: 'pipe' });
  });

  it('hashes, CIDs, anchor ids and leaves', () => {
    assert.ok(vectors.documents.length >= 5);
    for (const d of vectors.documents) {
      assert.equal(contentCid(Buffer.from(d.contentBase64, 'base64')), d.cid, `the CID of ${d.jobId}`);
      assert.equal(rawCidOf(Buffer.from(d.contentBase64, 'base64')), d.cid, 'the stand-in IPFS node\'s CID');
      assert.equal(anchorIdOf(d.jobId), d.anchorId);
      assert.equal(documentLeaf(d.anchorId, d.sha256, d.cid), d.leaf, `the leaf of ${d.jobId}`);
      assert.equal(documentLeaf(d.anchorId, `0x${d.sha256}`, d.cid), d.leaf, 'the sha256 with 0x');
    }
  });

  it('inner nodes, roots and every proof', () => {
    for (const n of vectors.innerNodes) assert.equal(parentOf(n.a, n.b), n.parent, `parent of ${n.a} and ${n.b}`);
    for (const t of vectors.trees) {
      assert.deepEqual(merkleTree(t.leaves), { root: t.root, proofs: t.proofs }, `the tree of ${t.leaves.length} leaves`);
      t.leaves.forEach((leaf, i) => assert.equal(rootOf(leaf, t.proofs[i]!), t.root));
    }
  });

  it('the offline verifier accepts each known proof and names the link that breaks in an altered one', async () => {
    // No node answers here: the content, leaf and path checks are the verifier's own; the chain's are
    // covered by document-batches.test against the embedded network.
    const dead = await deadPort();
    try {
      const rpc = jsonRpcOver(`http://127.0.0.1:${dead.port}/`, 5_000);
      // The proofs name this contract; the anchor trusts it, so the checks below are the content's and the tree's.
      const contract = `0x${'11'.repeat(20)}`;
      const trust: TrustAnchor = { '11155111': { signer: `0x${'33'.repeat(20)}`, contracts: { documentRoots: contract } } };
      const t = vectors.trees.at(-1)!;
      const offline = (checks: { check: string; ok: boolean }[]) =>
        Object.fromEntries(checks.filter((c) => c.check !== 'network' && c.check !== 'node' && c.check !== 'trusted contract').map((c) => [c.check, c.ok]));
      for (const [i, d] of vectors.documents.slice(0, t.leaves.length).entries()) {
        const proof: DocumentProof = {
          format: PROOF_FORMAT, method: 'merkle', documentSha256: d.sha256, cid: d.cid, anchorId: d.anchorId, leaf: d.leaf,
          path: t.proofs[i]!, root: t.root, network: 'sepolia', chainId: 11155111, contract,
          transaction: `0x${'22'.repeat(32)}`, blockNumber: 1,
        };
        const content = Buffer.from(d.contentBase64, 'base64');
        const good = await verifyDocumentProof(proof, rpc, content, trust);
        assert.deepEqual(offline(good.checks), { 'content sha256': true, 'content cid': true, leaf: true, path: true }, JSON.stringify(good.checks));
        assert.ok(good.checks.some((c) => c.check === 'trusted contract' && c.ok), 'the anchor trusts the proof\'s contract');
        assert.equal(good.verified, false, 'no node confirmed the root');
        assert.ok(good.checks.some((c) => c.check === 'node' && !c.ok));
        const otherPath = await verifyDocumentProof({ ...proof, path: t.proofs[(i + 1) % t.leaves.length]! }, rpc, content, trust);
        assert.deepEqual(offline(otherPath.checks), { 'content sha256': true, 'content cid': true, leaf: true, path: false });
        const altered = await verifyDocumentProof(proof, rpc, Buffer.concat([content, Buffer.from(' ')]), trust);
        assert.deepEqual(offline(altered.checks), { 'content sha256': false, 'content cid': false, leaf: true, path: true });
      }
    } finally {
      await dead.close();
    }
  });
});
