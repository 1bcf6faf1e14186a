import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { Interface } from 'ethers';
import { JobStatus } from '@green-impact/proto/greenimpact/chain/v1/chain';
import { skipReason, testDatabases } from '@green-impact/testing/shared/databases';
import { startChainHarness, waitForJob, type ChainHarness } from '@green-impact/testing/chain/harness';
import { contractArtifact } from '../contracts/artifacts.js';
import { KV_BATCH_GAS_BUDGET } from '../worker/job-batches.js';

/**
 * Key-value inserts many per transaction, as by default (CHAIN_KV_BATCH 64, window 50 ms; embedded EVM,
 * real gRPC, both databases): one account's inserts go in one KeyValueStore.insertMany, each job with its
 * own outcome; accounts never share a transaction; a select after the inserts reads what they wrote; an
 * entry the store skips fails alone; a lone insert goes on its own.
 */
for (const db of testDatabases) {
  describe(`batched key-value inserts by default (${db.name})`, { skip: await skipReason(db), timeout: 120_000 }, () => {
    let h: ChainHarness;
    const kv = new Interface(contractArtifact('KeyValueStore').abi);

    before(async () => {
      h = await startChainHarness({ db });
    });
    after(async () => {
      await h?.stop();
    });

    it("puts one account's concurrent inserts in few transactions, each job its own outcome; another account's apart", async () => {
      const bob = { accountId: randomUUID(), role: 'user' as const };
      // The worker stopped, so all of them wait in the queue when it looks: the batches do not depend on timing.
      await h.service.stopWorker();
      const writes = await Promise.all([
        ...Array.from({ length: 10 }, (_, i) => h.client.insertString({ network: 'sepolia', key: `batched-${i}`, value: `value ${i}` }, { caller: h.alice })),
        ...Array.from({ length: 4 }, (_, i) => h.client.insertBytes32({ network: 'sepolia', key: `word-${i}`, value: `w${i}` }, { caller: h.alice })),
        ...Array.from({ length: 5 }, (_, i) => h.client.insertString({ network: 'sepolia', key: `batched-${i}`, value: `bob ${i}` }, { caller: bob })),
      ]);
      await h.service.startWorker();
      const jobs = await Promise.all(writes.map((w, i) => waitForJob(h.client, i < 14 ? h.alice : bob, w.jobId)));
      for (const job of jobs) {
        assert.equal(job.status, JobStatus.JOB_STATUS_COMPLETED, job.error);
        assert.equal(job.keyValue!.found, true);
        assert.equal(job.receipt!.status, 1);
      }
      const aliceTx = new Set(jobs.slice(0, 14).map((j) => j.txHash));
      const bobTx = new Set(jobs.slice(14).map((j) => j.txHash));
      assert.equal(aliceTx.size, 1, `14 inserts in ${aliceTx.size} transaction(s)`);
      assert.equal(bobTx.size, 1, `5 inserts in ${bobTx.size} transaction(s)`);
      assert.deepEqual([...aliceTx].filter((t) => bobTx.has(t)), [], 'accounts never share a transaction');
      // The transaction is an insertMany reporting each entry with the single insert's event.
      const tx = await h.service.networks.resolve('sepolia').network.provider.getTransaction(jobs[0]!.txHash!);
      assert.equal(kv.parseTransaction({ data: tx!.data })!.name, 'insertMany');
      const events = jobs[0]!.receipt!.logs.map((l) => kv.parseLog({ topics: l.topics, data: l.data })!.name);
      assert.ok(events.every((e) => e === 'StringInserted' || e === 'Bytes32Inserted'), events.join());

      const read = await h.client.selectString({ network: 'sepolia', key: 'batched-3' }, { caller: h.alice });
      assert.equal((await waitForJob(h.client, h.alice, read.jobId)).keyValue!.value, 'value 3');
      const readBob = await h.client.selectString({ network: 'sepolia', key: 'batched-3' }, { caller: bob });
      assert.equal((await waitForJob(h.client, bob, readBob.jobId)).keyValue!.value, 'bob 3');
      const word = await h.client.selectBytes32({ network: 'sepolia', key: 'word-2' }, { caller: h.alice });
      assert.equal((await waitForJob(h.client, h.alice, word.jobId)).keyValue!.value, 'w2');
    });

    it('splits inserts that would not fit a block into batches within the gas budget', async () => {
      // 12 values of 4000 bytes: about 34M gas in one insertMany, more than a block holds.
      const big = (i: number) => `${i}`.padEnd(4000, 'x');
      await h.service.stopWorker();
      const writes = await Promise.all(Array.from({ length: 12 }, (_, i) => h.client.insertString({ network: 'sepolia', key: `big-${i}`, value: big(i) }, { caller: h.alice })));
      await h.service.startWorker();
      const jobs = await Promise.all(writes.map((w) => waitForJob(h.client, h.alice, w.jobId)));
      for (const job of jobs) assert.equal(job.status, JobStatus.JOB_STATUS_COMPLETED, job.error);
      // About 3M gas each by the estimate: three fit the 10M budget, four do not.
      const transactions = new Set(jobs.map((j) => j.txHash));
      assert.equal(transactions.size, 4, `12 big inserts in ${transactions.size} transactions`);
      for (const job of jobs) assert.ok(job.gasUsed! * jobs.filter((j) => j.txHash === job.txHash).length <= KV_BATCH_GAS_BUDGET);
      const read = await h.client.selectString({ network: 'sepolia', key: 'big-7' }, { caller: h.alice });
      assert.equal((await waitForJob(h.client, h.alice, read.jobId)).keyValue!.value, big(7));
    });

    it('an item that cannot go fails alone, checked before batching; the others of its batch complete', async () => {
      // The worker stopped, so both wait in the queue and go in one batch.
      await h.service.stopWorker();
      const good = await h.client.insertString({ network: 'sepolia', key: 'fine-1', value: 'ok' }, { caller: h.alice });
      const bad = await h.client.insertString({ network: 'sepolia', key: 'spoiled', value: 'x' }, { caller: h.alice });
      // A row spoiled after it was accepted (keys are checked at intake too; this is what the batcher re-checks).
      await h.service.dataSource.query(`UPDATE chain.jobs SET payload = jsonb_set(payload, '{key}', '""') WHERE id = $1`, [bad.jobId]);
      await h.service.startWorker();
      const [g, b] = await Promise.all([waitForJob(h.client, h.alice, good.jobId), waitForJob(h.client, h.alice, bad.jobId)]);
      assert.equal(g.status, JobStatus.JOB_STATUS_COMPLETED, g.error);
      assert.equal(b.status, JobStatus.JOB_STATUS_FAILED);
      assert.match(b.error!, /must be 1–32 characters; nothing was sent/);
      assert.equal(b.txHash, undefined);
      assert.equal(g.keyValue!.found, true);
    });

    it('a lone insert goes in a batch of its own once its window closes', async () => {
      const lone = await h.client.insertString({ network: 'sepolia', key: 'lone', value: 'alone' }, { caller: h.alice });
      const job = await waitForJob(h.client, h.alice, lone.jobId);
      assert.equal(job.status, JobStatus.JOB_STATUS_COMPLETED, job.error);
      const row = (await h.service.jobs.load(lone.jobId))!;
      const members = (await h.service.dataSource.query(`SELECT count(*)::int AS n FROM chain.jobs WHERE batch_job_id = $1`, [row.batchJobId])) as { n: number }[];
      assert.equal(members[0]!.n, 1, 'the batch carries the lone insert only');
      const read = await h.client.selectString({ network: 'sepolia', key: 'lone' }, { caller: h.alice });
      assert.equal((await waitForJob(h.client, h.alice, read.jobId)).keyValue!.value, 'alone');
    });
  });
}
