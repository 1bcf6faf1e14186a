import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startTestGateway, type TestGateway } from '@green-impact/testing/gateway/real-gateway';
import { data, gqlAt, type GqlResponse } from '@green-impact/testing/gateway/graphql-calls';

/**
 * Framework and project changes answer payloads carrying the item as framework(identifier, year) /
 * project(identifier, year) show it to the caller (payloads.ts), against the real TaxonomyService with
 * the example taxonomy (year 2024; SUB and IND a sub category and indicator of one of its rows).
 * `user` (t.userKey) and `other` belong to different accounts.
 */

let t: TestGateway;
let user: string;
let other: string;
let SUB: number;
let IND: number;

const gql = (query: string, variables: Record<string, unknown> = {}, apiKey: string | null = user): Promise<GqlResponse> =>
  gqlAt(t.baseUrl, query, variables, apiKey);
before(async () => {
  t = await startTestGateway({}, { taxonomy: true });
  user = t.userKey;
  other = (await t.createAccount('Other issuer')).apiKey;
  await t.loadExampleTaxonomy();
  const [row] = (await t.taxonomy!.client.getTaxonomy({ reportingYear: 2024 }, { caller: t.user })).rows;
  [SUB, IND] = [row!.subCategoryId, row!.indicatorId];
});
after(async () => {
  await t.stop();
});

const FRAMEWORK = 'id identifier name currencyCode visibility owned year yearSpecifics { valueOutstanding allocatedAmount } rows { volume value indicator { id } }';
const PROJECT = 'id identifier name visibility owned year allocatedAmount framework { id identifier } rows { volume value }';

describe('framework and project payloads', () => {
  test('each change carries its framework or project as a following read shows it', async () => {
    const res = data(
      await gql(`mutation {
        f: addFramework(input: { identifier: "GBF", name: "Green Bond Framework", currencyCode: "EUR", visibility: PUBLIC }) { message id framework(year: 2024) { ${FRAMEWORK} } }
        y: addYearSpecificsToFramework(input: { identifier: "GBF", year: 2024, valueOutstanding: 500, allocatedAmount: 450, valueOutstandingFramework: false }) { framework { ${FRAMEWORK} } }
        r: addCategoryIndicatorToFramework(input: { identifier: "GBF", year: 2024, subCategoryId: ${SUB}, volume: 200, indicatorId: ${IND}, value: 1000 }) { framework { ${FRAMEWORK} } }
        p: addProject(input: { identifier: "P-SOLAR", name: "Solar park", currencyCode: "EUR", frameworkIdentifier: "GBF" }) { id project(year: 2024) { ${PROJECT} } }
        a: addYearSpecificsToProject(input: { identifier: "P-SOLAR", year: 2024, allocatedAmount: 250 }) { project { ${PROJECT} } }
      }`),
    );
    const reads = data(await gql(`{ framework(identifier: "GBF", year: 2024) { ${FRAMEWORK} } project(identifier: "P-SOLAR", year: 2024) { ${PROJECT} } }`));
    assert.equal(res['f'].id, res['f'].framework.id);
    assert.deepEqual(res['f'].framework, { ...reads['framework'], yearSpecifics: null, rows: [] }, 'before its year specifics and rows');
    assert.deepEqual(res['y'].framework, { ...reads['framework'], rows: [] });
    assert.deepEqual(res['r'].framework, reads['framework']);
    assert.deepEqual(res['r'].framework.rows, [{ volume: '200', value: '1000', indicator: { id: String(IND) } }]);
    assert.deepEqual(res['p'].project, { ...reads['project'], allocatedAmount: null });
    assert.deepEqual(res['a'].project, reads['project']);
    assert.equal(res['a'].project.framework.identifier, 'GBF');
  });

  test('a removal of a row carries the framework without it; removing the framework carries its id only', async () => {
    const res = data(
      await gql(`mutation {
        f: addFramework(input: { identifier: "GONE", name: "Gone", currencyCode: "EUR" }) { id }
        r: addCategoryIndicatorToFramework(input: { identifier: "GONE", year: 2024, subCategoryId: ${SUB}, volume: 1, indicatorId: ${IND}, value: 2 }) { framework { rows { value } } }
        x: removeIndicatorFromFramework(input: { identifier: "GONE", year: 2024, subCategoryId: ${SUB}, indicatorId: ${IND} }) { framework { rows { value } } }
        d: removeFramework(identifier: "GONE") { message removedId }
      }`),
    );
    assert.deepEqual(res['r'].framework.rows, [{ value: '2' }]);
    assert.deepEqual(res['x'].framework.rows, []);
    assert.equal(res['d'].removedId, res['f'].id);
    assert.deepEqual(data(await gql('{ framework(identifier: "GONE", year: 2024) { id } }')), { framework: null });
  });

  test("another account's private framework is never revealed through a payload", async () => {
    data(await gql('mutation { addFramework(input: { identifier: "SECRET", name: "Private plans", currencyCode: "EUR" }) { id } }'));
    // The other account's change fails as on /v1/call, and its payload has nothing of the private item.
    const denied = await gql('mutation { removeFramework(identifier: "SECRET") { removedId } }', {}, other);
    assert.equal(denied.body.data, null);
    assert.doesNotMatch(JSON.stringify(denied.body), /Private plans/);
    // A framework of its own with the same identifier: the payload shows the caller's, not the other's.
    const own = data(
      await gql('mutation { addFramework(input: { identifier: "SECRET", name: "Mine", currencyCode: "SEK" }) { id framework(year: 2024) { id name owned } } }', {}, other),
    );
    assert.deepEqual(own['addFramework'].framework, { id: own['addFramework'].id, name: 'Mine', owned: true });
    // A project of its own built into a public framework reads that framework, never the private one.
    const project = data(
      await gql('mutation { addProject(input: { identifier: "OP-P", name: "Op project", currencyCode: "EUR", frameworkIdentifier: "GBF" }) { project(year: 2024) { framework { identifier name } } } }', {}, other),
    );
    assert.deepEqual(project['addProject'].project.framework, { identifier: 'GBF', name: 'Green Bond Framework' });
  });

  test('a year argument outside 4 digits is refused on the payload field, after the change', async () => {
    const res = await gql('mutation { addFramework(input: { identifier: "Y", name: "Y", currencyCode: "EUR" }) { message framework(year: 24) { id } } }');
    assert.match(res.body.data?.['addFramework'].message, /^Framework added with id \d+\.$/);
    assert.equal(res.body.data?.['addFramework'].framework, null);
    assert.equal(res.body.errors?.[0]?.extensions?.['code'], 'BAD_USER_INPUT');
  });
});
