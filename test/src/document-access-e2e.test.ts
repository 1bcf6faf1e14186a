import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { RunningSystem } from '@green-impact/embedded/system';
import { DocumentLinks } from '@green-impact/gateway/document-links';
import { skipReason, testDatabases } from '@green-impact/testing/shared/databases';
import { ESG, seedAccount, seedReferenceData, YEAR, type AccountData } from './support/dataset.js';
import { until } from './support/poll.js';
import { createUserAccount, graphqlClient, ok, startTestSystem } from './support/system.js';
import { conformingV1Client } from './support/answer-conformance.js';

const OPERATOR = 'document-access-operator-key';
const SECRET = 'pNwgBcWEvimaUluBTjXswV01NUqcFNnBoGa0jDTnR1o'; // random, made once for this test
const SAVE = { solution: 'SVC.Blockchain.Save', operation: 'save', version: 1, network: 'sepolia' };

/**
 * Who opens a written document, through real HTTP on the whole system (docs/decisions.md "Documents and
 * links"): the owner's key opens its pages and CIDs; a stranger's key and no key get 404 for a private
 * framework's and a position's documents, by page and by CID; a public framework's document is anyone's
 * by CID; the signed links getHtml*FromBlockchain and GraphQL hand out open without any header, until
 * they expire, are altered or revoked. On PGlite and on PostgreSQL.
 */
