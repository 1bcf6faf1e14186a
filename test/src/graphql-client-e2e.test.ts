import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { GraphQLClient, ClientError } from 'graphql-request';
import type { Client as WsClient } from 'graphql-ws';
import { skipReason, testDatabases } from '@green-impact/testing/shared/databases';
import type { RunningSystem } from '@green-impact/embedded/system';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startImageServer, testPng } from './support/images.js';
import { subscriptionClient, watchJob as watchJobOf, type WatchedJob } from './support/subscriptions.js';
import { createUserAccount, startTestSystem } from './support/system.js';

const OPERATOR = 'graphql-client-operator-key';
const YEAR = 2024;
/** A job on an embedded network completes in well under a second; this bounds a broken pipeline. */
const JOB_TIMEOUT_MS = 30_000;

type JobView = WatchedJob;

/**
 * A frontend's view of the service: graphql-request over HTTP and graphql-ws over WebSocket, nothing but
 * /graphql, against the whole system (real services, database and embedded chain). An issuer publishes a
 * framework and an asset and writes the framework to sepolia, watching the job go to COMPLETED on a
 * subscription; an investor manager records an encrypted investor and a position, reads the attributable
 * impacts, writes them to the chain and mints a certificate, watched on nftUpdated. On PGlite and PostgreSQL.
 */
