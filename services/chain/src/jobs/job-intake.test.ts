import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { DocumentKind } from '@green-impact/proto/greenimpact/chain/v1/chain';
import { skipReason, testDatabases } from '@green-impact/testing/shared/databases';
import { startChainHarness, type ChainHarness } from '@green-impact/testing/chain/harness';
import { Documents } from '../documents/documents.js';
import { KeyValueJobs } from '../key-value/key-value-jobs.js';
import { JobStore } from './job-store.js';

/**
 * Set-based acceptance (JobStore.accept): a burst of jobs is accepted in a handful of SQL statements, not
 * six to eight per job, each job keeping its own id, row, outbox messages and (documents) entry; an
 * idempotency key repeated inside the burst answers one job; a job that cannot be written fails alone.
 * Statements are counted on the service's data source (its TypeORM logger sees every one, BEGIN and
 * COMMIT included), with no worker running and a job store of the test's own, so nothing else writes.
 */
for (const db of testDatabases) {
  describe(`set-based job acceptance (${db.name})`, { skip: await skipReason(db), timeout: 120_000 }, () => {
    let h: ChainHarness;
    let store: JobStore;
    let statements = 0;
    let outboxWakes = 0;

    before(async () => {
      h = await startChainHarness({ db, service: { worker: false } });
      // The relay must not publish (and delete) the rows this test counts: it stops; the service's stop is idempotent.
      await h.service.relay.stop();
      const logger = h.service.dataSource.logger;
      const logQuery = logger.logQuery.bind(logger);
      logger.logQuery = (...args) => {
        statements++;
        return logQuery(...args);
      };
      store = new JobStore(h.service.dataSource, () => outboxWakes++);
    });
    after(async () => {
      await h?.stop();
    });

    /** The statements `run` sends, and its answer. */
    const counted = async <T>(run: () => Promise<T>): Promise<{ statements: number; answer: T }> => {
      const before = statements;
      const answer = await run();
      return { statements: statements - before, answer };
    };

    it('accepts 50 concurrent key-value inserts in the statements of one, each its own job and messages', async () => {
      const kv = new KeyValueJobs(store, h.service.networks);
      const one = await counted(() => kv.submit(h.alice, 'insertString', { network: 'sepolia', key: 'alone', value: 'v' }));
      // BEGIN, INSERT jobs, SELECT jobs, INSERT outbox (chain.jobs), INSERT outbox (chain.job-events), COMMIT.
      assert.equal(one.statements, 6);
      const wakes = outboxWakes;
      const burst = await counted(() => Promise.all(Array.from({ length: 50 }, (_, i) => kv.submit(h.alice, 'insertString', { network: 'sepolia', key: `burst-${i}`, value: `value ${i}` }))));
      assert.equal(burst.statements, 6, `50 jobs in ${burst.statements} statements`);
      assert.equal(outboxWakes - wakes, 1, 'one commit wakes the relay once');
      const ids = burst.answer.map((a) => a.job.id);
      assert.equal(new Set(ids).size, 50);
      assert.ok(burst.answer.every((a, i) => !a.replayed && a.job.status === 'queued' && a.job.kvKey === `burst-${i}`));
      const outbox = (await h.service.dataSource.query(`SELECT topic, message_key, payload FROM chain.outbox WHERE payload->>'jobId' = ANY($1) ORDER BY id`, [ids])) as {
        topic: string;
        payload: { jobId: string };
      }[];
      assert.deepEqual(outbox.filter((r) => r.topic === 'chain.jobs').map((r) => r.payload.jobId), ids, 'one chain.jobs message per job, in order');
      assert.deepEqual(outbox.filter((r) => r.topic === 'chain.job-events').map((r) => r.payload.jobId), ids, 'one first event per job, in order');
    });

    it('accepts 40 concurrent documents in a few batches of the statements of one, each with its own entry and payload', async () => {
      const documents = new Documents(h.service.dataSource, store, h.service.networks, h.service.content);
      const doc = (i: number) => ({ kind: DocumentKind.DOCUMENT_KIND_FRAMEWORK_JSON, network: 'sepolia', content: Buffer.from(JSON.stringify({ document: i })), contentType: 'application/json', frameworkIdentifier: `GB-${i}` });
      const one = await counted(() => documents.submit(h.alice, doc(-1)));
      // Those of a key-value insert, and the entries' INSERT and the payloads' UPDATE.
      assert.equal(one.statements, 8);
      const burst = await counted(() => Promise.all(Array.from({ length: 40 }, (_, i) => documents.submit(h.alice, doc(i)))));
      // Each submit stores its content (a file write) before it asks for its job, so the 40 reach the store over
      // a few turns of the event loop: a few batches, each of those 8 statements, never 8 per document.
      assert.equal(burst.statements % 8, 0, `40 documents in ${burst.statements} statements`);
      assert.ok(burst.statements <= 8 * 10, `40 documents in ${burst.statements} statements`);
      const entries = (await h.service.dataSource.query(`SELECT id, job_id, framework_identifier FROM chain.documents WHERE job_id = ANY($1::uuid[])`, [burst.answer.map((a) => a.job.id)])) as {
        id: string;
        job_id: string;
        framework_identifier: string;
      }[];
      assert.equal(entries.length, 40);
      for (const [i, a] of burst.answer.entries()) {
        const entry = entries.find((e) => e.job_id === a.job.id)!;
        assert.equal(entry.framework_identifier, `GB-${i}`);
        assert.equal(Number(entry.id), a.documentId);
        const stored = await store.load(a.job.id);
        assert.equal((stored!.payload as { documentId: number }).documentId, a.documentId, 'the job payload names its entry');
      }
    });

    it('one idempotency key repeated in a burst answers one job; a job that cannot be written fails alone', async () => {
      const kv = new KeyValueJobs(store, h.service.networks);
      const same = await Promise.all(Array.from({ length: 5 }, () => kv.submit(h.alice, 'insertString', { network: 'sepolia', key: 'once', value: 'v', idempotencyKey: 'burst-key' })));
      assert.equal(new Set(same.map((a) => a.job.id)).size, 1);
      assert.equal(same.filter((a) => !a.replayed).length, 1);
      // A caller whose account id is no UUID: its row is refused by the database, the others of its burst are accepted.
      const stranger = { accountId: 'not-a-uuid', role: 'user' as const };
      const mixed = await Promise.allSettled([
        kv.submit(h.alice, 'insertString', { network: 'sepolia', key: 'fine-1', value: 'v' }),
        kv.submit(stranger, 'insertString', { network: 'sepolia', key: 'refused', value: 'v' }),
        kv.submit(h.alice, 'insertString', { network: 'sepolia', key: 'fine-2', value: 'v' }),
      ]);
      assert.deepEqual(mixed.map((r) => r.status), ['fulfilled', 'rejected', 'fulfilled']);
    });
  });
}
