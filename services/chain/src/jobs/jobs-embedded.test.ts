import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Contract, Interface, keccak256, AbiCoder, zeroPadValue } from 'ethers';
import { DocumentKind, JobKind, JobStatus } from '@green-impact/proto/greenimpact/chain/v1/chain';
import { testDatabases } from '@green-impact/testing/shared/databases';
import { contractArtifact } from '../contracts/artifacts.js';
import type { ChainNetwork } from '../networks/chain-network.js';
import { TOPIC_JOBS } from '../schema.js';
import { fenceJob, ONE_INSERT_PER_TRANSACTION, rejectsWith, startChainHarness, waitForJob, waitUntil, watchJobs, type ChainHarness } from '@green-impact/testing/chain/harness';

const pglite = testDatabases.find((d) => d.name === 'pglite')!;
const { COMPLETED, FAILED, QUEUED, SUBMITTED } = {
  COMPLETED: JobStatus.JOB_STATUS_COMPLETED,
  FAILED: JobStatus.JOB_STATUS_FAILED,
  QUEUED: JobStatus.JOB_STATUS_QUEUED,
  SUBMITTED: JobStatus.JOB_STATUS_SUBMITTED,
};

/** Documents of this network anchored one per transaction on DocumentRegistry (as without DocumentRoots) until restore(). */
function anchorAlone(network: ChainNetwork): { restore(): void } {
  const roots = network.contracts.documentRoots;
  network.contracts.documentRoots = undefined;
  return { restore: () => void (network.contracts.documentRoots = roots) };
}

const frameworkDoc = (n: number) =>
  Buffer.from(JSON.stringify({ framework_identifier: 'GB-2024', rows: [{ indicator_id: n, indicator_value: 12.5 }] }));

/**
 * Jobs end to end on the embedded default: PGlite, the in-process bus and Hardhat's in-process EVM,
 * everything through the real gRPC service.
 */
