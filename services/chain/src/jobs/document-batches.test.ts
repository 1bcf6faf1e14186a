import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createHash } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ContractFactory, Wallet, type Contract } from 'ethers';
import { DocumentKind, JobStatus, type GetDocumentResponse } from '@green-impact/proto/greenimpact/chain/v1/chain';
import { testDatabases } from '@green-impact/testing/shared/databases';
import { startChainHarness, waitForJob, type ChainHarness } from '@green-impact/testing/chain/harness';
import { documentLeaf, merkleTree, rootOf } from '../proofs/merkle.js';
import { contentCid, jsonRpcOver, verifyDocumentProof, type DocumentProof } from '../proofs/document-proof.js';
import { parseTrustAnchor } from '../proofs/trust-anchor.js';
import { contractArtifact } from '../contracts/artifacts.js';
import { EMBEDDED_SECOND_DEPLOYER_KEY } from '../networks/embedded-chain.js';

const postgres = testDatabases.find((d) => d.name === 'postgresql')!;

const impactsDoc = (n: number) => Buffer.from(`<html><body><h1>Position ${n}</h1><p>${'x'.repeat(n)}</p></body></html>`);

/** A document's proof as served (proto → the verifier's shape). */
function proofOf(doc: GetDocumentResponse): DocumentProof {
  const p = doc.proof!;
  return { ...p, format: p.format as DocumentProof['format'], method: p.method as DocumentProof['method'] };
}

describe('Merkle tree of a batch', () => {
  it('gives every leaf a path to the one root, for sizes that leave odd nodes', () => {
    for (const n of [1, 2, 3, 5, 8, 13]) {
      const leaves = Array.from({ length: n }, (_, i) => documentLeaf(`0x${String(i + 1).padStart(64, '0')}`, 'ab'.repeat(32), `cid${i}`));
      const { root, proofs } = merkleTree(leaves);
      leaves.forEach((leaf, i) => assert.equal(rootOf(leaf, proofs[i]!), root, `leaf ${i} of ${n}`));
      assert.ok(proofs.every((p) => p.length <= Math.ceil(Math.log2(n))));
      if (n > 1) assert.notEqual(rootOf(leaves[0]!, proofs[1]!), root, 'a path proves only its own leaf');
    }
  });
});

/**
 * Documents anchored many per transaction (PostgreSQL, embedded EVM, real gRPC): each job keeps its own
 * id, status and read-back, carries a proof, and the standalone verifier checks it over JSON-RPC.
 */
