import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { DocumentFormat } from '@green-impact/proto/greenimpact/common/v1/common';
import { TaxonomyServiceService } from '@green-impact/proto/greenimpact/taxonomy/v1/taxonomy';
import type { Caller } from '@green-impact/shared/caller';
import { createGrpcClient } from '@green-impact/shared/grpc/client';
import { skipReason, testDatabases } from '@green-impact/testing/shared/databases';
import type { RunningSystem } from '@green-impact/embedded/system';
import { rawCidOf } from '@green-impact/testing/shared/cid-by-hand';
import { createHash } from 'node:crypto';
import { Contract, JsonRpcProvider, keccak256, toUtf8Bytes } from 'ethers';
import { jsonRpcOver, verifyDocumentProof } from '@green-impact/chain/proofs/document-proof';
import { parseTrustAnchor } from '@green-impact/chain/proofs/trust-anchor';
import { type CallResult, createUserAccount, graphqlClient, ok, startTestSystem } from './support/system.js';
import { assertConformingAnswer, conformingV1Client } from './support/answer-conformance.js';
import { until } from './support/poll.js';

const ESG = 'SVC.ESG.Credits';
const HASH = 'SVC.Blockchain.Hash';
const OPERATOR = 'chain-operator-key';
const YEAR = 2024;
const SAVE = { solution: 'SVC.Blockchain.Save', operation: 'save', version: 1, network: 'sepolia' };
const idOf = (message: string): number => Number(/(\d+)\.$/.exec(message)?.[1]);

/**
 * Blockchain jobs with the whole system on the embedded networks: an operator loads a small taxonomy; an
 * issuer builds a framework with its year figures and rows, writes it to `sepolia` as JSON and as HTML,
 * follows the jobs to `completed`, reads the documents back verified (equal to what the taxonomy service
 * renders), lists them, fetches their bytes by CID and checks the transaction through the JSON-RPC relay;
 * then a position's impacts, the key-value store of SVC.Blockchain.Hash with Idempotency-Key, and the same
 * through GraphQL. On PGlite and on PostgreSQL.
 */