for (const db of testDatabases) {
  describe(`document access end to end on ${db.name}`, { skip: await skipReason(db) }, () => {
    let system: RunningSystem;
    let owner: string;
    let stranger: string;
    let a: AccountData;
    const jobs = { privateHtml: '', publicHtml: '', impactsHtml: '', impactsJson: '' };
    const cids = { privateHtml: '', publicHtml: '', impactsHtml: '', impactsJson: '' };

    const get = (path: string, key?: string) => fetch(path.startsWith('http') ? path : `${system.gatewayUrl}${path}`, { headers: key ? { 'x-api-key': key } : {} });
    const status = async (path: string, key?: string) => (await get(path, key)).status;
    const linkOf = async (operation: string, jobId: string) => Object.values(await ok(conformingV1Client(system.gatewayUrl, owner)(ESG, operation, { job_id: jobId }), operation))[0] as string;

    before(async () => {
      system = await startTestSystem(db, OPERATOR, { gatewayDocumentLinks: { DOCUMENT_LINK_SECRET: SECRET } });
      owner = await createUserAccount(system.gatewayUrl, OPERATOR, 'Document Owner');
      stranger = await createUserAccount(system.gatewayUrl, OPERATOR, 'Stranger');
      a = await seedAccount(conformingV1Client(system.gatewayUrl, owner), 'D', await seedReferenceData(conformingV1Client(system.gatewayUrl, OPERATOR)));
      const esg = conformingV1Client(system.gatewayUrl, owner);
      const write = async (operation: string, parameters: Record<string, unknown>) => (await ok(esg(ESG, operation, { reporting_year: YEAR, ...SAVE, ...parameters }), operation)).job_id as string;
      jobs.privateHtml = await write('writeHtmlFrameworkToBlockchain', { framework_identifier: a.framework });
      jobs.publicHtml = await write('writeHtmlFrameworkToBlockchain', { framework_identifier: a.publicFramework });
      const position = { position_id: a.positionId, write_investor_to_blockchain: 'yes', decryption_key: a.encryptionKey };
      jobs.impactsHtml = await write('writeHtmlPositionImpactsToBlockchain', position);
      jobs.impactsJson = await write('writeJsonPositionImpactsToBlockchain', position);
      for (const [name, jobId] of Object.entries(jobs)) {
        const done = await until(
          () => ok(esg(ESG, 'getJobStatusFromBlockchain', { job_id: jobId }), 'status'),
          (s) => ['completed', 'failed'].includes(s.info.status.Value),
          `job ${jobId}`,
        );
        assert.equal(done.info.status.Value, 'completed', JSON.stringify(done));
        cids[name as keyof typeof cids] = done.info.result.cid;
      }
    });
    after(async () => system?.stop());

    it("a stranger's key and no key get 404 for private documents, by page and by CID; the owner's key gets them", async () => {
      for (const name of ['privateHtml', 'impactsHtml'] as const) {
        assert.equal(await status(`/jobs/${jobs[name]}.html`, owner), 200, name);
        assert.equal(await status(`/jobs/${jobs[name]}.html`, stranger), 404, name);
        assert.equal(await status(`/jobs/${jobs[name]}.html`), 401, name);
      }
      for (const name of ['privateHtml', 'impactsHtml', 'impactsJson'] as const) {
        const mine = await get(`/ipfs/${cids[name]}`, owner);
        assert.equal(mine.status, 200, name);
        assert.equal(mine.headers.get('cache-control'), 'private, no-cache');
        assert.equal(mine.headers.get('access-control-allow-origin'), null);
        const unknown = { message: `No content with CID ${cids[name]}.`, code: 'NOT_FOUND' };
        for (const key of [stranger, undefined]) {
          const refused = await get(`/ipfs/${cids[name]}`, key);
          assert.equal(refused.status, 404, `${name} as ${key ? 'a stranger' : 'nobody'}`);
          assert.deepEqual(await refused.json(), unknown, 'the answer of an unknown CID: existence is not revealed');
        }
      }
      // The impacts carry the investor written with write_investor_to_blockchain: only the owner sees them.
      assert.match(await (await get(`/ipfs/${cids.impactsJson}`, owner)).text(), new RegExp(a.canary));
    });

    it("a public framework's document is anyone's by CID", async () => {
      for (const key of [undefined, stranger, owner]) {
        const res = await get(`/ipfs/${cids.publicHtml}`, key);
        assert.equal(res.status, 200);
        assert.equal(res.headers.get('cache-control'), 'public, max-age=31536000, immutable');
        assert.match(await res.text(), new RegExp(a.publicCanary));
      }
    });

    it('the links of getHtml*FromBlockchain and GraphQL open without any header; altered and expired ones are refused', async () => {
      for (const [operation, jobId, marker] of [
        ['getHtmlFrameworkFromBlockchain', jobs.privateHtml, a.canary],
        ['getHtmlPositionImpactsFromBlockchain', jobs.impactsHtml, a.canary],
      ] as const) {
        const link = await linkOf(operation, jobId);
        assert.ok(link.startsWith(`${system.gatewayUrl}/jobs/${jobId}.html?`), link);
        const page = await get(link);
        assert.equal(page.status, 200, operation);
        assert.equal(page.headers.get('cache-control'), 'private, no-store');
        assert.match(await page.text(), new RegExp(marker));
        const url = new URL(link);
        const sig = url.searchParams.get('sig')!;
        url.searchParams.set('sig', `${sig[0] === 'A' ? 'B' : 'A'}${sig.slice(1)}`);
        assert.equal(await status(url.toString()), 404, 'a tampered signature');
        url.searchParams.set('sig', sig);
        url.searchParams.set('exp', String(Number(url.searchParams.get('exp')) + 1));
        assert.equal(await status(url.toString()), 404, 'a stretched expiry');
        assert.equal(await status(link.replace(jobId, jobs.publicHtml)), 404, "another document's link");
      }
      const past = new DocumentLinks({ secret: Buffer.from(SECRET), previousSecret: undefined, ttlSeconds: 60, generated: false }, () => Date.now() - 86_400_000);
      const expired = await get(past.sign(`${system.gatewayUrl}/jobs/${jobs.impactsHtml}.html`, jobs.impactsHtml, 0));
      assert.equal(expired.status, 403);
      assert.match(await expired.text(), /This link has expired/);

      const gql = graphqlClient(system.gatewayUrl, owner);
      const doc = await gql('query($id: ID!) { document(jobId: $id) { pageUrl content } }', { id: jobs.privateHtml });
      assert.equal(doc.errors, undefined, JSON.stringify(doc.errors));
      const page = await get(`${doc.data.document.pageUrl}&raw=1`);
      assert.equal(page.status, 200);
      assert.equal(await page.text(), doc.data.document.content, 'the document alone (raw=1) is the content GraphQL answers');
    });

    it('revoking closes every link handed out so far; new links open; only the owner revokes', async () => {
      const first = await linkOf('getHtmlPositionImpactsFromBlockchain', jobs.impactsHtml);
      const gqlStranger = graphqlClient(system.gatewayUrl, stranger);
      const refused = await gqlStranger('mutation($id: ID!) { revokeDocumentLinks(jobId: $id) { revoked { linkEpoch } } }', { id: jobs.impactsHtml });
      assert.equal(refused.errors?.[0]?.extensions?.['code'], 'NOT_FOUND');
      assert.equal(await status(first), 200);
      const revoked = await ok(conformingV1Client(system.gatewayUrl, owner)(ESG, 'revokeDocumentLinks', { job_id: jobs.impactsHtml }), 'revoke');
      assert.equal(revoked.message, `The links to the document of job ${jobs.impactsHtml} are revoked.`);
      assert.equal(await status(first), 404);
      const second = await linkOf('getHtmlPositionImpactsFromBlockchain', jobs.impactsHtml);
      assert.match(second, /\?v=1&/);
      assert.equal(await status(second), 200);
      assert.equal(await status(`/jobs/${jobs.impactsHtml}.html`, owner), 200, "the owner's key still opens the page");
    });
  });
}
