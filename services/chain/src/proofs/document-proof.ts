import { createHash } from 'node:crypto';
import { Interface, getAddress, id as eventTopic, isHexString } from 'ethers';
import { CID } from 'multiformats/cid';
import * as raw from 'multiformats/codecs/raw';
import { create as createDigest } from 'multiformats/hashes/digest';
import { sha256 } from 'multiformats/hashes/sha2';
import { documentLeaf, rootOf } from './merkle.js';
import { trustedContractOf, trustedSignerOf, type TrustAnchor } from './trust-anchor.js';

/**
 * The proof that a document was anchored, and its check against any JSON-RPC node. Standalone: no
 * database, no service, only the document's bytes, this proof and a node of the network (docs/chain.md
 * "Proofs").
 */
export const PROOF_FORMAT = 'greenimpact-document-proof/1';

export interface DocumentProof {
  format: typeof PROOF_FORMAT;
  /** `merkle`: one of many documents under a root (DocumentRoots); `anchor`: a document anchored alone (DocumentRegistry). */
  method: 'merkle' | 'anchor';
  /** SHA-256 of the content, lower-case hex. */
  documentSha256: string;
  /** CIDv1 (raw, sha2-256) of the content. */
  cid: string;
  /** The document's 32-byte id on chain (its job UUID, right-padded with zeros). */
  anchorId: string;
  /** merkle: keccak256(anchorId ‖ sha256 ‖ cid); empty for `anchor`. */
  leaf: string;
  /** merkle: the sibling hashes from the leaf up (pairs hashed smaller first); empty for `anchor`. */
  path: string[];
  /** merkle: the root recorded on chain; empty for `anchor`. */
  root: string;
  /** The network's name in the service (sepolia, amoy, …). */
  network: string;
  chainId: number;
  /** The contract holding the root (DocumentRoots) or the anchor (DocumentRegistry). */
  contract: string;
  /** The transaction that wrote it. */
  transaction: string;
  /** The block of the transaction when the proof was made (informative: a re-org or a replay moves it). */
  blockNumber: number;
}

export interface ProofCheck {
  check: string;
  ok: boolean;
  detail: string;
}

export interface ProofVerification {
  verified: boolean;
  checks: ProofCheck[];
  /** Why not, when not verified: "contract not trusted", "writer not trusted", or the first check that failed. */
  reason?: string;
}

/** The reason a verification names for its first failed check. */
const REASONS: Record<string, string> = {
  'trusted contract': 'contract not trusted', 'trusted writer': 'writer not trusted', 'content sha256': 'content changed', 'content cid': 'content changed',
};

/** One JSON-RPC call: the result, or throws with the node's error. */
export type JsonRpc = (method: string, params: unknown[]) => Promise<unknown>;

const ABI = new Interface([
  'function getRoot(bytes32 root) view returns (bool found, address writer, uint32 count, uint64 anchoredAt, uint64 blockNumber)',
  'function getAnchor(bytes32 id) view returns (bool found, bytes32 sha256Hash, string cid, address writer, uint64 anchoredAt, uint64 blockNumber)',
]);
const ROOT_ANCHORED = eventTopic('RootAnchored(bytes32,uint32,address)');
const DOCUMENT_ANCHORED = eventTopic('DocumentAnchored(bytes32,bytes32,string,address)');
const HASH = /^0x[0-9a-f]{64}$/i;

/** A JSON-RPC endpoint over HTTP(S) (fetch; no provider library needed). */
export function jsonRpcOver(url: string, timeoutMs = 15_000): JsonRpc {
  let next = 1;
  return async (method, params) => {
    const res = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: next++, method, params }),
      signal: AbortSignal.timeout(timeoutMs),
    });
    if (!res.ok) throw new Error(`${url} answered HTTP ${res.status}`);
    const answer = (await res.json()) as { result?: unknown; error?: { code: number; message: string } };
    if (answer.error) throw new Error(`${method}: ${answer.error.message} (${answer.error.code})`);
    return answer.result ?? null;
  };
}

