import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { ListJobsRequest } from '@green-impact/proto/greenimpact/chain/v1/chain';
import { skipReason, testDatabases } from '@green-impact/testing/shared/databases';
import { rejectsWith, startChainHarness, type ChainHarness } from '@green-impact/testing/chain/harness';

const token = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
/** The gateway's page_before for the last items of a list (pagination.ts END_OF_LIST). */
const END = token([Number.MAX_SAFE_INTEGER, '999999999999999']);

/**
 * ListJobs with page_order and page_before (the GraphQL jobs connection's orderBy and last/before): each
 * order both ways, a page at a time, backward from the end and from a token, ties broken by the job's
 * sequence number; the default order (newest first) keeps the service's own `jobs:<seq>` tokens. PGlite
 * and PostgreSQL. The worker is stopped: the jobs stay as the test sets them.
 */
for (const db of testDatabases) {
  describe(`jobs ordered by the service on ${db.name}`, { skip: await skipReason(db), timeout: 120_000 }, () => {
    let h: ChainHarness;
    /** Job id → label, A to E in the order of creation. */
    const labels = new Map<string, string>();

    before(async () => {
      h = await startChainHarness({ db });
      await h.service.stopWorker();
      // Kind, network, status, created_at (A and C equal to the microsecond), updated_at.
      const jobs = [
        ['string', 'sepolia', 'completed', '2026-01-03 10:00:00.123456+00', '2026-02-05 00:00:00+00'],
        ['bytes32', 'amoy', 'failed', '2026-01-01 10:00:00+00', '2026-02-01 00:00:00+00'],
        ['string', 'amoy', 'queued', '2026-01-03 10:00:00.123456+00', '2026-02-04 00:00:00+00'],
        ['bytes32', 'sepolia', 'completed', '2026-01-03 10:00:00.123455+00', '2026-02-02 00:00:00+00'],
        ['string', 'sepolia', 'submitted', '2026-01-05 10:00:00+00', '2026-02-03 00:00:00+00'],
      ] as const;
      for (const [i, [kind, network, status, createdAt, updatedAt]] of jobs.entries()) {
        const req = { network, key: `ordered-${i}`, value: `v${i}` };
        const { jobId } = kind === 'string' ? await h.client.insertString(req, { caller: h.alice }) : await h.client.insertBytes32(req, { caller: h.alice });
        labels.set(jobId, 'ABCDE'[i]!);
        await h.service.dataSource.query(`UPDATE chain.jobs SET status = $2, created_at = $3, updated_at = $4 WHERE id = $1`, [jobId, status, createdAt, updatedAt]);
      }
      await h.client.insertString({ network: 'sepolia', key: 'bobs', value: 'b' }, { caller: h.bob });
    });
    after(async () => {
      await h?.stop();
    });

    const read = async (order: { field: string; descending: boolean } | undefined, pageSize: number, between: Partial<ListJobsRequest> = {}) => {
      const res = await h.client.listJobs({ pageSize, pageToken: '', ...(order ? { pageOrder: order } : {}), ...between }, { caller: h.alice });
      return { ...res, labels: res.jobs.map((j) => labels.get(j.id) ?? `other ${j.id}`) };
    };
    const walk = async (order: { field: string; descending: boolean } | undefined) => {
      const seen: string[] = [];
      let pageToken = '';
      do {
        const res = await read(order, 1, { pageToken });
        seen.push(...res.labels);
        if (res.nextPageToken) assert.equal(res.cursors.at(-1), res.nextPageToken, "next_page_token is the last job's cursor");
        pageToken = res.nextPageToken;
      } while (pageToken);
      return seen;
    };

    it('page_order orders the pages by a field, then the sequence number, both ways, forward and backward; tokens resume only their order', async () => {
      const expected: Record<string, string> = {
        id: 'ABCDE',
        created_at: 'BDACE',
        updated_at: 'BDECA',
        status: 'ADBCE',
        kind: 'BDACE',
        network: 'BCADE',
      };
      for (const [field, upText] of Object.entries(expected)) {
        const up = [...upText];
        const down = [...up].reverse();
        assert.deepEqual((await read({ field, descending: false }, 100)).labels, up, `${field} ascending`);
        assert.deepEqual(await walk({ field, descending: false }), up, `${field} ascending, a page at a time`);
        assert.deepEqual(await walk({ field, descending: true }), down, `${field} descending, a page at a time`);
        const last = await read({ field, descending: true }, 3, { pageBefore: END });
        assert.deepEqual([last.labels, last.hasPreviousPage], [down.slice(2), true], `${field} descending, last 3`);
        const earlier = await read({ field, descending: true }, 5, { pageBefore: last.cursors[0]! });
        assert.deepEqual([earlier.labels, earlier.hasPreviousPage], [down.slice(0, 2), false], `${field} descending, before the last 3`);
        const resumed = await read({ field, descending: true }, 5, { pageToken: last.cursors[1]! });
        assert.deepEqual(resumed.labels, down.slice(4), `${field} descending, forward from a backward page's cursor`);
      }
      const byStatus = await read({ field: 'status', descending: false }, 1);
      const again = 'page_token is not a token this service gave out.';
      await rejectsWith(read({ field: 'kind', descending: false }, 1, { pageToken: byStatus.nextPageToken }), 'INVALID_ARGUMENT', 'page_token must be a next_page_token of this listing in the same order.');
      await rejectsWith(read(undefined, 1, { pageToken: byStatus.nextPageToken }), 'INVALID_ARGUMENT', 'page_token must be a next_page_token of this listing in the same order.');
      await rejectsWith(read({ field: 'status', descending: true }, 1, { pageBefore: byStatus.nextPageToken }), 'INVALID_ARGUMENT', 'page_before must be a next_page_token of this listing in the same order.');
      await rejectsWith(read(undefined, 1, { pageToken: 'bm90IGEgdG9rZW4' }), 'INVALID_ARGUMENT', again);
      await rejectsWith(read(undefined, 1, { pageToken: byStatus.nextPageToken, pageBefore: END }), 'INVALID_ARGUMENT', 'page_token and page_before cannot be given together: a page is read forward or backward.');
      await rejectsWith(
        read({ field: 'tx_hash', descending: false }, 1),
        'INVALID_ARGUMENT',
        'page_order.field must be one of id, created_at, updated_at, status, kind, network, got "tx_hash".',
      );
    });

    it('without page_order: newest first with the jobs:<seq> tokens as before, also backward', async () => {
      const newest = [...'EDCBA'];
      assert.deepEqual(await walk(undefined), newest);
      const first = await read(undefined, 2);
      assert.deepEqual(first.labels, ['E', 'D']);
      const seqs = (await h.service.dataSource.query(`SELECT seq FROM chain.jobs WHERE id = ANY($1::uuid[]) ORDER BY seq DESC`, [first.jobs.map((j) => j.id)])) as { seq: string }[];
      assert.deepEqual(first.cursors, seqs.map((r) => Buffer.from(`jobs:${r.seq}`).toString('base64url')));
      // The same order asked for by name gives the same tokens.
      assert.deepEqual((await read({ field: 'id', descending: true }, 2)).cursors, first.cursors);
      const last = await read(undefined, 2, { pageBefore: END });
      assert.deepEqual([last.labels, last.hasPreviousPage], [['B', 'A'], true]);
      const between = await read(undefined, 10, { pageBefore: last.cursors[0]! });
      assert.deepEqual([between.labels, between.hasPreviousPage, between.cursors.at(-1)], [['E', 'D', 'C'], false, between.nextPageToken]);
      assert.deepEqual((await read(undefined, 10, { pageToken: first.cursors[1]! })).labels, ['C', 'B', 'A']);
    });
  });
}