for (const db of testDatabases) {
  describe(`GraphQL clients end to end on ${db.name}`, { skip: await skipReason(db) }, () => {
    let system: RunningSystem;
    let operator: GraphQLClient;
    let issuer: GraphQLClient;
    let manager: GraphQLClient;
    let issuerKey: string;
    let managerKey: string;
    const sockets: WsClient[] = [];
    let images: Awaited<ReturnType<typeof startImageServer>>;
    let mailDir: string;

    const client = (apiKey: string) => new GraphQLClient(`${system.gatewayUrl}/graphql`, { headers: { 'x-api-key': apiKey } });
    const subscriber = (apiKey: string) => {
      const ws = subscriptionClient(system.gatewayUrl, apiKey);
      sockets.push(ws);
      return ws;
    };

    const watchJob = (apiKey: string, jobId: string) => watchJobOf(subscriber(apiKey), jobId, JOB_TIMEOUT_MS);

    before(async () => {
      images = await startImageServer(testPng());
      mailDir = await mkdtemp(join(tmpdir(), 'gql-e2e-mail-'));
      system = await startTestSystem(db, OPERATOR, { nfts: { mailOutboxDir: mailDir, image: { allowPrivateHosts: true } } });
      operator = client(OPERATOR);
      issuerKey = await createUserAccount(system.gatewayUrl, OPERATOR, 'Issuer GraphQL');
      managerKey = await createUserAccount(system.gatewayUrl, OPERATOR, 'Manager GraphQL');
      issuer = client(issuerKey);
      manager = client(managerKey);
    });
    after(async () => {
      for (const ws of sockets) await ws.dispose();
      await system?.stop();
      images?.server.close();
      if (mailDir) await rm(mailDir, { recursive: true, force: true });
    });

    it('the issuer publishes a framework and writes it to the chain, watching the job complete', async () => {
      // Reference data (operator): one taxonomy branch of YEAR.
      const { c } = await operator.request<{ c: { id: string } }>(`mutation { c: addCategory(input: {name: "Renewable energy", year: ${YEAR}, languageCode: "en"}) { id } }`);
      const made = await operator.request<{ s: { id: string }; u: { id: string }; si: { id: string } }>(
        `mutation($c: ID!) {
          s: addSubCategory(input: {name: "Solar power", categoryId: $c, year: ${YEAR}, languageCode: "en"}) { id }
          u: addUnit(input: {name: "MWh", year: ${YEAR}}) { id }
          si: addSuperIndicator(input: {name: "Energy", categoryId: $c, year: ${YEAR}}) { id }
        }`,
        { c: c.id },
      );
      const { i } = await operator.request<{ i: { id: string } }>(
        `mutation($si: ID!, $u: ID!) { i: addIndicator(input: {name: "Energy generated", superIndicatorId: $si, unitId: $u, year: ${YEAR}}) { id } }`,
        { si: made.si.id, u: made.u.id },
      );

      // The issuer's framework, year figures, one row and a public asset.
      await issuer.request(
        `mutation($s: ID!, $i: ID!) {
          f: addFramework(input: {identifier: "SOLAR", name: "Solar Framework", currencyCode: "EUR", visibility: PUBLIC}) { id }
          y: addYearSpecificsToFramework(input: {identifier: "SOLAR", year: ${YEAR}, valueOutstanding: 2000000, allocatedAmount: 2000000, valueOutstandingFramework: true}) { message }
          r: addCategoryIndicatorToFramework(input: {identifier: "SOLAR", year: ${YEAR}, subCategoryId: $s, volume: 1000000, indicatorId: $i, value: 4000}) { message }
          a: addAsset(input: {identifier: "XS0100", name: "Solar bond", issuerIdentifier: "SUNCO", frameworkIdentifier: "SOLAR", valueOutstanding: 500000, currencyCode: "EUR", visibility: PUBLIC}) { id }
        }`,
        { s: made.s.id, i: i.id },
      );

      // A client error is a ClientError carrying the service's message and code.
      await assert.rejects(
        issuer.request('mutation { addFramework(input: {identifier: "WIND", name: "Wind", currencyCode: "EURO"}) { id } }'),
        (err: ClientError) => {
          assert.equal(err.response.errors?.[0]?.extensions?.['code'], 'BAD_USER_INPUT');
          assert.match(err.response.errors?.[0]?.message ?? '', /currencyCode/);
          return true;
        },
      );

      const {
        written: { job },
      } = await issuer.request<{ written: { job: JobView } }>(
        `mutation { written: writeFrameworkDocument(input: {identifier: "SOLAR", year: ${YEAR}, format: JSON, network: "sepolia"}) { job { id status kind txHash } } }`,
      );
      assert.equal(job.status, 'QUEUED');
      const seen = await watchJob(issuerKey, job.id);
      assert.equal(seen[0]!.id, job.id);
      assert.equal(seen.at(-1)!.status, 'COMPLETED', JSON.stringify(seen));
      assert.match(seen.at(-1)!.txHash ?? '', /^0x[0-9a-f]{64}$/);
      // Statuses only move forward.
      const order = ['QUEUED', 'SUBMITTED', 'COMPLETED'];
      const ranks = seen.map((s) => order.indexOf(s.status));
      assert.deepEqual(ranks, [...ranks].sort((a, b) => a - b));

      const { document } = await issuer.request<{ document: { verified: boolean; content: string; job: { status: string } } }>(
        'query($id: ID!) { document(jobId: $id) { verified content job { status } } }',
        { id: job.id },
      );
      assert.equal(document.verified, true);
      assert.equal(document.job.status, 'COMPLETED');
      assert.match(document.content, /"SOLAR"/);
    });

    it('the investor manager records a position, reads its impacts, writes them and mints a certificate, watching both', async () => {
      const generated = await manager.request<{ key: { encryptionKey: string }; investor: { investorIdentifier: string } }>(
        'mutation { key: generateEncryptionKey { encryptionKey } investor: generateInvestorIdentifier { investorIdentifier } }',
      );
      const key = generated.key.encryptionKey;
      const investor = generated.investor.investorIdentifier;
      const added = await manager.request<{ i: { id: string }; p: { id: string; impacts: { value: number; attributedVolume: number }[] } }>(
        `mutation($inv: String!, $key: String!) {
          i: addInvestor(input: {identifier: $inv, name: "Greta Green", email: "greta@example.org", currencyCode: "EUR", encryptionKey: $key}) { id }
          p: addPosition(input: {investorIdentifier: $inv, assetIdentifier: "XS0100", amount: 100000, currencyCode: "EUR", year: ${YEAR}, startDate: "${YEAR}-01-01"}) { id impacts { value attributedVolume } }
        }`,
        { inv: investor, key },
      );
      // By hand: held the default 365 days of leap year 2024 (τ = 365/366); share = 100 000 ÷ D (2 000 000)
      // = 0.05; value = τ × 0.05 × 4 000; volume = τ × 0.05 × 1 000 000.
      const tau = 365 / 366;
      assert.equal(added.p.impacts.length, 1);
      assert.ok(Math.abs(added.p.impacts[0]!.value - tau * 200) < 1e-9, JSON.stringify(added.p.impacts));
      assert.ok(Math.abs(added.p.impacts[0]!.attributedVolume - tau * 50_000) < 1e-6, JSON.stringify(added.p.impacts));

      const read = await manager.request<{ investor: { name: string; masked: boolean; positions: { asset: { framework: { identifier: string } } }[] }; masked: { name: string } }>(
        `query($inv: String!, $key: String) {
          investor(identifier: $inv, decryptionKey: $key) { name masked positions { asset { framework(year: ${YEAR}) { identifier } } } }
          masked: investor(identifier: $inv) { name }
        }`,
        { inv: investor, key },
      );
      assert.equal(read.investor.name, 'Greta Green');
      assert.equal(read.investor.masked, false);
      assert.deepEqual(read.investor.positions, [{ asset: { framework: { identifier: 'SOLAR' } } }]);
      assert.notEqual(read.masked.name, 'Greta Green');

      // The issuer cannot see the manager's investor.
      const foreign = await issuer.request<{ investor: unknown }>('query($inv: String!) { investor(identifier: $inv) { name } }', { inv: investor });
      assert.equal(foreign.investor, null);

      const {
        written: { job },
      } = await manager.request<{ written: { job: JobView } }>(
        `mutation($p: ID!) { written: writePositionImpactsDocument(input: {positionId: $p, year: ${YEAR}, format: HTML, network: "sepolia"}) { job { id status kind txHash } } }`,
        { p: added.p.id },
      );
      const seen = await watchJob(managerKey, job.id);
      assert.equal(seen.at(-1)!.status, 'COMPLETED', JSON.stringify(seen));

      // The certificate: nftUpdated(guid) answers the NFT's state now, then each change, up to CREATED.
      const {
        minted: { job: mint },
      } = await manager.request<{ minted: { job: { id: string; nftGuid: string } } }>(
        `mutation($image: String!) { minted: mintNft(input: {network: "sepolia", name: "Impact certificate ${YEAR}", description: "200 MWh of solar power", image: $image}) { job { id nftGuid } } }`,
        { image: `${images.url}/solar.png` },
      );
      const updates = subscriber(managerKey).iterate<{ nftUpdated: { guid: string; status: string; nftId: string | null } }>({
        query: 'subscription($guid: ID) { nftUpdated(guid: $guid) { guid status nftId } }',
        variables: { guid: mint.nftGuid },
      });
      const statuses: string[] = [];
      const timer = setTimeout(() => void updates.return?.(), JOB_TIMEOUT_MS);
      try {
        for await (const result of updates) {
          assert.equal(result.errors, undefined, JSON.stringify(result.errors));
          const nft = result.data!.nftUpdated;
          assert.equal(nft.guid, mint.nftGuid);
          statuses.push(nft.status);
          if (nft.status === 'CREATED') {
            assert.match(nft.nftId ?? '', /^\d+$/);
            break;
          }
        }
      } finally {
        clearTimeout(timer);
      }
      assert.equal(statuses.at(-1), 'CREATED', JSON.stringify(statuses));
    });
  });
}
