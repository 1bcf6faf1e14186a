import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DocumentKind, JobStatus } from '@green-impact/proto/greenimpact/chain/v1/chain';
import type { Caller } from '@green-impact/shared/caller';
import { skipReason, testDatabases } from '@green-impact/testing/shared/databases';
import { startChainHarness, waitForJob, type ChainHarness } from '@green-impact/testing/chain/harness';
import { startImageServer, testJpeg } from '@green-impact/testing/chain/nft-fixtures';

const ISSUER = 'https://login.example.com/realms/green';

/**
 * Issue 30: the person a bearer token named reaches the chain service in the signed caller token (`act`)
 * and is stored with what the request creates: the job (every kind), the document, the NFT send. An
 * API-key caller (no subject) stores nobody. Through the real gRPC service, on both databases.
 */
for (const db of testDatabases) {
  describe(`the acting person is stored with jobs, documents and NFT sends (${db.name})`, { timeout: 120_000, skip: await skipReason(db) }, () => {
    let h: ChainHarness;
    let images: Awaited<ReturnType<typeof startImageServer>>;
    let outbox: string;
    let kim: Caller;

    before(async () => {
      images = await startImageServer({ '/art.jpg': { type: 'image/jpeg', body: testJpeg() } });
      outbox = await mkdtemp(join(tmpdir(), 'acting-person-outbox-'));
      h = await startChainHarness({ db, service: { nfts: { mailOutboxDir: outbox, image: { allowPrivateHosts: true } } } });
      kim = { ...h.alice, subject: 'kim@idp', issuer: ISSUER };
    });
    after(async () => {
      await h?.stop();
      await images?.stop();
      if (outbox) await rm(outbox, { recursive: true, force: true });
    });

    const stored = async (table: string, where: string, value: unknown) =>
      (await h.service.dataSource.query(`SELECT acted_by_subject AS s, acted_by_issuer AS i FROM chain.${table} WHERE ${where} = $1`, [value])) as { s: string | null; i: string | null }[];

    it('a document job and its document keep the person; the job answers it', async () => {
      const content = Buffer.from(JSON.stringify({ framework_identifier: 'GB-ACT', rows: [] }));
      const res = await h.client.submitDocument(
        { kind: DocumentKind.DOCUMENT_KIND_FRAMEWORK_JSON, network: 'sepolia', content, contentType: 'application/json', frameworkIdentifier: 'GB-ACT', reportingYear: 2024 },
        { caller: kim },
      );
      assert.deepEqual(res.job!.actedBy, { subject: 'kim@idp', issuer: ISSUER });
      const job = await waitForJob(h.client, h.alice, res.job!.id);
      assert.equal(job.status, JobStatus.JOB_STATUS_COMPLETED, job.error);
      assert.deepEqual(job.actedBy, { subject: 'kim@idp', issuer: ISSUER }, 'read back by the account, with an API key');
      assert.deepEqual(await stored('jobs', 'id', job.id), [{ s: 'kim@idp', i: ISSUER }]);
      assert.deepEqual(await stored('documents', 'job_id', job.id), [{ s: 'kim@idp', i: ISSUER }]);
    });

    it('a key-value job keeps the person; an API-key caller stores nobody', async () => {
      const byKim = await h.client.insertString({ network: 'sepolia', key: 'acted-by', value: 'kim' }, { caller: kim });
      const byKey = await h.client.insertString({ network: 'sepolia', key: 'acted-by-key', value: 'key' }, { caller: h.alice });
      assert.deepEqual(await stored('jobs', 'id', byKim.job!.id), [{ s: 'kim@idp', i: ISSUER }]);
      assert.deepEqual(await stored('jobs', 'id', byKey.job!.id), [{ s: null, i: null }]);
      assert.equal((await h.client.getJob({ jobId: byKey.job!.id }, { caller: h.alice })).job!.actedBy, undefined);
    });

    it('an NFT mint job and its e-mailed send keep the person', async () => {
      const minted = await h.client.mintNft({ network: 'sepolia', name: 'Acted', description: 'by kim', image: `${images.url}/art.jpg`, attributes: [] }, { caller: kim });
      const job = await waitForJob(h.client, h.alice, minted.jobId);
      assert.equal(job.status, JobStatus.JOB_STATUS_COMPLETED, job.error);
      assert.deepEqual(job.actedBy, { subject: 'kim@idp', issuer: ISSUER });
      await h.client.sendNft({ network: 'sepolia', nftId: job.nftId!, email: 'lee@example.org' }, { caller: kim });
      assert.deepEqual(await stored('nft_sends', 'nft_guid', job.nftGuid), [{ s: 'kim@idp', i: ISSUER }]);
    });

    it('the database refuses half a person (a subject without its issuer)', async () => {
      const [{ id }] = (await h.service.dataSource.query(`SELECT id FROM chain.jobs LIMIT 1`)) as [{ id: string }];
      await assert.rejects(h.service.dataSource.query(`UPDATE chain.jobs SET acted_by_subject = 'x', acted_by_issuer = NULL WHERE id = $1`, [id]), /acted_by_both/);
    });
  });
}