describe('batched document anchoring (PostgreSQL)', { timeout: 120_000 }, () => {
  let h: ChainHarness;
  let rpc: Server;
  let rpcUrl: string;

  before(async () => {
    h = await startChainHarness({ db: postgres });
    // What the gateway's public /rpc/sepolia does: the read-only relay, over HTTP.
    rpc = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        void h.service.networks.resolve('sepolia').network.relay(Buffer.concat(chunks)).then((body) => {
          res.writeHead(200, { 'content-type': 'application/json' }).end(body);
        });
      });
    });
    await new Promise<void>((resolve) => rpc.listen(0, '127.0.0.1', resolve));
    rpcUrl = `http://127.0.0.1:${(rpc.address() as AddressInfo).port}/`;
  });
  after(async () => {
    rpc?.close();
    await h?.stop();
  });

  it('anchors concurrent documents under one root: own jobs, one transaction, proofs that verify', async () => {
    const n = 12;
    const submitted = await Promise.all(
      Array.from({ length: n }, (_, i) =>
        h.client.submitDocument(
          {
            // EU GBS documents (issue 37) share the batches with the others.
            kind: i % 2 ? DocumentKind.DOCUMENT_KIND_POSITION_IMPACTS_HTML : i % 4 ? DocumentKind.DOCUMENT_KIND_EU_GBS_HTML : DocumentKind.DOCUMENT_KIND_FRAMEWORK_HTML,
            network: 'sepolia', content: impactsDoc(i + 1), contentType: 'text/html',
            ...(i % 2 ? { investorIdentifier: 'INV-1', positionId: i } : { frameworkIdentifier: 'GB-2024' }),
          },
          { caller: h.alice },
        ),
      ),
    );
    const jobs = await Promise.all(submitted.map((s) => waitForJob(h.client, h.alice, s.job!.id)));
    const roots = h.service.networks.resolve('sepolia').network.contracts.documentRoots!;
    for (const job of jobs) {
      assert.equal(job.status, JobStatus.JOB_STATUS_COMPLETED, job.error);
      assert.equal(job.document!.registryAddress, roots);
      assert.equal(job.document!.proof!.method, 'merkle');
      assert.equal(job.document!.proof!.transaction, job.txHash);
    }
    const transactions = new Set(jobs.map((j) => j.txHash));
    assert.ok(transactions.size < n, `${n} documents in ${transactions.size} transaction(s)`);
    const [{ count }] = (await h.service.dataSource.query(
      `SELECT count(*)::int AS count FROM chain.jobs WHERE kind = 'document_batch' AND tx_hash = ANY($1)`,
      [[...transactions]],
    )) as [{ count: number }];
    assert.equal(count, transactions.size, 'each transaction is one batch job');

    for (const s of submitted) {
      const doc = await h.client.getDocument({ jobId: s.job!.id }, { caller: h.alice });
      assert.equal(doc.verified, true);
      assert.equal(doc.proof!.documentSha256, doc.sha256);
      const standalone = await verifyDocumentProof(proofOf(doc), jsonRpcOver(rpcUrl), Buffer.from(doc.content), h.service.networks.trustAnchor());
      assert.equal(standalone.verified, true, JSON.stringify(standalone.checks));
      assert.deepEqual(standalone.checks.map((c) => c.check), [
        'trusted contract', 'content sha256', 'content cid', 'leaf', 'path', 'network', 'root on chain', 'trusted writer', 'transaction',
      ]);
    }
  });

  it('the verifier names the broken link: other bytes, a forged path, another chain', async () => {
    const s = await h.client.submitDocument(
      { kind: DocumentKind.DOCUMENT_KIND_FRAMEWORK_HTML, network: 'sepolia', content: impactsDoc(99), contentType: 'text/html', frameworkIdentifier: 'GB-2025' },
      { caller: h.alice },
    );
    await waitForJob(h.client, h.alice, s.job!.id);
    const doc = await h.client.getDocument({ jobId: s.job!.id }, { caller: h.alice });
    const proof = proofOf(doc);
    const failed = async (p: DocumentProof, content: Buffer) =>
      (await verifyDocumentProof(p, jsonRpcOver(rpcUrl), content, h.service.networks.trustAnchor())).checks.filter((c) => !c.ok).map((c) => c.check);
    assert.deepEqual(await failed(proof, impactsDoc(98)), ['content sha256', 'content cid']);
    const forgedRoot = `0x${'11'.repeat(32)}`;
    assert.deepEqual(await failed({ ...proof, root: forgedRoot }, Buffer.from(doc.content)), ['path', 'root on chain', 'transaction']);
    // Chain id 1 is no chain of this deployment's anchor: neither its contract nor its signer is trusted there.
    assert.deepEqual(await failed({ ...proof, chainId: 1 }, Buffer.from(doc.content)), ['trusted contract', 'network', 'trusted writer']);
  });

  /**
   * Issue 46: a proof names its own contract. An attacker deploys a DocumentRoots of their own on the same
   * node, anchors the root of a forged version of a real document there and hands out a proof that holds
   * up against the chain; only the trust anchor (the deployment's contracts and signer) tells it apart.
   */
  it('trusts only the deployment\'s contracts and signer: a forged document anchored on an attacker\'s own DocumentRoots is refused, the real one passes', async () => {
    const s = await h.client.submitDocument(
      { kind: DocumentKind.DOCUMENT_KIND_FRAMEWORK_HTML, network: 'sepolia', content: impactsDoc(7), contentType: 'text/html', frameworkIdentifier: 'GB-TRUST' },
      { caller: h.alice },
    );
    await waitForJob(h.client, h.alice, s.job!.id);
    const real = proofOf(await h.client.getDocument({ jobId: s.job!.id }, { caller: h.alice }));

    // The attacker: another funded key on the node, with a DocumentRoots that it alone writes.
    const network = h.service.networks.resolve('sepolia').network;
    const attacker = new Wallet(EMBEDDED_SECOND_DEPLOYER_KEY, network.provider);
    const { abi, bytecode } = contractArtifact('DocumentRoots');
    const roots = (await (await new ContractFactory(abi, bytecode, attacker).deploy(attacker.address)).waitForDeployment()) as Contract;
    const forged = Buffer.from('<html><body><h1>Position 7</h1><p>all green, trust me</p></body></html>');
    const sha = createHash('sha256').update(forged).digest('hex');
    const cid = contentCid(forged);
    const leaf = documentLeaf(real.anchorId, sha, cid);
    const tx = await (await roots.getFunction('anchorRoot')(leaf, 1)).wait();
    const fake: DocumentProof = {
      ...real, documentSha256: sha, cid, leaf, path: [], root: leaf, contract: await roots.getAddress(), transaction: tx.hash, blockNumber: tx.blockNumber,
    };

    const rpc = jsonRpcOver(rpcUrl);
    const trust = h.service.networks.trustAnchor();
    // Against the chain alone it holds: the attacker's contract holds the root, its transaction logged it.
    const attackersOwn = parseTrustAnchor({ [String(real.chainId)]: { signer: attacker.address, contracts: { documentRoots: fake.contract } } });
    assert.equal((await verifyDocumentProof(fake, rpc, forged, attackersOwn)).verified, true, 'the forgery is sound but for whom it trusts');
    const refused = await verifyDocumentProof(fake, rpc, forged, trust);
    assert.equal(refused.verified, false);
    assert.equal(refused.reason, 'contract not trusted');
    assert.deepEqual(refused.checks.filter((c) => !c.ok).map((c) => c.check), ['trusted contract', 'trusted writer']);
    const passed = await verifyDocumentProof(real, rpc, impactsDoc(7), trust);
    assert.equal(passed.verified, true, JSON.stringify(passed.checks));

    // The offline verifier, as an operator's user runs it: the anchor the service publishes, as a file.
    const published = parseTrustAnchor(JSON.parse(Buffer.from((await h.client.getTrustAnchor({})).body).toString('utf8')));
    assert.deepEqual(published, trust);
    assert.equal(published[String(network.chainId)]!.signer, network.signerAddress);
    const dir = mkdtempSync(join(tmpdir(), 'trust-anchor-'));
    try {
      const file = (name: string, body: string | Buffer) => {
        writeFileSync(join(dir, name), body);
        return join(dir, name);
      };
      const anchorFile = file('anchor.json', JSON.stringify(published));
      const cli = (...args: string[]) => verifier(args);
      const forgedRun = await cli('--proof', file('fake.json', JSON.stringify(fake)), '--rpc', rpcUrl, '--trust', anchorFile, '--content', file('fake.html', forged));
      assert.equal(forgedRun.code, 1, forgedRun.stdout);
      assert.match(forgedRun.stdout, /^not verified: contract not trusted$/m);
      const realRun = await cli('--proof', file('real.json', JSON.stringify(real)), '--rpc', rpcUrl, '--trust', anchorFile, '--content', file('real.html', impactsDoc(7)));
      assert.equal(realRun.code, 0, realRun.stdout);
      assert.match(realRun.stdout, /^verified$/m);
      // On the command line instead of a file: the attacker's contract with the deployment's signer still fails.
      const byHand = await cli('--proof', join(dir, 'fake.json'), '--rpc', rpcUrl, '--contract', fake.contract, '--signer', network.signerAddress);
      assert.equal(byHand.code, 1, byHand.stdout);
      assert.match(byHand.stdout, /^not verified: writer not trusted$/m);
      const untold = await cli('--proof', join(dir, 'real.json'), '--rpc', rpcUrl);
      assert.equal(untold.code, 2, 'no trust anchor: a usage error, never "verified"');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('GetDocument checks the proof against the deployment\'s trust anchor: a contract it no longer names is "contract not trusted"', async () => {
    const s = await h.client.submitDocument(
      { kind: DocumentKind.DOCUMENT_KIND_FRAMEWORK_HTML, network: 'sepolia', content: impactsDoc(8), contentType: 'text/html', frameworkIdentifier: 'GB-MOVED' },
      { caller: h.alice },
    );
    await waitForJob(h.client, h.alice, s.job!.id);
    const network = h.service.networks.resolve('sepolia').network;
    const roots = network.contracts.documentRoots;
    // The deployment now names another DocumentRoots (an operator's change): proofs on the old one are no longer vouched for.
    network.contracts.documentRoots = new Wallet(`0x${'42'.repeat(32)}`).address;
    try {
      const doc = await h.client.getDocument({ jobId: s.job!.id }, { caller: h.alice });
      assert.equal(doc.verified, false);
      assert.equal(doc.unverifiedReason, 'contract not trusted');
    } finally {
      network.contracts.documentRoots = roots;
    }
    const doc = await h.client.getDocument({ jobId: s.job!.id }, { caller: h.alice });
    assert.equal(doc.verified, true);
    assert.equal(doc.unverifiedReason, '');
  });

  it('documents anchored one per transaction before batching still verify', async () => {
    // A network without DocumentRoots anchors alone, as every document was before batches.
    const network = h.service.networks.resolve('amoy').network;
    const roots = network.contracts.documentRoots;
    network.contracts.documentRoots = undefined;
    try {
      const s = await h.client.submitDocument(
        { kind: DocumentKind.DOCUMENT_KIND_FRAMEWORK_JSON, network: 'amoy', content: Buffer.from('{"a":1}'), contentType: 'application/json', frameworkIdentifier: 'GB-2024' },
        { caller: h.alice },
      );
      const job = await waitForJob(h.client, h.alice, s.job!.id);
      assert.equal(job.document!.registryAddress, network.contracts.documentRegistry);
      const doc = await h.client.getDocument({ jobId: s.job!.id }, { caller: h.alice });
      assert.equal(doc.verified, true);
      assert.equal(doc.proof!.method, 'anchor');
      assert.deepEqual(doc.proof!.path, []);
      // The standalone verifier trusts an anchor proof only when the anchor's signer wrote it.
      const rpc = (method: string, params: unknown[]) => network.provider.send(method, params) as Promise<unknown>;
      const trust = h.service.networks.trustAnchor();
      const checked = await verifyDocumentProof(proofOf(doc), rpc, Buffer.from(doc.content), trust);
      assert.equal(checked.verified, true, JSON.stringify(checked.checks));
      const chain = String(network.chainId);
      const otherSigner = { ...trust, [chain]: { ...trust[chain]!, signer: Wallet.createRandom().address } };
      const refused = await verifyDocumentProof(proofOf(doc), rpc, Buffer.from(doc.content), otherSigner);
      assert.equal(refused.reason, 'writer not trusted');
      assert.deepEqual(refused.checks.filter((c) => !c.ok).map((c) => c.check), ['trusted writer']);
    } finally {
      network.contracts.documentRoots = roots;
    }
  });
});

/** Runs the offline verifier (greenimpact-verify-document) as a user would: its exit code and output. */
function verifier(args: string[]): Promise<{ code: number; stdout: string }> {
  const main = fileURLToPath(new URL('../proofs/verify-document-main.js', import.meta.url));
  return new Promise((resolve) => {
    execFile(process.execPath, [main, ...args], (err, stdout) => resolve({ code: err ? Number(err.code ?? 1) : 0, stdout }));
  });
}
