import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { RunningSystem } from '@green-impact/embedded/system';
import { skipReason, testDatabases } from '@green-impact/testing/shared/databases';
import { accountSnapshot, ESG, HASH, seedAccount, seedReferenceData, YEAR, type AccountData } from './support/dataset.js';
import { send, type Answer } from './support/http-probe.js';
import { createUserAccount, ok, startTestSystem, v1Client } from './support/system.js';
import { until } from './support/poll.js';

/**
 * The isolation matrix. Account A owns one of everything (private where there is a choice, PII
 * encrypted, documents and key-value entries on the chain); account B, knowing all of A's identifiers,
 * ids, job ids and even A's decryption key, tries every operation that touches account-owned data to
 * read, change or remove them. Each row asserts that B's answers hold nothing of A's private data
 * (A's canary, key, e-mails) and that A's own reads afterwards equal those before. Adding an operation
 * is adding one row. A table of operation × outcome is printed at the end.
 */
const OPERATOR = 'isolation-operator-key';
const SAVE = { solution: 'SVC.Blockchain.Save', operation: 'save', version: 1, network: 'sepolia' };

type Action = 'read' | 'change' | 'remove' | 'own copy';
interface Row {
  face: 'v1' | 'graphql' | 'http';
  operation: string;
  action: Action;
  /** B's attempt; every answer is searched for A's secrets, the last one is the outcome. */
  attempt: () => Promise<Answer[]>;
  /** Outcomes B may get (see outcomeOf). */
  allowed: RegExp;
  /** Texts of A's that B's answers must not hold besides A's secrets (e.g. A's job ids in a listing). */
  forbidden?: string[];
}

/** Refusals and empty answers: B learns nothing. */
const NOTHING = /^(200 (\[\]|null|nodes\[0\]|"No users are registered\.")|200 (NOT_FOUND|FORBIDDEN)|404 NOT_FOUND|403 PERMISSION_DENIED|401 UNAUTHENTICATED)$/;
/** Refusals only: B changes nothing. */
const REFUSED = /^(200 (NOT_FOUND|FORBIDDEN)|404 NOT_FOUND|403 PERMISSION_DENIED)$/;
/** B acts on its own namesake or its own namespace, which is allowed. */
const OWN = /^200/;

/** A short, comparable description of an answer: status and code, or the kind of 200. */
function outcomeOf(a: Answer): string {
  const j = a.json as any;
  if (a.status !== 200) return `${a.status} ${j?.code ?? j?.errors?.[0]?.extensions?.code ?? ''}`.trim();
  if (j && typeof j === 'object' && !Array.isArray(j) && ('data' in j || 'errors' in j)) {
    if (j.errors?.length) return `200 ${j.errors[0].extensions?.code}`;
    const v = Object.values(j.data ?? {})[0] as any;
    if (v === null) return '200 null';
    if (Array.isArray(v)) return `200 ${v.length ? `[${v.length}]` : '[]'}`;
    if (v && Array.isArray(v.nodes)) return `200 nodes[${v.nodes.length}]`;
    return '200 value';
  }
  if (Array.isArray(j)) return `200 ${j.length ? `[${j.length}]` : '[]'}`;
  if (typeof j?.message === 'string' && Object.keys(j).length === 1) return `200 "${j.message}"`;
  if (j?.info?.status?.Value) return `200 job ${j.info.status.Value}${j.info.result && 'value' in j.info.result ? ` value=${JSON.stringify(j.info.result.value)}` : ''}`;
  return '200 value';
}

