import { concat, getBytes, keccak256, toUtf8Bytes } from 'ethers';

/**
 * The Merkle tree of a document batch (docs/chain.md "Proofs"). Leaf = keccak256(anchorId ‖ sha256 ‖
 * UTF-8 of the CID): 64 + n bytes, never the 64 bytes of an inner node. Inner node = keccak256 of its two
 * children in ascending byte order (so a proof is a plain list of siblings, as OpenZeppelin's
 * MerkleProof). A node without a sibling on its level moves up unchanged. Pure: nothing here reads a
 * database or a network.
 */

/** The leaf of one document: its 32-byte anchor id (hex), its SHA-256 (hex, with or without 0x) and its CID. */
export function documentLeaf(anchorId: string, sha256Hex: string, cid: string): string {
  const sha = sha256Hex.startsWith('0x') ? sha256Hex : `0x${sha256Hex}`;
  if (getBytes(anchorId).length !== 32 || getBytes(sha).length !== 32) throw new Error('anchorId and sha256 must be 32 bytes each.');
  if (!cid) throw new Error('cid must not be empty.');
  return keccak256(concat([anchorId, sha, toUtf8Bytes(cid)]));
}

/** Parent of two nodes: keccak256 of the pair, smaller first. */
export function parentOf(a: string, b: string): string {
  return a.toLowerCase() < b.toLowerCase() ? keccak256(concat([a, b])) : keccak256(concat([b, a]));
}

/** The root and, for each leaf in order, its proof (siblings from the leaf up). */
export function merkleTree(leaves: string[]): { root: string; proofs: string[][] } {
  if (leaves.length === 0) throw new Error('A Merkle tree needs at least one leaf.');
  const proofs: string[][] = leaves.map(() => []);
  // Which leaves sit under each node of the current level.
  let level = leaves.map((hash, i) => ({ hash: hash.toLowerCase(), under: [i] }));
  while (level.length > 1) {
    const next: typeof level = [];
    for (let i = 0; i < level.length; i += 2) {
      const left = level[i]!;
      const right = level[i + 1];
      if (!right) {
        next.push(left);
        continue;
      }
      for (const leaf of left.under) proofs[leaf]!.push(right.hash);
      for (const leaf of right.under) proofs[leaf]!.push(left.hash);
      next.push({ hash: parentOf(left.hash, right.hash), under: [...left.under, ...right.under] });
    }
    level = next;
  }
  return { root: level[0]!.hash, proofs };
}

/** The root a leaf and its proof lead to. */
export function rootOf(leaf: string, proof: readonly string[]): string {
  return proof.reduce((node, sibling) => parentOf(node, sibling), leaf.toLowerCase());
}