describe('chain jobs on the embedded network (PGlite, in-process bus)', { timeout: 120_000 }, () => {
  let h: ChainHarness;
  const alice = () => ({ caller: h.alice });
  const sepolia = () => h.service.networks.resolve('sepolia').network;

  before(async () => {
    // Key-value inserts one per transaction: the nonce, resend and restart tests count a transaction per
    // insert job (key-value-batches.test.ts proves the batched default on both databases).
    h = await startChainHarness({ db: pglite, service: { worker: ONE_INSERT_PER_TRANSACTION } });
  });
  after(async () => {
    await h?.stop();
  });

  it('writes a document: queued → submitted → completed with tx hash, block, receipt and costs', async () => {
    const watch = watchJobs(h.client, h.alice, {});
    await watch.opened;
    const content = frameworkDoc(1);
    const res = await h.client.submitDocument(
      {
        kind: DocumentKind.DOCUMENT_KIND_FRAMEWORK_JSON, network: 'sepolia', content, contentType: 'application/json',
        frameworkIdentifier: 'GB-2024', reportingYear: 2024, languageCode: 'en', requestEcho: { operation: 'writeJsonFrameworkToBlockchain' },
      },
      alice(),
    );
    assert.equal(res.job!.status, QUEUED);
    assert.equal(res.job!.kind, JobKind.JOB_KIND_DOCUMENT);
    assert.equal(res.replayed, false);
    assert.ok(res.documentId > 0);
    const job = await waitForJob(h.client, h.alice, res.job!.id);
    assert.equal(job.status, COMPLETED, job.error);
    assert.match(job.txHash!, /^0x[0-9a-f]{64}$/);
    assert.ok(job.blockNumber! > 0);
    assert.equal(job.receipt!.status, 1);
    assert.equal(job.receipt!.hash, job.txHash);
    assert.equal(job.receipt!.type, 'TransactionReceipt');
    assert.equal(job.receipt!.logs.length, 1);
    assert.equal(job.receipt!.logs[0]!.type, 'log');
    assert.ok(job.gasUsed! > 21_000);
    assert.ok(BigInt(job.gasPrice!) > 0n);
    assert.ok(job.networkCost! > 0);
    assert.equal(job.networkTotal, job.networkCost! + job.networkFee!);
    assert.equal(job.attempts, 1);
    assert.deepEqual(job.request, { operation: 'writeJsonFrameworkToBlockchain' });
    assert.equal(job.document!.documentId, res.documentId);
    // Anchored in a batch (document-batches.test.ts): the root on DocumentRoots, the document's path in its proof.
    assert.equal(job.document!.registryAddress, sepolia().contracts.documentRoots);
    assert.equal(job.document!.proof!.method, 'merkle');
    assert.equal(job.frameworkIdentifier, 'GB-2024');
    assert.ok(job.completedAt);
    await waitUntil(() => watch.received.length >= 3, 'three job events');
    watch.close();
    assert.deepEqual(
      watch.received.map((m) => [m.job!.id, m.job!.status, m.previousStatus]),
      [
        [job.id, QUEUED, undefined],
        [job.id, SUBMITTED, QUEUED],
        [job.id, COMPLETED, SUBMITTED],
      ],
    );
  });

  it('reads a document back from the chain, verified; a tampered or missing file is caught', async () => {
    const content = frameworkDoc(2);
    const res = await h.client.submitDocument(
      { kind: DocumentKind.DOCUMENT_KIND_FRAMEWORK_JSON, network: 'sepolia', content, contentType: '', frameworkIdentifier: 'GB-2024' },
      alice(),
    );
    await waitForJob(h.client, h.alice, res.job!.id);
    const doc = await h.client.getDocument({ jobId: res.job!.id }, alice());
    assert.equal(doc.verified, true);
    assert.deepEqual(Buffer.from(doc.content), content);
    assert.equal(doc.sha256, doc.anchoredSha256);
    assert.equal(doc.contentType, 'application/json');
    assert.match(doc.cid, /^bafkrei[a-z2-7]{52}$/);
    assert.equal(doc.documentId, res.documentId);
    // By entry id, as getJobStatusFromBlockchain / get*FromBlockchain may pass it.
    assert.equal((await h.client.getDocument({ jobId: String(res.documentId) }, alice())).job!.id, res.job!.id);
    // The content store serves the same bytes by CID to the account (a private framework's: documents/document-access.test.ts).
    const served = await h.client.getContent({ cid: doc.cid }, alice());
    assert.deepEqual(Buffer.from(served.content), content);

    const file = join(h.contentDir, 'blocks', doc.cid);
    await writeFile(file, Buffer.from(JSON.stringify({ framework_identifier: 'GB-2024', rows: [{ indicator_id: 2, indicator_value: 99 }] })));
    const tampered = await h.client.getDocument({ jobId: res.job!.id }, alice());
    assert.equal(tampered.verified, false);
    assert.notEqual(tampered.sha256, tampered.anchoredSha256);
    await rm(file);
    await rejectsWith(h.client.getDocument({ jobId: res.job!.id }, alice()), 'FAILED_PRECONDITION', /is missing from the content store/);
  });

  it('validates documents', async () => {
    const base = { kind: DocumentKind.DOCUMENT_KIND_FRAMEWORK_JSON, network: 'sepolia', content: frameworkDoc(3), contentType: 'application/json', frameworkIdentifier: 'GB' };
    await rejectsWith(h.client.submitDocument({ ...base, network: 'goerli' }, alice()), 'INVALID_ARGUMENT', 'Unknown network "goerli"; expected one of sepolia, amoy, mumbai.');
    await rejectsWith(h.client.submitDocument({ ...base, frameworkIdentifier: '' }, alice()), 'INVALID_ARGUMENT', /framework_identifier is required/);
    await rejectsWith(h.client.submitDocument({ ...base, content: Buffer.from('<html>') }, alice()), 'INVALID_ARGUMENT', /valid JSON/);
    await rejectsWith(h.client.submitDocument({ ...base, sha256: '00'.repeat(32) }, alice()), 'INVALID_ARGUMENT', /sha256 does not match/);
    // The years the taxonomy and portfolio services take (proto/src/rules.ts), not any 4-digit number.
    for (const reportingYear of [1899, 2201]) {
      await rejectsWith(
        h.client.submitDocument({ ...base, reportingYear }, alice()),
        'INVALID_ARGUMENT',
        `reporting_year must be a 4-digit year from 1900 to 2200, got ${reportingYear}.`,
      );
    }
    await rejectsWith(
      h.client.submitDocument({ ...base, kind: DocumentKind.DOCUMENT_KIND_POSITION_IMPACTS_HTML, contentType: 'text/html', investorIdentifier: 'INV-1' }, alice()),
      'INVALID_ARGUMENT',
      /position_id is required/,
    );
    await rejectsWith(h.client.submitDocument({ ...base, kind: DocumentKind.DOCUMENT_KIND_UNSPECIFIED }, alice()), 'INVALID_ARGUMENT', /kind is required/);
    await rejectsWith(h.client.submitDocument(base), 'UNAUTHENTICATED');
  });

  it('stores and selects strings and bytes32 as jobs, per account', async () => {
    const ins = await h.client.insertString({ network: 'sepolia', key: 'greeting', value: 'hello, chain' }, alice());
    assert.equal(ins.jobId, ins.job!.id);
    assert.equal((await waitForJob(h.client, h.alice, ins.jobId)).status, COMPLETED);
    const sel = await h.client.selectString({ network: 'sepolia', key: 'greeting' }, alice());
    const selected = await waitForJob(h.client, h.alice, sel.jobId);
    assert.equal(selected.status, COMPLETED, selected.error);
    assert.deepEqual(
      [selected.keyValue!.key, selected.keyValue!.value, selected.keyValue!.found, selected.keyValue!.contractAddress],
      ['greeting', 'hello, chain', true, sepolia().contracts.keyValueStore],
    );
    assert.deepEqual(selected.result, { key: 'greeting', value: 'hello, chain' });
    assert.equal(selected.txHash, undefined);
    assert.equal(selected.networkCost, 0);

    const b = await h.client.insertBytes32({ network: 'sepolia', key: 'word', value: 'grön' }, alice());
    const bDone = await waitForJob(h.client, h.alice, b.jobId);
    assert.match(bDone.keyValue!.valueHex!, /^0x6772c3b66e0{54}$/);
    const bSel = await waitForJob(h.client, h.alice, (await h.client.selectBytes32({ network: 'sepolia', key: 'word' }, alice())).jobId);
    assert.equal(bSel.keyValue!.value, 'grön');
    assert.equal(bSel.keyValue!.found, true);

    // Bob's namespace is his own: he neither sees nor overwrites Alice's keys.
    const bobSel = await waitForJob(h.client, h.bob, (await h.client.selectString({ network: 'sepolia', key: 'greeting' }, { caller: h.bob })).jobId);
    assert.equal(bobSel.keyValue!.found, false);
    assert.equal(bobSel.keyValue!.value, undefined);
    assert.deepEqual(bobSel.result, { key: 'greeting', value: null });
  });

  it('refuses keys over 32 characters and bytes32 values over 32 bytes (INVALID_ARGUMENT)', async () => {
    const k32 = 'k'.repeat(32);
    await waitForJob(h.client, h.alice, (await h.client.insertBytes32({ network: 'sepolia', key: k32, value: 'v'.repeat(32) }, alice())).jobId);
    await rejectsWith(h.client.insertString({ network: 'sepolia', key: 'k'.repeat(33), value: 'x' }, alice()), 'INVALID_ARGUMENT', 'key must be at most 32 characters, got 33.');
    await rejectsWith(h.client.selectString({ network: 'sepolia', key: 'k'.repeat(33) }, alice()), 'INVALID_ARGUMENT');
    await rejectsWith(h.client.selectBytes32({ network: 'sepolia', key: 'k'.repeat(40) }, alice()), 'INVALID_ARGUMENT');
    await rejectsWith(h.client.insertBytes32({ network: 'sepolia', key: 'k', value: 'v'.repeat(33) }, alice()), 'INVALID_ARGUMENT', /at most 32 characters and 32 bytes/);
    // 17 characters, 34 bytes.
    await rejectsWith(h.client.insertBytes32({ network: 'sepolia', key: 'k', value: 'ö'.repeat(17) }, alice()), 'INVALID_ARGUMENT', /34 bytes/);
    await rejectsWith(h.client.insertString({ network: 'sepolia', key: '', value: 'x' }, alice()), 'INVALID_ARGUMENT', 'key is required.');
    await rejectsWith(h.client.insertString({ network: 'sepolia', key: 'big', value: 'x'.repeat(5_000) }, alice()), 'INVALID_ARGUMENT', /too large for network sepolia/);
  });

  it('answers the same job for the same Idempotency-Key', async () => {
    const first = await h.client.insertString({ network: 'sepolia', key: 'idem', value: 'once', idempotencyKey: 'key-1' }, alice());
    const again = await h.client.insertString({ network: 'sepolia', key: 'idem', value: 'once', idempotencyKey: 'key-1' }, alice());
    assert.equal(again.jobId, first.jobId);
    assert.equal(again.replayed, true);
    await rejectsWith(
      h.client.insertString({ network: 'sepolia', key: 'idem', value: 'twice', idempotencyKey: 'key-1' }, alice()),
      'FAILED_PRECONDITION',
      /already used for a different request/,
    );
    // What HTTP headers carry: at most 255 characters of visible ASCII and spaces; the refusal names the key.
    await rejectsWith(h.client.insertString({ network: 'sepolia', key: 'idem', value: 'once', idempotencyKey: 'k'.repeat(256) }, alice()), 'INVALID_ARGUMENT', 'Idempotency-Key must be at most 255 characters.');
    await rejectsWith(h.client.insertString({ network: 'sepolia', key: 'idem', value: 'once', idempotencyKey: 'naïve-1' }, alice()), 'INVALID_ARGUMENT', 'Idempotency-Key must be printable ASCII characters.');
    await rejectsWith(h.client.insertString({ network: 'sepolia', key: 'tab\tkey', value: 'once' }, alice()), 'INVALID_ARGUMENT', 'key must not contain control characters.');
    // Keys are per account.
    const bobs = await h.client.insertString({ network: 'sepolia', key: 'idem', value: 'once', idempotencyKey: 'key-1' }, { caller: h.bob });
    assert.notEqual(bobs.jobId, first.jobId);
    const doc = { kind: DocumentKind.DOCUMENT_KIND_FRAMEWORK_JSON, network: 'sepolia', content: frameworkDoc(4), contentType: 'application/json', frameworkIdentifier: 'GB-2024', idempotencyKey: 'doc-1' };
    const d1 = await h.client.submitDocument(doc, alice());
    const d2 = await h.client.submitDocument(doc, alice());
    assert.deepEqual([d2.job!.id, d2.documentId, d2.replayed], [d1.job!.id, d1.documentId, true]);
    await waitForJob(h.client, h.alice, first.jobId);
    const all = await h.client.listJobs({ pageSize: 500, pageToken: '' }, alice());
    assert.equal(all.jobs.filter((j) => j.idempotencyKey === 'key-1').length, 1);
  });

  it('gives 20 concurrent jobs of one signer consecutive nonces, without gaps or duplicates', async (t) => {
    const network = sepolia();
    // Nothing of earlier tests still on its way: a document batch formed meanwhile would take a nonce in between.
    await waitUntil(
      async () => ((await h.service.dataSource.query(`SELECT 1 FROM chain.jobs WHERE status IN ('queued', 'submitted') LIMIT 1`)) as unknown[]).length === 0,
      'earlier jobs final',
    );
    const started = Date.now();
    // One account's 20 calls at once exceed its share of the database pool (db/pool-share.ts): a call that
    // waited past the share's second is refused UNAVAILABLE with Retry-After, and a client retries it, as
    // the gateway's clients are told to. The nonces must still come out consecutive.
    const insert = async (i: number): Promise<{ jobId: string }> => {
      for (let attempt = 1; ; attempt++) {
        try {
          return await h.client.insertString({ network: 'sepolia', key: `c${i}`, value: `v${i}` }, alice());
        } catch (err) {
          if ((err as { code?: string }).code !== 'UNAVAILABLE' || attempt === 10) throw err;
          await new Promise((resolve) => setTimeout(resolve, 100 * attempt));
        }
      }
    };
    const submitted = await Promise.all(Array.from({ length: 20 }, (_, i) => insert(i)));
    const done = await Promise.all(submitted.map((s) => waitForJob(h.client, h.alice, s.jobId)));
    assert.deepEqual(done.map((j) => j.status), done.map(() => COMPLETED));
    const rows = await Promise.all(submitted.map((s) => h.service.jobs.load(s.jobId)));
    const nonces = rows.map((r) => r!.nonce!).sort((a, b) => a - b);
    assert.deepEqual(nonces, Array.from({ length: 20 }, (_, i) => nonces[0]! + i));
    assert.ok(rows.every((r) => r!.attempts === 1));
    // Every nonce the service handed out on this chain is used exactly once, and the chain agrees.
    const used: { nonce: string }[] = await h.service.dataSource.query(
      `SELECT nonce FROM chain.jobs WHERE chain_instance = $1 AND nonce IS NOT NULL ORDER BY nonce`,
      [network.instanceId],
    );
    const all = used.map((u) => Number(u.nonce));
    assert.equal(new Set(all).size, all.length);
    assert.ok(await network.provider.getTransactionCount(network.signerAddress, 'latest') > nonces[19]!);
    t.diagnostic(`20 concurrent jobs completed in ${Date.now() - started} ms`);
  });

  it('resubmits a stuck transaction with a gas bump', async () => {
    const network = sepolia();
    await network.edr!.request({ method: 'evm_setAutomine', params: [false] });
    try {
      const { jobId } = await h.client.insertString({ network: 'sepolia', key: 'stuck', value: 'eventually' }, alice());
      await waitUntil(async () => ((await h.service.jobs.load(jobId))?.attempts ?? 0) >= 2, 'a resubmission', 15_000);
      const row = (await h.service.jobs.load(jobId))!;
      assert.equal(row.status, 'submitted');
      const [firstTx, secondTx] = row.transactions;
      assert.equal(firstTx!.nonce, secondTx!.nonce);
      assert.notEqual(firstTx!.hash, secondTx!.hash);
      assert.ok(BigInt(secondTx!.maxFeePerGas!) * 100n >= BigInt(firstTx!.maxFeePerGas!) * 110n);
      assert.ok(BigInt(secondTx!.maxPriorityFeePerGas!) * 100n >= BigInt(firstTx!.maxPriorityFeePerGas!) * 110n);
      await network.edr!.request({ method: 'evm_mine', params: [] });
      const job = await waitForJob(h.client, h.alice, jobId);
      assert.equal(job.status, COMPLETED, job.error);
      assert.ok(job.attempts >= 2);
      // Either of the job's transactions may be the one mined (a node can keep the original when a
      // replacement arrives as it mines); what matters is that the job completes once, with one of them.
      const mined = (await h.service.jobs.load(jobId))!;
      assert.equal(job.txHash, mined.transactions.find((t) => t.hash === job.txHash)?.hash);
      assert.equal(await network.provider.getTransactionCount(network.signerAddress, 'latest'), firstTx!.nonce + 1);
    } finally {
      await network.edr!.request({ method: 'evm_setAutomine', params: [true] });
    }
  });

  it('fails a job whose transaction would revert, with the reason, and consumes no nonce', async () => {
    const network = sepolia();
    const unbatched = anchorAlone(network);
    const registry = new Contract(network.contracts.documentRegistry!, contractArtifact('DocumentRegistry').abi, network.wallet);
    // An operator revokes the service's writer role (a transaction from the same signer outside the worker:
    // the worker takes the next nonce from the chain, not only from its own records).
    await (await registry.getFunction('setWriter')(network.signerAddress, false)).wait();
    try {
      const res = await h.client.submitDocument(
        { kind: DocumentKind.DOCUMENT_KIND_FRAMEWORK_HTML, network: 'sepolia', content: Buffer.from('<p>x</p>'), contentType: 'text/html; charset=utf-8', frameworkIdentifier: 'GB-2024' },
        alice(),
      );
      const job = await waitForJob(h.client, h.alice, res.job!.id);
      assert.equal(job.status, FAILED);
      assert.equal(job.error, `The transaction would revert: NotWriter(${network.signerAddress}). Nothing was sent.`);
      assert.equal(job.txHash, undefined);
      await rejectsWith(h.client.getDocument({ jobId: job.id }, alice()), 'FAILED_PRECONDITION', /failed; there is no document to read/);
    } finally {
      await (await registry.getFunction('setWriter')(network.signerAddress, true)).wait();
      unbatched.restore();
    }
    const after = await h.client.insertString({ network: 'sepolia', key: 'after-revert', value: 'ok' }, alice());
    assert.equal((await waitForJob(h.client, h.alice, after.jobId)).status, COMPLETED);
  });

  it('fails a job whose transaction reverted on chain, with the reason and the receipt', async () => {
    const network = sepolia();
    const unbatched = anchorAlone(network);
    const edr = network.edr!;
    await edr.request({ method: 'evm_setAutomine', params: [false] });
    try {
      const res = await h.client.submitDocument(
        { kind: DocumentKind.DOCUMENT_KIND_FRAMEWORK_JSON, network: 'sepolia', content: frameworkDoc(5), contentType: 'application/json', frameworkIdentifier: 'GB-2024' },
        alice(),
      );
      await waitForJob(h.client, h.alice, res.job!.id, [SUBMITTED]);
      // Between sending and mining, the writer role disappears (slot 1 holds `writers`).
      const slot = keccak256(AbiCoder.defaultAbiCoder().encode(['address', 'uint256'], [network.signerAddress, 1]));
      await edr.request({ method: 'hardhat_setStorageAt', params: [network.contracts.documentRegistry, slot, zeroPadValue('0x00', 32)] });
      await edr.request({ method: 'evm_mine', params: [] });
      const job = await waitForJob(h.client, h.alice, res.job!.id);
      assert.equal(job.status, FAILED);
      assert.match(job.error!, new RegExp(`^The transaction reverted in block ${job.blockNumber}: NotWriter\\(${network.signerAddress}\\)\\.$`));
      assert.equal(job.receipt!.status, 0);
      assert.ok(job.networkCost! > 0);
      await edr.request({ method: 'hardhat_setStorageAt', params: [network.contracts.documentRegistry, slot, zeroPadValue('0x01', 32)] });
    } finally {
      unbatched.restore();
      await edr.request({ method: 'evm_setAutomine', params: [true] });
    }
  });

  it('resumes after a worker restart without loss or duplicates', async () => {
    const network = sepolia();
    await h.service.stopWorker();
    assert.equal(h.service.worker, undefined, 'no worker runs');
    const before = await network.provider.getTransactionCount(network.signerAddress, 'latest');
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) ids.push((await h.client.insertString({ network: 'sepolia', key: `r${i}`, value: `v${i}` }, alice())).jobId);
    await h.service.relay.flush();
    for (const id of ids) assert.equal((await h.client.getJob({ jobId: id }, alice())).job!.status, QUEUED);
    assert.equal(await network.provider.getTransactionCount(network.signerAddress, 'pending'), before, 'nothing sent without a worker');
    await h.service.startWorker(ONE_INSERT_PER_TRANSACTION);
    const done = await Promise.all(ids.map((id) => waitForJob(h.client, h.alice, id)));
    assert.ok(done.every((j) => j.status === COMPLETED && j.attempts === 1));
    // A redelivered message (as after a crash mid-handler) sends nothing again: counted on the node once a
    // job accepted after the redelivery completed.
    await h.bus.publish(TOPIC_JOBS, ids.map((jobId) => ({ key: `sepolia:${network.signerAddress}`, value: JSON.stringify({ jobId, network: 'sepolia', signer: network.signerAddress }) })));
    const fence = await fenceJob(h, 'sepolia');
    assert.equal(await network.provider.getTransactionCount(network.signerAddress, 'latest'), before + 6);
    assert.equal(await network.provider.getTransactionCount(network.signerAddress, 'pending'), before + 6, 'nothing left in the mempool');
    const nonces = (await Promise.all([...ids, fence].map((id) => h.service.jobs.load(id)))).map((r) => r!.nonce!).sort((a, b) => a - b);
    assert.deepEqual(nonces, [0, 1, 2, 3, 4, 5].map((i) => before + i));
  });

  it('runs jobs on an alias under the name the client used', async () => {
    const res = await h.client.insertString({ network: 'mumbai', key: 'legacy', value: 'alias' }, alice());
    const job = await waitForJob(h.client, h.alice, res.jobId);
    assert.equal(job.status, COMPLETED, job.error);
    assert.equal(job.network, 'mumbai');
    assert.equal(job.keyValue!.contractAddress, h.service.networks.resolve('amoy').network.contracts.keyValueStore);
  });

  it('lists jobs and document jobs of the caller only', async () => {
    const fw = await h.client.listDocumentJobs({ frameworkIdentifier: 'GB-2024', kinds: [] }, alice());
    assert.ok(fw.jobs.length >= 4);
    assert.deepEqual(fw.jobs.map((e) => e.id), [...fw.jobs.map((e) => e.id)].sort((a, b) => a - b));
    assert.ok(fw.jobs.every((e) => e.network === 'sepolia' && /^[0-9a-f-]{36}$/.test(e.jobId)));
    assert.deepEqual((await h.client.listDocumentJobs({ frameworkIdentifier: 'GB-2024', kinds: [] }, { caller: h.bob })).jobs, []);
    await rejectsWith(h.client.listDocumentJobs({ kinds: [] }, alice()), 'INVALID_ARGUMENT');

    const pos = await h.client.submitDocument(
      { kind: DocumentKind.DOCUMENT_KIND_POSITION_IMPACTS_HTML, network: 'amoy', content: Buffer.from('<h1>Impacts</h1>'), contentType: 'text/html', investorIdentifier: 'INV-9', positionId: 7, reportingYear: 2024 },
      alice(),
    );
    await waitForJob(h.client, h.alice, pos.job!.id);
    const impacts = await h.client.listDocumentJobs({ investorIdentifier: 'INV-9', positionId: 7, kinds: [] }, alice());
    assert.deepEqual(impacts.jobs.map((e) => [e.id, e.jobId, e.kind, e.status, e.reportingYear]), [
      [pos.documentId, pos.job!.id, DocumentKind.DOCUMENT_KIND_POSITION_IMPACTS_HTML, COMPLETED, 2024],
    ]);
    const html = await h.client.getDocument({ jobId: pos.job!.id }, alice());
    assert.equal(html.verified, true);
    assert.equal(html.contentType, 'text/html');

    const page1 = await h.client.listJobs({ pageSize: 5, pageToken: '' }, alice());
    assert.equal(page1.jobs.length, 5);
    const page2 = await h.client.listJobs({ pageSize: 5, pageToken: page1.nextPageToken }, alice());
    const seen = [...page1.jobs, ...page2.jobs].map((j) => j.createdAt);
    assert.deepEqual(seen, [...seen].sort().reverse());
    assert.equal(new Set([...page1.jobs, ...page2.jobs].map((j) => j.id)).size, 10);
    const docs = await h.client.listJobs({ kind: JobKind.JOB_KIND_DOCUMENT, status: COMPLETED, pageSize: 0, pageToken: '' }, alice());
    assert.ok(docs.jobs.length >= 4 && docs.jobs.every((j) => j.kind === JobKind.JOB_KIND_DOCUMENT && j.status === COMPLETED));
    const bobs = await h.client.listJobs({ pageSize: 500, pageToken: '' }, { caller: h.bob });
    assert.ok(bobs.jobs.length >= 1);
    assert.ok(bobs.jobs.every((j) => !page1.jobs.some((a) => a.id === j.id)));
    await rejectsWith(h.client.getJob({ jobId: page1.jobs[0]!.id }, { caller: h.bob }), 'NOT_FOUND');
    await rejectsWith(h.client.getDocument({ jobId: String(pos.documentId) }, { caller: h.bob }), 'NOT_FOUND');
    await rejectsWith(h.client.getJob({ jobId: 'nope' }, alice()), 'INVALID_ARGUMENT');
    await rejectsWith(h.client.listJobs({ pageSize: 5, pageToken: 'garbage' }, alice()), 'INVALID_ARGUMENT');
  });

  it('lists the networks and relays read-only JSON-RPC', async () => {
    const { networks } = await h.client.listNetworks({}, alice());
    assert.deepEqual(networks.map((n) => [n.name, n.embedded, n.aliasOf, n.rpcUrl]), [
      ['sepolia', true, undefined, '/rpc/sepolia'],
      ['amoy', true, undefined, '/rpc/amoy'],
      ['mumbai', true, 'amoy', '/rpc/mumbai'],
    ]);
    assert.equal(networks[2]!.chainId, networks[1]!.chainId);
    assert.ok(networks.every((n) => /^0x[0-9a-fA-F]{40}$/.test(n.documentRegistryAddress) && /^0x[0-9a-fA-F]{40}$/.test(n.nftContractAddress)));
    const rpc = async (body: unknown) =>
      JSON.parse(Buffer.from((await h.client.relayJsonRpc({ network: 'sepolia', body: Buffer.from(JSON.stringify(body)) })).body).toString());
    assert.deepEqual(await rpc({ jsonrpc: '2.0', id: 1, method: 'eth_chainId', params: [] }), { jsonrpc: '2.0', id: 1, result: '0x7a69' });
    const [code, denied] = await rpc([
      { jsonrpc: '2.0', id: 2, method: 'eth_getCode', params: [networks[0]!.keyValueStoreAddress, 'latest'] },
      { jsonrpc: '2.0', id: 3, method: 'eth_sendRawTransaction', params: ['0x00'] },
    ]);
    assert.ok(code.result.length > 100);
    assert.equal(denied.error.code, -32601);
    // The root anchoring a document is readable by anyone through the relay.
    const iface = new Interface(contractArtifact('DocumentRoots').abi);
    const fw = (await h.client.listDocumentJobs({ frameworkIdentifier: 'GB-2024', kinds: [] }, alice())).jobs[0]!;
    const { proof } = await h.client.getDocument({ jobId: fw.jobId }, alice());
    const call = await rpc({ jsonrpc: '2.0', id: 4, method: 'eth_call', params: [{ to: proof!.contract, data: iface.encodeFunctionData('getRoot', [proof!.root]) }, 'latest'] });
    assert.equal(iface.decodeFunctionResult('getRoot', call.result)[0], true);
    const malformed = await h.client.relayJsonRpc({ network: 'sepolia', body: Buffer.from('{') });
    assert.equal(JSON.parse(Buffer.from(malformed.body).toString()).error.code, -32700);
    assert.equal((await rpc({ jsonrpc: '2.0', id: 5 })).error.code, -32600);
  });

  it('replays the embedded history on restart, so documents written before still verify', async () => {
    const fw = (await h.client.listDocumentJobs({ frameworkIdentifier: 'GB-2024', kinds: [] }, alice())).jobs.filter((e) => e.status === COMPLETED);
    const before = await h.client.getDocument({ jobId: fw[fw.length - 1]!.jobId }, alice());
    await h.restart();
    const after = await h.client.getDocument({ jobId: before.job!.id }, alice());
    assert.equal(after.verified, true);
    assert.equal(after.anchoredSha256, before.anchoredSha256);
    const sel = await h.client.selectString({ network: 'sepolia', key: 'greeting' }, alice());
    assert.equal((await waitForJob(h.client, h.alice, sel.jobId)).keyValue!.value, 'hello, chain');
    const res = await h.client.insertString({ network: 'sepolia', key: 'after-restart', value: 'ok' }, alice());
    assert.equal((await waitForJob(h.client, h.alice, res.jobId)).status, COMPLETED);
  });

  it('serves content by CID and says clearly when it has none', async () => {
    const blocks = await readdir(join(h.contentDir, 'blocks'));
    assert.ok(blocks.length > 0);
    await rejectsWith(h.client.getContent({ cid: 'bafkreigh2akiscaildcqabsyg3dfr6chu3fgpregiymsck7e7aqa4s52zy' }), 'NOT_FOUND');
    await rejectsWith(h.client.getContent({ cid: '../../etc/passwd' }), 'INVALID_ARGUMENT');
  });
});