for (const db of testDatabases) {
  describe(`isolation between accounts on ${db.name}`, { skip: await skipReason(db) }, () => {
    let system: RunningSystem;
    let keyA: string;
    let keyB: string;
    let a: AccountData;
    let accountIdA: string;
    let apiKeyIdA: string;
    const jobs = { kv: '', kvBytes: '', frameworkJson: '', frameworkHtml: '', impactsHtml: '', frameworkEntryId: 0 };
    let documentCid = '';

    /** Any request as an account: v1 bodies, GraphQL queries, raw paths. */
    const as = (key: string | undefined) => ({
      v1: (body: Record<string, unknown>, headers: Record<string, string> = {}) =>
        send(system.gatewayUrl, { path: '/v1/call', headers: { 'content-type': 'application/json', ...(key ? { 'x-api-key': key } : {}), ...headers }, body: JSON.stringify(body) }),
      esg: (operation: string, parameters: Record<string, unknown> = {}) =>
        send(system.gatewayUrl, { path: '/v1/call', headers: { 'content-type': 'application/json', ...(key ? { 'x-api-key': key } : {}) }, body: JSON.stringify({ solution: ESG, operation, parameters }) }),
      gql: (query: string, variables: Record<string, unknown> = {}) =>
        send(system.gatewayUrl, { path: '/graphql', headers: { 'content-type': 'application/json', ...(key ? { 'x-api-key': key } : {}) }, body: JSON.stringify({ query, variables }) }),
      get: (path: string) => send(system.gatewayUrl, { path, method: 'GET', headers: key ? { 'x-api-key': key } : {} }),
    });
    const fetchJob = (key: string, jobId: string) => as(key).v1({ solution: HASH, version: 1, operation: 'fetch', parameters: { jobId } });
    const finished = async (key: string, jobId: string): Promise<Answer> => {
      const done = await until(() => fetchJob(key, jobId), (r) => ['completed', 'failed'].includes((r.json as any)?.info?.status?.Value), `job ${jobId}`);
      assert.equal((done.json as any).info.status.Value, 'completed', done.text);
      return done;
    };
    const jobIdOf = (answer: Answer): string => {
      assert.equal(answer.status, 200, answer.text);
      return (answer.json as any).info.jobId as string;
    };

    /** A's data as A reads it, with its chain listings. */
    async function viewOfA(): Promise<Record<string, unknown>> {
      const snap = await accountSnapshot(v1Client(system.gatewayUrl, keyA), a);
      const read = async (operation: string, parameters: Record<string, unknown>) => {
        const res = await as(keyA).esg(operation, parameters);
        assert.equal(res.status, 200, `${operation} as A: ${res.text}`);
        return res.json;
      };
      snap['frameworkJobs'] = await read('getBlockchainJobsForFrameworks', { framework_identifier: a.framework });
      snap['impactJobs'] = await read('getBlockchainJobsForImpacts', { investor_identifier: a.investor, position_id: a.positionId });
      snap['frameworkDocument'] = await read('getJsonFrameworkFromBlockchain', { job_id: jobs.frameworkJson });
      return snap;
    }

    before(async () => {
      system = await startTestSystem(db, OPERATOR);
      keyA = await createUserAccount(system.gatewayUrl, OPERATOR, 'Account A');
      keyB = await createUserAccount(system.gatewayUrl, OPERATOR, 'Account B');
      const tax = await seedReferenceData(v1Client(system.gatewayUrl, OPERATOR));
      a = await seedAccount(v1Client(system.gatewayUrl, keyA), 'A', tax);
      const me = (await as(keyA).gql('{ me { id } apiKeys { id } }')).json as any;
      accountIdA = me.data.me.id;
      apiKeyIdA = me.data.apiKeys[0].id;

      // A's chain data: key-value entries holding the canary, framework documents, a position's impacts with PII.
      const hashA = (operation: string, parameters: Record<string, unknown>) => as(keyA).v1({ solution: HASH, version: 1, network: 'sepolia', operation, parameters });
      jobs.kv = jobIdOf(await hashA('insertString', { key: `K-${a.tag}`, value: `kv-${a.canary}` }));
      jobs.kvBytes = jobIdOf(await hashA('insertBytes32', { key: `B-${a.tag}`, value: a.canary.slice(0, 32) }));
      jobs.frameworkJson = jobIdOf(await as(keyA).esg('writeJsonFrameworkToBlockchain', { framework_identifier: a.framework, reporting_year: YEAR, ...SAVE }));
      jobs.frameworkHtml = jobIdOf(await as(keyA).esg('writeHtmlFrameworkToBlockchain', { framework_identifier: a.framework, reporting_year: YEAR, ...SAVE }));
      jobs.impactsHtml = jobIdOf(
        await as(keyA).esg('writeHtmlPositionImpactsToBlockchain', { position_id: a.positionId, reporting_year: YEAR, ...SAVE, write_investor_to_blockchain: 'yes', decryption_key: a.encryptionKey }),
      );
      for (const job of Object.values(jobs)) if (typeof job === 'string') await finished(keyA, job);
      documentCid = ((await finished(keyA, jobs.impactsHtml)).json as any).info.result.cid;
      const entries = await ok(v1Client(system.gatewayUrl, keyA)(ESG, 'getBlockchainJobsForFrameworks', { framework_identifier: a.framework }), 'entries');
      jobs.frameworkEntryId = entries[0].id;

      // B's own user, to which B links A's investor identifiers.
      await ok(v1Client(system.gatewayUrl, keyB)(ESG, 'addUser', { user_identifier: 'U-B', user_first_name: 'Bea' }), 'B addUser');
    });
    after(async () => system?.stop());

    function rows(): Row[] {
      const b = as(keyB);
      const v1 = (operation: string, action: Action, parameters: Record<string, unknown>, allowed: RegExp): Row => ({
        face: 'v1',
        operation,
        action,
        attempt: async () => [await b.esg(operation.split(' ')[0]!, parameters)],
        allowed,
      });
      const gql = (operation: string, action: Action, query: string, allowed: RegExp, variables: Record<string, unknown> = {}, forbidden?: string[]): Row => ({
        face: 'graphql',
        operation,
        action,
        attempt: async () => [await b.gql(query, variables)],
        allowed,
        ...(forbidden ? { forbidden } : {}),
      });
      const hash = (operation: string, action: Action, envelope: Record<string, unknown>, allowed: RegExp, follow = false): Row => ({
        face: 'v1',
        operation: `${HASH} ${operation}`,
        action,
        attempt: async () => {
          const answer = await b.v1({ solution: HASH, version: 1, operation, ...envelope });
          return follow && answer.status === 200 ? [answer, await finished(keyB, (answer.json as any).info.jobId)] : [answer];
        },
        allowed,
      });
      const key = a.encryptionKey;
      const inv = a.investor;
      const pos = a.positionId;
      return [
        // ---------------------------------------------------------------- reads
        v1('getUsers', 'read', { user_identifier: a.user, decryption_key: key }, NOTHING),
        v1('getUsers', 'read', {}, /^200/),
        v1('getInvestorsOfUser', 'read', { user_identifier: a.user, decryption_key: key }, NOTHING),
        v1('getFrameworks', 'read', { reporting_year: YEAR }, /^200/),
        v1('getFrameworks', 'read', { reporting_year: YEAR, framework_visibility: 'private' }, NOTHING),
        v1('getFrameworkDetails', 'read', { framework_identifier: a.framework, reporting_year: YEAR }, NOTHING),
        v1('getProjects', 'read', { reporting_year: YEAR }, NOTHING),
        v1('getProjectDetails', 'read', { project_identifier: a.project, reporting_year: YEAR }, NOTHING),
        v1('getAssets', 'read', {}, NOTHING),
        v1('getAssets', 'read', { issuer_identifier: `ISS-${a.tag}`, framework_identifier: a.publicFramework }, NOTHING),
        v1('getAssetFrameworkDetails', 'read', { asset_identifier: a.asset, reporting_year: YEAR }, NOTHING),
        v1('getInvestors', 'read', { decryption_key: key }, NOTHING),
        v1('getPositions', 'read', { investor_identifier: inv, decryption_key: key }, NOTHING),
        v1('getPortfolios', 'read', { investor_identifier: inv, decryption_key: key }, NOTHING),
        v1('getPortfolioPositions', 'read', { portfolio_identifier: a.portfolio }, NOTHING),
        v1('getPositionImpacts', 'read', { investor_identifier: inv, position_id: pos }, NOTHING),
        v1('getInvestorImpacts', 'read', { investor_identifier: inv, reporting_year: YEAR }, NOTHING),
        v1('getPortfolioImpacts', 'read', { portfolio_identifier: a.portfolio, reporting_year: YEAR }, NOTHING),
        v1('getBlockchainJobsForFrameworks', 'read', { framework_identifier: a.framework }, NOTHING),
        v1('getBlockchainJobsForImpacts', 'read', { investor_identifier: inv, position_id: pos }, NOTHING),
        v1('getJobStatusFromBlockchain', 'read', { job_id: jobs.impactsHtml }, NOTHING),
        v1('getJobStatusFromBlockchain', 'read', { job_id: String(jobs.frameworkEntryId) }, NOTHING),
        v1('getJsonFrameworkFromBlockchain', 'read', { job_id: jobs.frameworkJson }, NOTHING),
        v1('getHtmlFrameworkFromBlockchain', 'read', { job_id: jobs.frameworkHtml }, NOTHING),
        v1('getJsonPositionImpactsFromBlockchain', 'read', { job_id: jobs.impactsHtml }, NOTHING),
        v1('getHtmlPositionImpactsFromBlockchain', 'read', { job_id: jobs.impactsHtml }, NOTHING),
        hash('fetch', 'read', { parameters: { jobId: jobs.kv } }, NOTHING),
        hash('selectString', 'read', { network: 'sepolia', parameters: { key: `K-${a.tag}` } }, /^200 job completed value=null$/, true),
        hash('selectBytes32', 'read', { network: 'sepolia', parameters: { key: `B-${a.tag}` } }, /^200 job completed value=null$/, true),
        {
          face: 'v1',
          operation: 'addInvestorToUser → getPositions / getPortfolios / getInvestorsOfUser (user_identifier)',
          action: 'read',
          attempt: async () => [
            await b.esg('addInvestorToUser', { user_identifier: 'U-B', investor_identifier: inv }),
            await b.esg('getInvestorsOfUser', { user_identifier: 'U-B', decryption_key: key }),
            await b.esg('getPortfolios', { investor_identifier: inv, user_identifier: 'U-B', decryption_key: key }),
            await b.esg('getPositions', { investor_identifier: inv, user_identifier: 'U-B', decryption_key: key }),
          ],
          allowed: NOTHING,
        },
        {
          face: 'http',
          operation: 'GET /jobs/<id>.html',
          action: 'read',
          attempt: async () => [await b.get(`/jobs/${jobs.impactsHtml}.html`)],
          allowed: NOTHING,
        },
        {
          face: 'http',
          operation: 'GET /jobs/<id>.html (no key)',
          action: 'read',
          attempt: async () => [await as(undefined).get(`/jobs/${jobs.frameworkHtml}.html`)],
          allowed: NOTHING,
        },
        {
          face: 'http',
          operation: 'GET /jobs/<id>.html?v=&exp=&sig= (a forged link)',
          action: 'read',
          attempt: async () => [await as(undefined).get(`/jobs/${jobs.impactsHtml}.html?v=0&exp=9999999999&sig=${'A'.repeat(43)}`)],
          // Links answer pages (a browser follows them): a 404 page, no JSON code.
          allowed: /^404$/,
        },
        {
          face: 'http',
          operation: 'GET /ipfs/<cid> of a position-impacts document',
          action: 'read',
          attempt: async () => [await b.get(`/ipfs/${documentCid}`)],
          allowed: NOTHING,
        },
        {
          face: 'http',
          operation: 'GET /ipfs/<cid> of a position-impacts document (no key)',
          action: 'read',
          attempt: async () => [await as(undefined).get(`/ipfs/${documentCid}`)],
          allowed: NOTHING,
        },
        v1('revokeDocumentLinks', 'change', { job_id: jobs.impactsHtml }, REFUSED),
        gql('revokeDocumentLinks', 'change', 'mutation($id: ID!) { revokeDocumentLinks(jobId: $id) { revoked { jobId linkEpoch } } }', REFUSED, { id: jobs.frameworkHtml }),
        gql('users', 'read', 'query($u: String, $k: String) { users(userIdentifier: $u, decryptionKey: $k) { nodes { identifier firstName email } } }', NOTHING, { u: a.user, k: key }),
        gql('investorsOfUser', 'read', 'query($u: String, $k: String) { investorsOfUser(userIdentifier: $u, decryptionKey: $k) { userIdentifier investors { id name } } }', /^200/, { u: 'U-B', k: key }),
        gql('investors', 'read', 'query($k: String) { investors(decryptionKey: $k) { nodes { identifier name email } } }', NOTHING, { k: key }),
        gql('investor', 'read', 'query($i: String!, $k: String) { investor(identifier: $i, decryptionKey: $k) { name email positions { id amount } } }', NOTHING, { i: inv, k: key }),
        gql('positions', 'read', 'query($i: String, $k: String) { positions(investorIdentifier: $i, decryptionKey: $k) { nodes { id amount investor { name } } } }', NOTHING, { i: inv, k: key }),
        gql('portfolios', 'read', 'query($i: String) { portfolios(investorIdentifier: $i) { nodes { identifier positions { id } } } }', NOTHING, { i: inv }),
        gql('portfolio', 'read', 'query($p: String!, $k: String) { portfolio(identifier: $p, decryptionKey: $k) { identifier investor { name } } }', NOTHING, { p: a.portfolio, k: key }),
        gql('asset', 'read', 'query($i: String!) { asset(identifier: $i) { identifier name issuer { name } } }', NOTHING, { i: a.asset }),
        gql('assets', 'read', '{ assets { nodes { identifier name } } }', NOTHING),
        gql('frameworks', 'read', `{ frameworks(year: ${YEAR}, visibility: PRIVATE) { nodes { identifier name } } }`, NOTHING),
        gql('framework', 'read', 'query($i: String!) { framework(identifier: $i, year: 2024) { identifier name } }', NOTHING, { i: a.framework }),
        gql('projects', 'read', `{ projects(year: ${YEAR}) { nodes { identifier name } } }`, NOTHING),
        gql('project', 'read', 'query($i: String!) { project(identifier: $i, year: 2024) { identifier name } }', NOTHING, { i: a.project }),
        gql('job', 'read', 'query($id: ID!) { job(id: $id) { id status result request } }', NOTHING, { id: jobs.impactsHtml }),
        gql('job (entry id)', 'read', 'query($id: ID!) { job(id: $id) { id status } }', NOTHING, { id: String(jobs.frameworkEntryId) }),
        // B's own select jobs above are listed; none of A's may be.
        gql('jobs', 'read', '{ jobs(first: 500) { nodes { id request result } } }', /^200 nodes\[\d+\]$/, {}, [jobs.kv, jobs.kvBytes, jobs.frameworkJson, jobs.frameworkHtml, jobs.impactsHtml]),
        gql('jobs (by framework)', 'read', 'query($f: String) { jobs(frameworkIdentifier: $f) { nodes { id } } }', NOTHING, { f: a.framework }),
        gql('documents', 'read', 'query($f: String) { documents(frameworkIdentifier: $f) { nodes { id jobId } } }', NOTHING, { f: a.framework }),
        gql('document', 'read', 'query($id: ID!) { document(jobId: $id) { content json } }', NOTHING, { id: jobs.frameworkJson }),
        gql('apiKeys', 'read', 'query($a: ID) { apiKeys(accountId: $a) { id hint } }', NOTHING, { a: accountIdA }),
        gql('accounts', 'read', '{ accounts { nodes { id name } } }', NOTHING),

        // ---------------------------------------------------------------- changes and removals of A's items
        v1('addYearSpecificsToFramework', 'change', { framework_identifier: a.publicFramework, value_outstanding: 1, allocated_amount: 1, value_outstanding_framework: 'no', reporting_year: YEAR }, REFUSED),
        v1('addCategoryIndicatorToFramework', 'change', { framework_identifier: a.publicFramework, sub_category_id: 1, sub_category_volume: 1, indicator_id: 1, indicator_value: 1, reporting_year: YEAR }, REFUSED),
        v1('buildFrameworkFromProjects', 'change', { framework_identifier: a.publicFramework, reporting_year: YEAR }, REFUSED),
        v1('removeIndicatorFromFramework', 'remove', { framework_identifier: a.publicFramework, indicator_id: 1, sub_category_id: 1, reporting_year: YEAR }, REFUSED),
        v1('removeCategoryFromFramework', 'remove', { framework_identifier: a.publicFramework, sub_category_id: 1, reporting_year: YEAR }, REFUSED),
        v1('removeFrameworkYearSpecifics', 'remove', { framework_identifier: a.publicFramework, reporting_year: YEAR }, REFUSED),
        v1('removeFramework', 'remove', { framework_identifier: a.publicFramework }, REFUSED),
        v1('removeFramework', 'remove', { framework_identifier: a.framework }, REFUSED),
        v1('addYearSpecificsToProject', 'change', { project_identifier: a.project, allocated_amount: 1, reporting_year: YEAR }, REFUSED),
        v1('addCategoryIndicatorToProject', 'change', { project_identifier: a.project, sub_category_id: 1, sub_category_volume: 1, indicator_id: 1, indicator_value: 1, reporting_year: YEAR }, REFUSED),
        v1('removeIndicatorFromProject', 'remove', { project_identifier: a.project, indicator_id: 1, sub_category_id: 1, reporting_year: YEAR }, REFUSED),
        v1('removeCategoryFromProject', 'remove', { project_identifier: a.project, sub_category_id: 1, reporting_year: YEAR }, REFUSED),
        v1('removeYearSpecificsFromProject', 'remove', { project_identifier: a.project, reporting_year: YEAR }, REFUSED),
        v1('removeProject', 'remove', { project_identifier: a.project }, REFUSED),
        v1('removeAsset', 'remove', { asset_identifier: a.asset }, REFUSED),
        v1('addPosition', 'change', { investor_identifier: inv, asset_identifier: a.asset, position_amount: 1, position_currency_code: 'EUR' }, REFUSED),
        v1('removePosition', 'remove', { investor_identifier: inv, position_id: pos }, REFUSED),
        v1('computePositionImpacts', 'change', { investor_identifier: inv, position_id: pos, reporting_year: YEAR }, REFUSED),
        v1('getPositionImpacts (compute_missing)', 'change', { investor_identifier: inv, position_id: pos, reporting_year: 2025, compute_missing: 'yes' }, REFUSED),
        v1('getInvestorImpacts (compute_missing)', 'change', { investor_identifier: inv, reporting_year: 2025, compute_missing: 'yes' }, REFUSED),
        v1('removeInvestor', 'remove', { investor_identifier: inv }, REFUSED),
        v1('addPortfolio', 'change', { investor_identifier: inv, portfolio_identifier: a.portfolio, portfolio_identifier_changed: 'stolen' }, REFUSED),
        v1('addPositionToPortfolio', 'change', { investor_identifier: inv, portfolio_identifier: a.portfolio, position_id: pos }, REFUSED),
        v1('removePositionFromPortfolio', 'remove', { investor_identifier: inv, portfolio_identifier: a.portfolio, position_id: pos }, REFUSED),
        v1('removePortfolio', 'remove', { investor_identifier: inv, portfolio_identifier: a.portfolio }, REFUSED),
        v1('addGroupToUser', 'change', { user_identifier: a.user, group: 'bankers' }, REFUSED),
        v1('removeGroupFromUser', 'remove', { user_identifier: a.user, group: 'investors' }, REFUSED),
        v1('addInvestorToUser', 'change', { user_identifier: a.user, investor_identifier: 'INV-B' }, REFUSED),
        v1('removeInvestorFromUser', 'remove', { user_identifier: a.user, investor_identifier: inv }, REFUSED),
        v1('removeUser', 'remove', { user_identifier: a.user }, REFUSED),
        v1('writeJsonFrameworkToBlockchain', 'change', { framework_identifier: a.framework, reporting_year: YEAR, ...SAVE }, REFUSED),
        v1('writeJsonPositionImpactsToBlockchain', 'change', { position_id: pos, reporting_year: YEAR, ...SAVE, write_investor_to_blockchain: 'yes', decryption_key: key }, REFUSED),
        gql('removePosition', 'remove', 'mutation($i: String!, $p: ID!) { removePosition(investorIdentifier: $i, positionId: $p) { message } }', REFUSED, { i: inv, p: String(pos) }),
        gql('computePositionImpacts', 'change', 'mutation($p: ID!) { computePositionImpacts(positionId: $p, year: 2025) { message impacts { value } } }', REFUSED, { p: String(pos) }),
        gql('removeInvestor', 'remove', 'mutation($i: String!) { removeInvestor(identifier: $i) { message } }', REFUSED, { i: inv }),
        gql('removePortfolio', 'remove', 'mutation($i: String!, $p: String!) { removePortfolio(investorIdentifier: $i, identifier: $p) { message } }', REFUSED, { i: inv, p: a.portfolio }),
        gql('removeAsset', 'remove', 'mutation($i: String!) { removeAsset(identifier: $i) { message } }', REFUSED, { i: a.asset }),
        gql('removeFramework', 'remove', 'mutation($i: String!) { removeFramework(identifier: $i) { message } }', REFUSED, { i: a.publicFramework }),
        gql('removeProject', 'remove', 'mutation($i: String!) { removeProject(identifier: $i) { message } }', REFUSED, { i: a.project }),
        gql('removeUser', 'remove', 'mutation($u: String!) { removeUser(userIdentifier: $u) { message } }', REFUSED, { u: a.user }),
        gql('addGroupToUser', 'change', 'mutation($u: String!) { addGroupToUser(userIdentifier: $u, group: "bankers") { message } }', REFUSED, { u: a.user }),
        gql('writePositionImpactsDocument', 'change', 'mutation($p: ID!, $k: String) { writePositionImpactsDocument(input: { positionId: $p, year: 2024, format: JSON, network: "sepolia", writeInvestor: true, decryptionKey: $k }) { job { id } } }', REFUSED, { p: String(pos), k: key }),
        gql('writeFrameworkDocument', 'change', 'mutation($i: String!) { writeFrameworkDocument(input: { identifier: $i, year: 2024, format: JSON, network: "sepolia" }) { job { id } } }', REFUSED, { i: a.framework }),
        gql('revokeApiKey', 'remove', 'mutation($k: ID!) { revokeApiKey(keyId: $k) { key { id revokedAt } } }', REFUSED, { k: apiKeyIdA }),
        gql('rotateApiKey', 'change', 'mutation($a: ID) { rotateApiKey(accountId: $a) { apiKey } }', REFUSED, { a: accountIdA }),
        gql('issueApiKey', 'change', 'mutation($a: ID) { issueApiKey(accountId: $a) { apiKey } }', REFUSED, { a: accountIdA }),

        // ---------------------------------------------------------------- B's own namesakes and namespace
        hash('insertString', 'own copy', { network: 'sepolia', parameters: { key: `K-${a.tag}`, value: 'overwritten by B' } }, OWN, true),
        hash('insertBytes32', 'own copy', { network: 'sepolia', parameters: { key: `B-${a.tag}`, value: 'overwritten by B' } }, OWN, true),
        v1('addFramework', 'own copy', { framework_identifier: a.framework, framework_name: 'B framework', framework_currency_code: 'EUR', framework_visibility: 'public' }, OWN),
        v1('addFramework', 'own copy', { framework_identifier: a.publicFramework, framework_name: 'B public framework', framework_currency_code: 'EUR', framework_visibility: 'public' }, OWN),
        v1('addProject', 'own copy', { project_identifier: a.project, project_name: 'B project', project_currency_code: 'EUR', framework_identifier: a.framework }, OWN),
        v1('addAsset', 'own copy', { asset_identifier: a.asset, asset_name: 'B asset', issuer_identifier: `ISS-${a.tag}`, framework_identifier: a.publicFramework, asset_currency_code: 'EUR', asset_visibility: 'public' }, OWN),
        v1('addInvestor', 'own copy', { investor_identifier: inv, investor_name: 'B investor', investor_currency_code: 'EUR' }, OWN),
        v1('addPortfolio', 'own copy', { investor_identifier: inv, portfolio_identifier: a.portfolio }, OWN),
        v1('addUser', 'own copy', { user_identifier: a.user, user_first_name: 'B user' }, OWN),
        v1('removeUser', 'own copy', { user_identifier: a.user }, OWN),
        v1('removePortfolio', 'own copy', { investor_identifier: inv, portfolio_identifier: a.portfolio }, OWN),
        v1('removeInvestor', 'own copy', { investor_identifier: inv }, OWN),
        v1('removeAsset', 'own copy', { asset_identifier: a.asset }, OWN),
        v1('removeProject', 'own copy', { project_identifier: a.project }, OWN),
        v1('removeFramework', 'own copy', { framework_identifier: a.framework }, OWN),
        v1('removeFramework', 'own copy', { framework_identifier: a.publicFramework }, OWN),
      ];
    }

    it('account B reads nothing private of A and changes nothing of A, operation by operation', async () => {
      const before = await viewOfA();
      const secrets = [a.canary, a.encryptionKey].map((s) => s.toLowerCase());
      const table: string[][] = [];
      const problems: string[] = [];
      const all = rows();
      for (const [i, row] of all.entries()) {
        const answers = await row.attempt();
        const outcome = outcomeOf(answers.at(-1)!);
        const hidden = [...secrets, ...(row.forbidden ?? []).map((s) => s.toLowerCase())];
        const leaked = answers.some((ans) => hidden.some((s) => ans.text.toLowerCase().includes(s)));
        // A's view is read after every change, and once after the last of a run of reads (reads change nothing).
        const lastRead = row.action === 'read' && all[i + 1]?.action !== 'read';
        let changed = '';
        if (row.action !== 'read' || lastRead) {
          const after = await viewOfA();
          try {
            assert.deepEqual(after, before);
          } catch {
            changed = Object.keys(before).filter((k) => JSON.stringify(before[k]) !== JSON.stringify(after[k])).join(', ') || 'yes';
            if (row.action === 'read') changed = `after the reads: ${changed}`;
          }
        }
        table.push([row.face, row.operation, row.action, outcome, leaked ? 'LEAK' : '-', changed || '-']);
        const what = `${row.face} ${row.operation} (${row.action})`;
        if (leaked) problems.push(`${what}: B's answer holds A's private data: ${answers.map((x) => x.text.slice(0, 300)).join(' | ')}`);
        if (changed) problems.push(`${what}: A's data changed (${changed}) — B's answer ${outcome}`);
        if (!row.allowed.test(outcome)) problems.push(`${what}: unexpected outcome ${outcome}: ${answers.at(-1)!.text.slice(0, 300)}`);
      }
      const widths = [7, 0, 8, 0, 4, 0].map((w, i) => Math.max(w, ...table.map((r) => r[i]!.length)));
      const line = (cells: string[]) => `| ${cells.map((c, i) => c.padEnd(widths[i]!)).join(' | ')} |`;
      console.log(
        [`isolation matrix on ${db.name}: account B against account A's items`, line(['face', 'operation', 'action', "B's answer", 'leak', "A's data changed"]), line(widths.map((w) => '-'.repeat(w))), ...table.map(line)].join('\n'),
      );
      assert.deepEqual(problems, [], problems.join('\n'));
    });

    it("afterwards A's key-value entries, documents and pages are A's, and A's key still works", async () => {
      const hashA = (operation: string, parameters: Record<string, unknown>) => as(keyA).v1({ solution: HASH, version: 1, network: 'sepolia', operation, parameters });
      const selected = await finished(keyA, jobIdOf(await hashA('selectString', { key: `K-${a.tag}` })));
      assert.equal((selected.json as any).info.result.value, `kv-${a.canary}`);
      const bytes = await finished(keyA, jobIdOf(await hashA('selectBytes32', { key: `B-${a.tag}` })));
      assert.equal((bytes.json as any).info.result.value, a.canary.slice(0, 32));
      const page = await as(keyA).get(`/jobs/${jobs.impactsHtml}.html`);
      assert.equal(page.status, 200);
      assert.ok(page.text.includes(a.canary), 'the page carries the investor written with write_investor_to_blockchain');
      const me = (await as(keyA).gql('{ me { id } apiKeys { id revokedAt } }')).json as any;
      assert.equal(me.data.me.id, accountIdA);
      assert.equal(me.data.apiKeys.find((k: any) => k.id === apiKeyIdA).revokedAt, null);
      // A position's impacts are A's alone by CID too (docs/decisions.md "Documents and links").
      const byCid = await as(keyA).get(`/ipfs/${documentCid}`);
      assert.equal(byCid.status, 200);
      assert.ok(byCid.text.includes(a.canary));
      // A's link opens without a key; the plain page still needs A's key.
      const link = Object.values((await as(keyA).esg('getHtmlPositionImpactsFromBlockchain', { job_id: jobs.impactsHtml })).json as object)[0] as string;
      const opened = await as(undefined).get(link.slice(system.gatewayUrl.length));
      assert.equal(opened.status, 200);
      assert.ok(opened.text.includes(a.canary));
      // The same anchored bytes either way (the page around them carries the time of its verification).
      const [raw, openedRaw] = [await as(keyA).get(`/jobs/${jobs.impactsHtml}.html?raw=1`), await as(undefined).get(`${link.slice(system.gatewayUrl.length)}&raw=1`)];
      assert.equal(openedRaw.status, 200);
      assert.equal(openedRaw.text, raw.text);
    });
  });
}