/** Checks the proof's own shape; answers the problems (empty when well formed). */
export function proofProblems(p: unknown): string[] {
  const problems: string[] = [];
  const o = (typeof p === 'object' && p !== null ? p : {}) as Record<string, unknown>;
  if (o['format'] !== PROOF_FORMAT) problems.push(`format must be "${PROOF_FORMAT}"`);
  if (o['method'] !== 'merkle' && o['method'] !== 'anchor') problems.push('method must be "merkle" or "anchor"');
  if (typeof o['documentSha256'] !== 'string' || !/^[0-9a-f]{64}$/i.test(o['documentSha256'])) problems.push('documentSha256 must be 64 hex digits');
  if (typeof o['cid'] !== 'string' || !o['cid']) problems.push('cid is required');
  if (typeof o['anchorId'] !== 'string' || !HASH.test(o['anchorId'])) problems.push('anchorId must be 0x + 64 hex digits');
  if (!Array.isArray(o['path']) || !o['path'].every((h) => typeof h === 'string' && HASH.test(h))) problems.push('path must be a list of 32-byte hex hashes');
  if (o['method'] === 'merkle') {
    if (typeof o['leaf'] !== 'string' || !HASH.test(o['leaf'])) problems.push('leaf must be 0x + 64 hex digits');
    if (typeof o['root'] !== 'string' || !HASH.test(o['root'])) problems.push('root must be 0x + 64 hex digits');
  }
  if (typeof o['network'] !== 'string') problems.push('network must be a name');
  if (typeof o['chainId'] !== 'number' || !Number.isSafeInteger(o['chainId'])) problems.push('chainId must be a number');
  if (typeof o['contract'] !== 'string' || !isHexString(o['contract'], 20)) problems.push('contract must be an address');
  if (typeof o['transaction'] !== 'string' || !HASH.test(o['transaction'])) problems.push('transaction must be a transaction hash');
  return problems;
}

/** The CID this service gives content (CIDv1, raw, sha2-256, base32): what IPFS gives a raw block. */
export function contentCid(content: Uint8Array): string {
  const digest = createHash('sha256').update(content).digest();
  return CID.createV1(raw.code, createDigest(sha256.code, digest)).toString();
}

/**
 * Verifies a document against its proof and the chain: the content's SHA-256 and CID (when content is
 * given), the leaf and the path up to the root, the node's chain id, the root (or single anchor) held by
 * the contract now, and the transaction's receipt (succeeded, from that contract, logging the root or
 * the anchor). Every check is answered, so a failure says which link broke.
 *
 * The proof names its own contract, so the chain alone proves only that *someone* anchored the document:
 * `trust` (trust-anchor.ts) says whose. The contract must be the one the anchor names for the proof's
 * chain id and method, and the writer the contract recorded must be the anchor's signer; otherwise the
 * answer is "not verified: contract not trusted" (or "writer not trusted").
 */
