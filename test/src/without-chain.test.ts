import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { RunningSystem } from '@green-impact/embedded/system';
import { loadEmbeddedConfig } from '@green-impact/embedded/config';
import { skipReason, testDatabases } from '@green-impact/testing/shared/databases';
import { ESG, seedAccount, seedReferenceData, YEAR, type AccountData } from './support/dataset.js';
import { createUserAccount, graphqlClient, ok, startTestSystem, v1Client } from './support/system.js';
import { conformingV1Client } from './support/answer-conformance.js';

const OPERATOR = 'gi_Vb4nQ8sK2mXz7LpW1tRy6hJc3dFg9aEu5oIe0kNq2w_';
const NO_CHAIN = 'The chain service is not available: this deployment runs without it (CHAIN_GRPC_ADDR is not set; npm start: CHAIN_ENABLED=false).';

/**
 * A deployment for reporting only (CHAIN_ENABLED=false under npm start; components/without-chain on
 * Kubernetes): no chain service runs, every chain operation answers 503 naming the setting on both faces,
 * and the ICMA table, the EU GBS factsheet and the impact report pages still render.
 */
describe('CHAIN_ENABLED=false: npm start reads it and starts no chain service', () => {
  it('leaves the networks unread (a broken CHAIN_NETWORKS does not matter) and the chain out', () => {
    assert.equal(loadEmbeddedConfig({ CHAIN_ENABLED: 'false', CHAIN_NETWORKS: '[{' }).chainNetworks, undefined);
    assert.ok(loadEmbeddedConfig({}).chainNetworks?.length);
  });
});

for (const db of testDatabases) {
  describe(`a system without the chain service on ${db.name}`, { skip: await skipReason(db) }, () => {
    let system: RunningSystem;
    let owner: string;
    let a: AccountData;

    before(async () => {
      system = await startTestSystem(db, OPERATOR, { chain: false });
      owner = await createUserAccount(system.gatewayUrl, OPERATOR, 'Reporting Only');
      a = await seedAccount(conformingV1Client(system.gatewayUrl, owner), 'NC', await seedReferenceData(conformingV1Client(system.gatewayUrl, OPERATOR)));
    });
    after(async () => system?.stop());

    it('runs no chain service', () => {
      assert.equal(system.grpc.chain, undefined);
    });

    it('answers every chain operation 503 naming the setting, on /v1/call and GraphQL', async () => {
      const v1 = v1Client(system.gatewayUrl, owner);
      const write = await v1(ESG, 'writeJsonFrameworkToBlockchain', { framework_identifier: a.framework, reporting_year: YEAR, solution: 'SVC.Blockchain.Save', operation: 'save', version: 1, network: 'sepolia' });
      assert.deepEqual([write.status, write.body.code, write.body.message], [503, 'UNAVAILABLE', NO_CHAIN]);
      const gql = await graphqlClient(system.gatewayUrl, owner)('{ networks { name } }');
      assert.deepEqual(gql.errors?.map((e: { message: string; extensions: { code: string } }) => [e.message, e.extensions.code]), [[NO_CHAIN, 'SERVICE_UNAVAILABLE']]);
      const page = await fetch(`${system.gatewayUrl}/jobs/00000000-0000-4000-8000-000000000000.html`, { headers: { 'x-api-key': owner } });
      assert.equal(page.status, 503);
    });

    it('still renders the reports: the ICMA table, the EU GBS factsheet and the impact report page', async () => {
      const v1 = conformingV1Client(system.gatewayUrl, owner);
      const table = await ok(v1(ESG, 'getIcmaImpactTable', { framework_identifier: a.framework, reporting_year: YEAR }), 'ICMA table');
      assert.match(String(table['content']), /\S/);
      const factsheet = await fetch(`${system.gatewayUrl}/reports/frameworks/${encodeURIComponent(a.framework)}/${YEAR}/factsheet.html`, { headers: { 'x-api-key': owner } });
      assert.equal(factsheet.status, 200, await factsheet.clone().text());
      assert.match(await factsheet.text(), /<html/i);
      const report = await fetch(`${system.gatewayUrl}/reports/portfolios/${a.portfolio}/${YEAR}.html`, { headers: { 'x-api-key': owner } });
      assert.equal(report.status, 200);
      assert.match(await report.text(), new RegExp(`<title>Impact report ${YEAR}: portfolio ${a.portfolio}</title>`));
    });
  });
}
