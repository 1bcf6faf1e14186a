import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { DocumentKind, JobStatus, type GetDocumentResponse } from '@green-impact/proto/greenimpact/chain/v1/chain';
import { testDatabases } from '@green-impact/testing/shared/databases';
import { startChainHarness, waitForJob, type ChainHarness } from '@green-impact/testing/chain/harness';
import { documentLeaf, merkleTree, rootOf } from '../proofs/merkle.js';
import { jsonRpcOver, verifyDocumentProof, type DocumentProof } from '../proofs/document-proof.js';

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
      const standalone = await verifyDocumentProof(proofOf(doc), jsonRpcOver(rpcUrl), Buffer.from(doc.content));
      assert.equal(standalone.verified, true, JSON.stringify(standalone.checks));
      assert.deepEqual(standalone.checks.map((c) => c.check), ['content sha256', 'content cid', 'leaf', 'path', 'network', 'root on chain', 'transaction']);
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
      (await verifyDocumentProof(p, jsonRpcOver(rpcUrl), content)).checks.filter((c) => !c.ok).map((c) => c.check);
    assert.deepEqual(await failed(proof, impactsDoc(98)), ['content sha256', 'content cid']);
    const forgedRoot = `0x${'11'.repeat(32)}`;
    assert.deepEqual(await failed({ ...proof, root: forgedRoot }, Buffer.from(doc.content)), ['path', 'root on chain', 'transaction']);
    assert.deepEqual(await failed({ ...proof, chainId: 1 }, Buffer.from(doc.content)), ['network']);
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
    } finally {
      network.contracts.documentRoots = roots;
    }
  });
});