export async function verifyDocumentProof(proof: DocumentProof, rpc: JsonRpc, content: Uint8Array | undefined, trust: TrustAnchor): Promise<ProofVerification> {
  const checks: ProofCheck[] = [];
  const add = (check: string, ok: boolean, detail: string) => checks.push({ check, ok, detail });
  const done = (): ProofVerification => {
    const failed = checks.find((c) => !c.ok);
    return failed ? { verified: false, checks, reason: REASONS[failed.check] ?? `${failed.check} failed` } : { verified: true, checks };
  };
  const problems = proofProblems(proof);
  if (problems.length > 0) {
    add('format', false, problems.join('; '));
    return done();
  }
  const trustedContract = trustedContractOf(trust, proof.chainId, proof.method);
  const contractTrusted = !!trustedContract && getAddress(trustedContract) === getAddress(proof.contract);
  const kind = proof.method === 'merkle' ? 'DocumentRoots' : 'DocumentRegistry';
  add(
    'trusted contract',
    contractTrusted,
    contractTrusted
      ? `${trustedContract} is the trust anchor's ${kind} on chain ${proof.chainId}`
      : trustedContract
        ? `${proof.contract} is not the trust anchor's ${kind} on chain ${proof.chainId} (${trustedContract})`
        : `the trust anchor names no ${kind} on chain ${proof.chainId}`,
  );
  const signer = trustedSignerOf(trust, proof.chainId);
  const trustWriter = (writer: string) => {
    const ok = !!signer && getAddress(writer) === getAddress(signer);
    add('trusted writer', ok, ok ? `written by the trust anchor's signer ${signer}` : `written by ${writer}, not the trust anchor's signer${signer ? ` ${signer}` : ''}`);
  };
  const sha = proof.documentSha256.toLowerCase();
  if (content) {
    const actual = createHash('sha256').update(content).digest('hex');
    add('content sha256', actual === sha, actual === sha ? sha : `the content hashes to ${actual}, the proof says ${sha}`);
    const cid = contentCid(content);
    add('content cid', cid === proof.cid, cid === proof.cid ? cid : `the content's CID is ${cid}, the proof says ${proof.cid}`);
  }
  if (proof.method === 'merkle') {
    const leaf = documentLeaf(proof.anchorId, sha, proof.cid);
    add('leaf', leaf === proof.leaf.toLowerCase(), leaf === proof.leaf.toLowerCase() ? leaf : `the document's leaf is ${leaf}, the proof says ${proof.leaf}`);
    const root = rootOf(leaf, proof.path);
    add('path', root === proof.root.toLowerCase(), root === proof.root.toLowerCase() ? `${proof.path.length} step(s) to ${root}` : `the path leads to ${root}, not ${proof.root}`);
  }
  try {
    const chainId = Number(BigInt((await rpc('eth_chainId', [])) as string));
    add('network', chainId === proof.chainId, `the node's chain id is ${chainId}${chainId === proof.chainId ? '' : `, the proof's ${proof.chainId}`}`);
    const contract = getAddress(proof.contract);
    if (proof.method === 'merkle') {
      const data = ABI.encodeFunctionData('getRoot', [proof.root]);
      const [found, writer, count] = ABI.decodeFunctionResult('getRoot', (await rpc('eth_call', [{ to: contract, data }, 'latest'])) as string);
      add('root on chain', found as boolean, found ? `${contract} holds the root (${count} document(s), written by ${writer})` : `${contract} holds no such root`);
      if (found) trustWriter(writer as string);
    } else {
      const data = ABI.encodeFunctionData('getAnchor', [proof.anchorId]);
      const [found, anchored, cid, writer] = ABI.decodeFunctionResult('getAnchor', (await rpc('eth_call', [{ to: contract, data }, 'latest'])) as string);
      const ok = (found as boolean) && (anchored as string).toLowerCase() === `0x${sha}` && cid === proof.cid;
      add('anchor on chain', ok, !found ? `${contract} holds no anchor ${proof.anchorId}` : ok ? `${contract} holds sha256 ${sha} and CID ${proof.cid}` : `${contract} holds sha256 ${(anchored as string).slice(2)} and CID ${cid as string}`);
      if (found) trustWriter(writer as string);
    }
    const receipt = (await rpc('eth_getTransactionReceipt', [proof.transaction])) as {
      status: string; blockNumber: string; logs: { address: string; topics: string[] }[];
    } | null;
    if (!receipt) {
      add('transaction', false, `the node knows no mined transaction ${proof.transaction}`);
    } else {
      const [topic, key] = proof.method === 'merkle' ? [ROOT_ANCHORED, proof.root] : [DOCUMENT_ANCHORED, proof.anchorId];
      const logged = receipt.logs.some((l) => getAddress(l.address) === contract && l.topics[0] === topic && l.topics[1]?.toLowerCase() === key.toLowerCase());
      const ok = Number(receipt.status) === 1 && logged;
      add('transaction', ok, ok ? `mined in block ${Number(receipt.blockNumber)}, logging the ${proof.method === 'merkle' ? 'root' : 'anchor'}` : `transaction ${proof.transaction} ${Number(receipt.status) !== 1 ? 'reverted' : 'did not log it'}`);
    }
  } catch (err) {
    add('node', false, `the node did not answer: ${(err as Error).message}`);
  }
  return done();
}