for (const db of testDatabases) {
  describe(`blockchain jobs end to end through the gateway on ${db.name}`, { skip: await skipReason(db) }, () => {
    let system: RunningSystem;
    let issuerKey: string;
    let issuer: Caller;
    let esg: ReturnType<typeof conformingV1Client>;

    /** POST /v1/call with any envelope and headers. */
    const post = async (body: Record<string, unknown>, headers: Record<string, string> = {}): Promise<CallResult> => {
      const res = await fetch(`${system.gatewayUrl}/v1/call`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-api-key': issuerKey, ...headers },
        body: JSON.stringify(body),
      });
      const answer = await res.json();
      if (res.status === 200) await assertConformingAnswer(system.gatewayUrl, String(body['solution']), String(body['operation']), answer);
      return { status: res.status, body: answer };
    };
    const status = (jobId: string) => ok(esg(ESG, 'getJobStatusFromBlockchain', { job_id: jobId }), 'getJobStatusFromBlockchain');
    const completed = (jobId: string) =>
      until(() => status(jobId), (s) => s.info.status.Value === 'completed' || s.info.status.Value === 'failed', `job ${jobId}`).then((s) => {
        assert.equal(s.info.status.Value, 'completed', JSON.stringify(s));
        return s;
      });
    const rpc = async (method: string, params: unknown[]) => {
      const res = await fetch(`${system.gatewayUrl}/rpc/sepolia`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
      });
      assert.equal(res.status, 200);
      return ((await res.json()) as { result: any }).result;
    };

    before(async () => {
      system = await startTestSystem(db, OPERATOR);
      issuerKey = await createUserAccount(system.gatewayUrl, OPERATOR, 'Chain Issuer');
      const me = await graphqlClient(system.gatewayUrl, issuerKey)('{ me { id } }');
      issuer = { accountId: me.data.me.id, role: 'user' };
      esg = conformingV1Client(system.gatewayUrl, issuerKey);

      // The operator's taxonomy: one sub category (SDG 7) with two indicators.
      const op = conformingV1Client(system.gatewayUrl, OPERATOR);
      const id = async (operation: string, params: Record<string, unknown>) =>
        idOf((await ok(op(ESG, operation, { reporting_year: YEAR, language_code: 'en', ...params }), operation)).message);
      const category = await id('addCategory', { category_name: 'Renewable energy' });
      const solar = await id('addSubCategory', { sub_category_name: 'Solar power', category_id: category });
      await ok(op(ESG, 'addGoalObjectiveToSubCategory', { sub_category_id: solar, reporting_year: YEAR, sdg_id: 7, eu_objective_id: '' }), 'sdg');
      const mwh = await id('addUnit', { unit_name: 'MWh/year' });
      const energy = await id('addSuperIndicator', { super_indicator_name: 'Energy', category_id: category });
      const generation = await id('addIndicator', { indicator_name: 'Renewable energy generated', super_indicator_id: energy, unit_id: mwh });
      const capacity = await id('addIndicator', { indicator_name: 'Capacity installed', super_indicator_id: energy, unit_id: mwh });

      // The issuer's framework with its year figures and two rows.
      await ok(esg(ESG, 'addFramework', { framework_identifier: 'GBF-CHAIN', framework_name: 'Green Bond Framework', framework_currency_code: 'EUR', framework_visibility: 'public' }), 'addFramework');
      await ok(esg(ESG, 'addYearSpecificsToFramework', { framework_identifier: 'GBF-CHAIN', value_outstanding: 500_000_000, allocated_amount: 450_000_000, value_outstanding_framework: 'yes', reporting_year: YEAR }), 'specifics');
      for (const [indicator, value] of [[generation, 45_000.5], [capacity, 120]] as const) {
        await ok(esg(ESG, 'addCategoryIndicatorToFramework', { framework_identifier: 'GBF-CHAIN', sub_category_id: solar, sub_category_volume: 400_000_000, indicator_id: indicator, indicator_value: value, reporting_year: YEAR }), 'row');
      }
    });
    after(async () => system?.stop());

    it('framework documents through /v1/call: written, completed, read back verified, listed, by CID, on the chain', async () => {
      const json = await ok(esg(ESG, 'writeJsonFrameworkToBlockchain', { framework_identifier: 'GBF-CHAIN', reporting_year: YEAR, ...SAVE, sdg_goals_included: 'yes' }), 'write json');
      assert.deepEqual(Object.keys(json), ['statusCode', 'statusMessage', 'info', 'job_id']);
      assert.equal(json.info.jobId, json.job_id);
      const html = await ok(esg(ESG, 'writeHtmlFrameworkToBlockchain', { framework_identifier: 'GBF-CHAIN', reporting_year: YEAR, ...SAVE, network: 'mumbai' }), 'write html');

      const done = await completed(json.job_id);
      assert.equal(done.statusCode, 200);
      assert.equal(done.statusMessage, '');
      assert.deepEqual(done.info.type, { value: 'blockchain-job' });
      assert.equal(done.info.guid, json.job_id);
      assert.match(done.info.hash, /^0x[0-9a-f]{64}$/);
      assert.equal(done.info.receipt._type, 'TransactionReceipt');
      assert.equal(done.info.receipt.status, 1);
      assert.equal(done.info.receipt.hash, done.info.hash);
      assert.ok(done.info.networkCost > 0, 'the transaction cost gas');
      assert.equal(done.info.networkTotal, done.info.networkCost + done.info.networkFee);
      assert.equal(done.info.request.operation, 'writeJsonFrameworkToBlockchain');
      assert.equal(done.info.request.parameters.framework_identifier, 'GBF-CHAIN');
      await completed(html.job_id);

      // Read back: exactly the document the taxonomy service renders.
      const taxonomy = createGrpcClient(TaxonomyServiceService, system.grpc.taxonomy);
      try {
        const rendered = await taxonomy.renderFrameworkDocument(
          { frameworkIdentifier: 'GBF-CHAIN', reportingYear: YEAR, format: DocumentFormat.DOCUMENT_FORMAT_JSON, sdgGoalsIncluded: true, euObjectivesIncluded: false },
          { caller: issuer },
        );
        const read = await ok(esg(ESG, 'getJsonFrameworkFromBlockchain', { job_id: json.job_id }), 'read json');
        assert.deepEqual(read, JSON.parse(Buffer.from(rendered.content).toString('utf8')));
        const [details] = await ok(esg(ESG, 'getFrameworkDetails', { framework_identifier: 'GBF-CHAIN', reporting_year: YEAR }), 'details');
        const figures = (rows: any[]) => rows.map((r) => [r.sub_category_id, r.indicator_id, r.sub_category_volume, r.indicator_value]);
        assert.deepEqual(figures(read.framework), figures(details.framework));
        assert.equal(read.framework_value_outstanding, 500_000_000);

        // By CID: the bytes are what was rendered, and their CID is the one anchored.
        const cid = done.info.result.cid as string;
        const ipfs = await fetch(`${system.gatewayUrl}/ipfs/${cid}`);
        assert.equal(ipfs.status, 200);
        assert.equal(ipfs.headers.get('content-type'), 'application/json');
        assert.equal(ipfs.headers.get('cache-control'), 'public, max-age=31536000, immutable');
        const bytes = Buffer.from(await ipfs.arrayBuffer());
        assert.equal(rawCidOf(bytes), cid);
        assert.deepEqual(bytes, Buffer.from(rendered.content));

        // Anyone can check it: the document's proof (getDocumentProof) and the standalone verifier, with
        // nothing of the service but the gateway's public JSON-RPC relay (docs/chain.md "Proofs").
        const proved = await ok(esg(ESG, 'getDocumentProof', { job_id: json.job_id }), 'proof');
        assert.equal(proved.verified, true);
        assert.equal(proved.proof.documentSha256, createHash('sha256').update(bytes).digest('hex'));
        assert.equal(proved.proof.cid, cid);
        // Whom to trust is what the deployment publishes (docs/chain.md "Trust anchor").
        const published = await fetch(`${system.gatewayUrl}/trust-anchor.json`);
        assert.equal(published.status, 200);
        assert.equal(published.headers.get('access-control-allow-origin'), '*');
        const trust = parseTrustAnchor(await published.json());
        assert.ok(Object.values(trust[String(proved.proof.chainId)]!.contracts).includes(proved.proof.contract), 'the proof names a contract the anchor trusts');
        const standalone = await verifyDocumentProof(proved.proof, jsonRpcOver(`${system.gatewayUrl}/rpc/sepolia`), bytes, trust);
        assert.equal(standalone.verified, true, JSON.stringify(standalone.checks));

        // The HTML page, served after verification to the account that wrote it.
        const htmlRendered = await taxonomy.renderFrameworkDocument(
          { frameworkIdentifier: 'GBF-CHAIN', reportingYear: YEAR, format: DocumentFormat.DOCUMENT_FORMAT_HTML, sdgGoalsIncluded: false, euObjectivesIncluded: false },
          { caller: issuer },
        );
        const link = await ok(esg(ESG, 'getHtmlFrameworkFromBlockchain', { job_id: html.job_id }), 'html link');
        const url = Object.values(link)[0] as string;
        assert.deepEqual(Object.keys(link), ['Framework document on the blockchain']);
        // {jobs_url}/<job_id>.html, signed: it opens in a browser without a key (document-links.ts).
        assert.match(url, new RegExp(`^${system.gatewayUrl}/jobs/${html.job_id}\\.html\\?v=0&exp=\\d+&sig=[A-Za-z0-9_-]{43}$`));
        const page = await fetch(url);
        assert.equal(page.status, 200);
        assert.equal(page.headers.get('content-type'), 'text/html; charset=utf-8');
        assert.match(await page.text(), /<aside class="anchoring"[^>]*>[\s\S]*<strong>Verified<\/strong>/, 'the anchoring facts around the document');
        // raw=1 on the same link: the anchored bytes alone, as taxonomy rendered them.
        const raw = await fetch(`${url}&raw=1`);
        assert.equal(raw.status, 200);
        assert.equal(await raw.text(), Buffer.from(htmlRendered.content).toString('utf8'));
        const plain = `${system.gatewayUrl}/jobs/${html.job_id}.html`;
        assert.equal((await fetch(plain, { headers: { 'x-api-key': issuerKey } })).status, 200);
        assert.equal((await fetch(plain)).status, 401);
      } finally {
        taxonomy.close();
      }

      // Listed for the framework, oldest first; the entry id reads the same job.
      const entries = await ok(esg(ESG, 'getBlockchainJobsForFrameworks', { framework_identifier: 'GBF-CHAIN' }), 'list');
      assert.deepEqual(entries.map((e: any) => e.job_id), [json.job_id, html.job_id]);
      assert.deepEqual(Object.keys(entries[0]), ['id', 'job_id']);
      assert.deepEqual((await status(String(entries[0].id))).info.hash, done.info.hash);

      // The relay shows the transaction on the network.
      const head = parseInt(await rpc('eth_blockNumber', []), 16);
      assert.ok(head >= done.info.receipt.blockNumber);
      const receipt = await rpc('eth_getTransactionReceipt', [done.info.hash]);
      assert.equal(receipt.status, '0x1');
      assert.equal(receipt.transactionHash, done.info.hash);
      assert.equal(parseInt(receipt.blockNumber, 16), done.info.receipt.blockNumber);
      const refused = await fetch(`${system.gatewayUrl}/rpc/sepolia`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'eth_sendRawTransaction', params: ['0x00'] }),
      });
      assert.equal(((await refused.json()) as any).error.code, -32601);

      // Unknown networks are refused with the known ones, before anything is rendered.
      const unknown = await esg(ESG, 'writeJsonFrameworkToBlockchain', { framework_identifier: 'GBF-CHAIN', reporting_year: YEAR, ...SAVE, network: 'goerli' });
      assert.equal(unknown.status, 400);
      assert.match(unknown.body.message, /^Unknown network "goerli"; expected one of .*sepolia.*$/);
    });

    it("a position's impacts document", async () => {
      await ok(esg(ESG, 'addAsset', { asset_identifier: 'SE-CHAIN-1', asset_name: 'Green bond', issuer_identifier: 'ISS', framework_identifier: 'GBF-CHAIN', asset_currency_code: 'EUR', asset_value_outstanding: 100_000_000 }), 'asset');
      await ok(esg(ESG, 'addInvestor', { investor_identifier: 'inv_chain', investor_name: 'Ann Investor', investor_currency_code: 'EUR' }), 'investor');
      const position = idOf((await ok(esg(ESG, 'addPosition', { investor_identifier: 'inv_chain', asset_identifier: 'SE-CHAIN-1', position_amount: 1_000_000, position_currency_code: 'EUR', reporting_year: YEAR }), 'position')).message);
      const written = await ok(esg(ESG, 'writeJsonPositionImpactsToBlockchain', { position_id: position, reporting_year: YEAR, ...SAVE, write_investor_to_blockchain: 'yes' }), 'write impacts');
      await completed(written.job_id);
      const doc = await ok(esg(ESG, 'getJsonPositionImpactsFromBlockchain', { job_id: written.job_id }), 'read impacts');
      assert.equal(doc.document, 'position_impacts');
      assert.equal(doc.investor.investor_identifier, 'inv_chain');
      assert.equal(doc.investor.investor_name, 'Ann Investor');
      assert.equal(doc.impacts.length, 2);
      const entries = await ok(esg(ESG, 'getBlockchainJobsForImpacts', { investor_identifier: 'inv_chain', position_id: position }), 'list impacts');
      assert.deepEqual(entries.map((e: any) => e.job_id), [written.job_id]);
      const wrongReader = await esg(ESG, 'getJsonFrameworkFromBlockchain', { job_id: written.job_id });
      assert.equal(wrongReader.status, 400);
      assert.equal(wrongReader.body.code, 'FAILED_PRECONDITION');
    });

    it('key-value storage through SVC.Blockchain.Hash, with Idempotency-Key', async () => {
      const hash = (operation: string, parameters: Record<string, unknown>, headers: Record<string, string> = {}) =>
        ok(post({ solution: HASH, version: 1, network: 'sepolia', operation, parameters }, headers), operation);
      const fetchJob = (jobId: string) => ok(post({ solution: HASH, version: 1, operation: 'fetch', parameters: { jobId } }), 'fetch');
      const finished = (jobId: string) =>
        until(() => fetchJob(jobId), (s) => s.info.status.Value === 'completed' || s.info.status.Value === 'failed', `job ${jobId}`);

      const insert = await hash('insertString', { key: 'greeting', value: 'hello, chain' }, { 'idempotency-key': 'kv-insert-1' });
      assert.deepEqual(Object.keys(insert), ['statusCode', 'statusMessage', 'info']);
      const replay = await hash('insertString', { key: 'greeting', value: 'hello, chain' }, { 'idempotency-key': 'kv-insert-1' });
      assert.equal(replay.info.jobId, insert.info.jobId);
      const clash = await post({ solution: HASH, version: 1, network: 'sepolia', operation: 'insertString', parameters: { key: 'greeting', value: 'other' } }, { 'idempotency-key': 'kv-insert-1' });
      assert.equal(clash.status, 400);
      assert.equal(clash.body.code, 'FAILED_PRECONDITION');
      const inserted = await finished(insert.info.jobId);
      assert.deepEqual(inserted.info.status, { Value: 'completed' });
      assert.match(inserted.info.hash, /^0x[0-9a-f]{64}$/);

      const select = await hash('selectString', { key: 'greeting' });
      const selected = await finished(select.info.jobId);
      assert.deepEqual(selected.info.status, { Value: 'completed' });
      assert.deepEqual(selected.info.result, { key: 'greeting', value: 'hello, chain' });

      const bytes = await hash('insertBytes32', { key: 'b32', value: 'é'.repeat(16) });
      await finished(bytes.info.jobId);
      const read = await finished((await hash('selectBytes32', { key: 'b32' })).info.jobId);
      assert.equal(read.info.result.value, 'é'.repeat(16));

      // An independent ethers read of the key-value contract through /rpc/sepolia sees the stored string
      // in the account's namespace (docs/chain.md: keccak256 of "greenimpact:account:<account id>").
      const nets = await graphqlClient(system.gatewayUrl, issuerKey)('{ networks { name keyValueStoreAddress } }');
      const storeAddress = nets.data.networks.find((n: { name: string }) => n.name === 'sepolia').keyValueStoreAddress;
      const provider = new JsonRpcProvider(`${system.gatewayUrl}/rpc/sepolia`, undefined, { staticNetwork: true, cacheTimeout: -1 });
      const store = new Contract(storeAddress, ['function selectString(bytes32 namespace, string key) view returns (bool found, string value)'], provider);
      const onChain = await store.getFunction('selectString')(keccak256(toUtf8Bytes(`greenimpact:account:${issuer.accountId}`)), 'greeting');
      assert.deepEqual([onChain.found, onChain.value], [true, 'hello, chain']);
      provider.destroy();

      const tooLong = await post({ solution: HASH, version: 1, network: 'sepolia', operation: 'insertBytes32', parameters: { key: 'b33', value: 'é'.repeat(16) + 'x' } });
      assert.equal(tooLong.status, 400);
      assert.equal(tooLong.body.message, 'value must be at most 32 characters and 32 bytes (UTF-8) for insertBytes32, got 17 characters, 33 bytes.');
      const noVersion = await post({ solution: HASH, network: 'sepolia', operation: 'selectString', parameters: { key: 'greeting' } });
      assert.deepEqual(noVersion, {
        status: 400,
        body: { message: 'version is required for selectString.', code: 'INVALID_ARGUMENT', statusCode: 400, statusMessage: 'version is required for selectString.' },
      });
    });

    it('GraphQL: a write followed to COMPLETED, its document and its page', async () => {
      const gql = graphqlClient(system.gatewayUrl, issuerKey);
      const written = await gql(
        `mutation { writeFrameworkDocument(input: { identifier: "GBF-CHAIN", year: ${YEAR}, format: HTML, network: "amoy", idempotencyKey: "gql-fw-1" }) { job { id status documentKind network } } }`,
      );
      assert.equal(written.errors, undefined, JSON.stringify(written.errors));
      const job = written.data.writeFrameworkDocument.job;
      assert.deepEqual({ ...job, id: undefined }, { id: undefined, status: 'QUEUED', documentKind: 'FRAMEWORK_HTML', network: 'amoy' });
      const again = await gql(`mutation { writeFrameworkDocument(input: { identifier: "GBF-CHAIN", year: ${YEAR}, format: HTML, network: "amoy", idempotencyKey: "gql-fw-1" }) { job { id } } }`);
      assert.equal(again.data.writeFrameworkDocument.job.id, job.id);

      const followed = await until(
        () => gql('query($id: ID!) { job(id: $id) { status txHash receipt { status } document { cid pageUrl } } }', { id: job.id }),
        (r) => ['COMPLETED', 'FAILED'].includes(r.data?.job?.status),
        `GraphQL job ${job.id}`,
      );
      const done = followed.data.job;
      assert.equal(done.status, 'COMPLETED');
      assert.equal(done.receipt.status, 1);
      assert.equal(done.document.pageUrl, `${system.gatewayUrl}/jobs/${job.id}.html`);

      const doc = await gql('query($id: ID!) { document(jobId: $id) { verified cid content } }', { id: job.id });
      assert.equal(doc.errors, undefined, JSON.stringify(doc.errors));
      assert.equal(doc.data.document.verified, true);
      assert.equal(doc.data.document.cid, done.document.cid);
      const page = await fetch(`${done.document.pageUrl}?raw=1`, { headers: { 'x-api-key': issuerKey } });
      assert.equal(await page.text(), doc.data.document.content, 'the document alone (raw=1) is the content GraphQL answers');

      const listed = await gql('{ jobs(kind: DOCUMENT, status: COMPLETED, first: 10) { nodes { id } } networks { name embedded rpcUrl aliasOf } }');
      assert.ok(listed.data.jobs.nodes.some((n: any) => n.id === job.id));
      assert.deepEqual(
        listed.data.networks.map((n: any) => [n.name, n.embedded, n.rpcUrl, n.aliasOf]).sort(),
        [['amoy', true, '/rpc/amoy', null], ['mumbai', true, '/rpc/mumbai', 'amoy'], ['sepolia', true, '/rpc/sepolia', null]],
      );
    });
  });
}
