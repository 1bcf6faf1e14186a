import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { Visibility } from '@green-impact/proto/greenimpact/common/v1/common';
import { startTestGateway, type TestGateway } from '@green-impact/testing/gateway/real-gateway';
import { callsDuring as callsOf, data, gqlAt, onlyError, type GqlResponse } from '@green-impact/testing/gateway/graphql-calls';

/**
 * GraphQL over frameworks and projects, against the real TaxonomyService with the example taxonomy (year
 * 2024, en + sv). `user` (t.userKey) is the issuer; `other` belongs to another USER account.
 */

let t: TestGateway;
let user: string;
let other: string;
/** Two sub categories of one category (S1 < S2) and two indicators of one super indicator (I1 < I2), of 2024. */
let S1: number, S2: number, I1: number, I2: number;
/** The ids the service gave. */
const ids: Record<string, string> = {};

const gql = (query: string, variables: Record<string, unknown> = {}, apiKey: string | null = user): Promise<GqlResponse> =>
  gqlAt(t.baseUrl, query, variables, apiKey);
/** Calls per method the services behind the gateway receive while `run` runs. */
const callsDuring = (run: () => Promise<unknown>) => callsOf([t.taxonomy!], run);
before(async () => {
  t = await startTestGateway({}, { taxonomy: true });
  user = t.userKey;
  other = (await t.createAccount('Other issuer')).apiKey;
  await t.loadExampleTaxonomy();
  const { rows } = await t.taxonomy!.client.getTaxonomy({ reportingYear: 2024 }, { caller: t.user });
  const group = <K>(key: (r: (typeof rows)[number]) => K, of: (r: (typeof rows)[number]) => number) => {
    const by = new Map<K, Set<number>>();
    for (const r of rows) by.set(key(r), (by.get(key(r)) ?? new Set()).add(of(r)));
    return [...by.values()].map((x) => [...x].sort((a, b) => a - b)).find((x) => x.length >= 2)!;
  };
  [S1, S2] = group((r) => r.categoryId, (r) => r.subCategoryId);
  [I1, I2] = group((r) => r.superIndicatorId, (r) => r.indicatorId);
});
after(async () => {
  await t.stop();
});

const sent = (method: string) => JSON.parse(JSON.stringify(t.taxonomy!.calls.filter((c) => c.method === method).at(-1)!.request));

describe('changes answer their message and id', () => {
  test('a framework, its year specifics, two projects with rows, and the build', async () => {
    const res = await gql(`mutation {
      f: addFramework(input: { identifier: "GBF-2024", name: "Green Bond Framework", currencyCode: "eur", visibility: PUBLIC }) { message id }
      p: addFramework(input: { identifier: "PRIV-1", name: "Draft", currencyCode: "SEK" }) { message id }
      y: addYearSpecificsToFramework(input: { identifier: "GBF-2024", year: 2024, valueOutstanding: 500000000, allocatedAmount: 450000000, valueOutstandingFramework: false }) { message }
      s: addProject(input: { identifier: "P-SOLAR", name: "Solar park", currencyCode: "EUR", frameworkIdentifier: "GBF-2024" }) { message id }
      w: addProject(input: { identifier: "P-WIND", name: "Wind farm", currencyCode: "EUR", frameworkIdentifier: "GBF-2024", visibility: PUBLIC }) { message }
      a: addYearSpecificsToProject(input: { identifier: "P-SOLAR", year: 2024, allocatedAmount: 250000000 }) { message }
      r1: addCategoryIndicatorToProject(input: { identifier: "P-SOLAR", year: 2024, subCategoryId: ${S1}, volume: 200, indicatorId: ${I1}, value: 1000 }) { message }
      r2: addCategoryIndicatorToProject(input: { identifier: "P-WIND", year: 2024, subCategoryId: "${S1}", volume: 150, indicatorId: "${I1}", value: 500.5 }) { message }
      r3: addCategoryIndicatorToProject(input: { identifier: "P-WIND", year: 2024, subCategoryId: ${S2}, volume: 100, indicatorId: ${I2}, value: 20 }) { message }
      b: buildFrameworkFromProjects(identifier: "GBF-2024", year: 2024) { message id }
    }`);
    const answered = data(res);
    [ids['GBF-2024'], ids['PRIV-1'], ids['P-SOLAR']] = [answered['f'].id, answered['p'].id, answered['s'].id];
    const wind = /^Project added with id (\d+)\.$/.exec(answered['w'].message)![1]!;
    assert.deepEqual(answered, {
      f: { message: `Framework added with id ${ids['GBF-2024']}.`, id: ids['GBF-2024'] },
      p: { message: `Framework added with id ${ids['PRIV-1']}.`, id: ids['PRIV-1'] },
      y: { message: 'Year specifics for 2024 added to framework.' },
      s: { message: `Project added with id ${ids['P-SOLAR']}.`, id: ids['P-SOLAR'] },
      w: { message: `Project added with id ${wind}.` },
      a: { message: 'Year specifics for 2024 added to project.' },
      r1: { message: `Indicator ${I1} of sub category ${S1} added to project.` },
      r2: { message: `Indicator ${I1} of sub category ${S1} added to project.` },
      r3: { message: `Indicator ${I2} of sub category ${S2} added to project.` },
      b: { message: 'Framework built from 2 projects: 2 rows.', id: ids['GBF-2024'] },
    });
    assert.deepEqual(sent('addYearSpecificsToFramework'), {
      frameworkIdentifier: 'GBF-2024',
      valueOutstanding: 500e6,
      allocatedAmount: 450e6,
      valueOutstandingFramework: false,
      reportingYear: 2024,
    });
    assert.equal(sent('addProject').projectVisibility, Visibility.VISIBILITY_PUBLIC);
    assert.equal(sent('addFramework').frameworkVisibility, undefined, 'an omitted visibility stays absent');
  });
});

describe('reads', () => {
  test('frameworks with year specifics, translated rows, their projects and back: each read once', async () => {
    let res!: GqlResponse;
    const counts = await callsDuring(async () => {
      res = await gql(`{
        frameworks(year: 2024) { nodes {
          id identifier name currencyCode visibility owned year
          yearSpecifics { valueOutstanding allocatedAmount activePercentage valueOutstandingFramework }
          rows(languageCode: "sv") {
            category { id name } subCategory { id name } superIndicator { name } indicator { id name } unit { id name }
            volume currencyCode value year sdgs { goalNo name } euObjectives { objectiveNo } language languageCode
          }
          projects {
            identifier name currencyCode visibility allocatedAmount frameworkIdentifier
            framework { identifier yearSpecifics { activePercentage } }
            rows { subCategory { id } indicator { id } volume value currencyCode }
          }
        } }
      }`);
    });
    const [gbf, priv] = data(res)['frameworks'].nodes;
    assert.deepEqual({ ...gbf, rows: undefined, projects: undefined }, {
      id: ids['GBF-2024'],
      identifier: 'GBF-2024',
      name: 'Green Bond Framework',
      currencyCode: 'EUR',
      visibility: 'PUBLIC',
      owned: true,
      year: 2024,
      yearSpecifics: { valueOutstanding: '500000000', allocatedAmount: '450000000', activePercentage: '90', valueOutstandingFramework: false },
      rows: undefined,
      projects: undefined,
    });
    // The names and goals of a row are the taxonomy's in Swedish, as its own fields read them.
    const sv = data(await gql(`{
      subCategories(year: 2024, languageCode: "sv") { id name category { id name } sdgs { goalNo name } euObjectives { objectiveNo } }
      indicators(year: 2024, languageCode: "sv") { id name language languageCode superIndicator { name } unit { id name } }
    }`));
    const expectedRow = (sub: number, indicator: number, volume: string, value: string) => {
      const s = sv['subCategories'].find((x: { id: string }) => x.id === String(sub));
      const i = sv['indicators'].find((x: { id: string }) => x.id === String(indicator));
      return {
        category: s.category,
        subCategory: { id: s.id, name: s.name },
        superIndicator: i.superIndicator,
        indicator: { id: i.id, name: i.name },
        unit: i.unit,
        volume,
        currencyCode: 'EUR',
        value,
        year: 2024,
        sdgs: s.sdgs,
        euObjectives: s.euObjectives,
        language: i.language,
        languageCode: i.languageCode,
      };
    };
    assert.deepEqual(gbf.rows, [expectedRow(S1, I1, '350', '1500.5'), expectedRow(S2, I2, '100', '20')]);
    assert.deepEqual(gbf.projects, [
      {
        identifier: 'P-SOLAR',
        name: 'Solar park',
        currencyCode: 'EUR',
        visibility: 'PRIVATE',
        allocatedAmount: '250000000',
        frameworkIdentifier: 'GBF-2024',
        framework: { identifier: 'GBF-2024', yearSpecifics: { activePercentage: '90' } },
        rows: [{ subCategory: { id: String(S1) }, indicator: { id: String(I1) }, volume: '200', value: '1000', currencyCode: 'EUR' }],
      },
      {
        identifier: 'P-WIND',
        name: 'Wind farm',
        currencyCode: 'EUR',
        visibility: 'PUBLIC',
        allocatedAmount: null,
        frameworkIdentifier: 'GBF-2024',
        framework: { identifier: 'GBF-2024', yearSpecifics: { activePercentage: '90' } },
        rows: [
          { subCategory: { id: String(S1) }, indicator: { id: String(I1) }, volume: '150', value: '500.5', currencyCode: 'EUR' },
          { subCategory: { id: String(S2) }, indicator: { id: String(I2) }, volume: '100', value: '20', currencyCode: 'EUR' },
        ],
      },
    ]);
    assert.deepEqual([priv.identifier, priv.visibility, priv.yearSpecifics, priv.rows, priv.projects], ['PRIV-1', 'PRIVATE', null, [], []]);
    // Two frameworks, two projects: one listing each, one batched framework read, one detail per item and
    // language, and each taxonomy list once per language (the projects' rows are read in the original
    // language, the frameworks' in Swedish).
    assert.deepEqual(counts, {
      getFrameworks: 1,
      getFrameworkDetails: 2,
      getProjects: 1,
      getFrameworksByIdentifiers: 1,
      getProjectDetails: 2,
      getCategories: 1,
      getSubCategories: 2,
      getSuperIndicators: 1,
      getIndicators: 2,
      getUnits: 1,
      getSdgs: 1,
      getEuObjectives: 1,
    });
    assert.deepEqual(sent('getFrameworksByIdentifiers'), { frameworkIdentifiers: ['GBF-2024'], frameworkIds: [], reportingYear: 2024 });
  });

  test('framework(identifier, year): its rows in the original language cost no second read; unknown is null', async () => {
    const names = new Map((await t.taxonomy!.client.getIndicators({ reportingYear: 2024 }, { caller: t.user })).indicators.map((i) => [i.indicatorId, i.indicatorName]));
    let res!: GqlResponse;
    const counts = await callsDuring(async () => {
      res = await gql(`{
        framework(identifier: "GBF-2024", year: 2024) { id name rows { indicator { name } value } }
        missing: framework(identifier: "NOPE", year: 2024) { id }
      }`);
    });
    assert.deepEqual(data(res), {
      framework: { id: ids['GBF-2024'], name: 'Green Bond Framework', rows: [{ indicator: { name: names.get(I1) }, value: '1500.5' }, { indicator: { name: names.get(I2) }, value: '20' }] },
      missing: null,
    });
    assert.deepEqual(counts, { getFrameworkDetails: 2, getIndicators: 1 });
  });

  test('projects(year, visibility), project(identifier, year) with its framework', async () => {
    const svSub = data(await gql(`{ subCategories(year: 2024, languageCode: "sv") { id category { name } } }`))['subCategories'].find((x: { id: string }) => x.id === String(S1));
    const svCategory = svSub.category.name;
    const res = await gql(`{
      projects(year: 2024, visibility: PUBLIC) { nodes { identifier owned year } }
      project(identifier: "P-SOLAR", year: 2024) { id identifier allocatedAmount framework { id name } rows(languageCode: "sv") { category { name } } }
      none: project(identifier: "P-NONE", year: 2024) { id }
      old: project(identifier: "P-SOLAR", year: 2023) { allocatedAmount rows { value } framework { yearSpecifics { valueOutstanding } } }
    }`);
    assert.deepEqual(data(res), {
      projects: { nodes: [{ identifier: 'P-WIND', owned: true, year: 2024 }] },
      project: { id: ids['P-SOLAR'], identifier: 'P-SOLAR', allocatedAmount: '250000000', framework: { id: ids['GBF-2024'], name: 'Green Bond Framework' }, rows: [{ category: { name: svCategory } }] },
      none: null,
      old: { allocatedAmount: null, rows: [], framework: { yearSpecifics: null } },
    });
    assert.deepEqual(sent('getProjects'), { reportingYear: 2024, projectVisibility: Visibility.VISIBILITY_PUBLIC, pageSize: 100 }, 'a page of the default size');
  });

  test('another account sees only what is public', async () => {
    const res = await gql('{ frameworks(year: 2024) { nodes { identifier owned projects { identifier owned } } } projects(year: 2024) { nodes { identifier } } }', {}, other);
    assert.deepEqual(data(res), {
      frameworks: { nodes: [{ identifier: 'GBF-2024', owned: false, projects: [{ identifier: 'P-WIND', owned: false }] }] },
      projects: { nodes: [{ identifier: 'P-WIND' }] },
    });
    assert.deepEqual(data(await gql('{ framework(identifier: "PRIV-1", year: 2024) { id } }', {}, other)), { framework: null });
  });

  test("rows of another account's framework shadowed by the caller's own identifier: a clear error", async () => {
    const mine = await gql('mutation { addFramework(input: { identifier: "GBF-2024", name: "Mine", currencyCode: "SEK" }) { id } }', {}, other);
    const ownId = data(mine)['addFramework'].id;
    const res = await gql('{ frameworks(year: 2024) { nodes { id owned rows { value } } } }', {}, other);
    assert.equal(res.body.errors?.length, 1, JSON.stringify(res.body));
    assert.deepEqual(res.body.errors![0]!.extensions, { code: 'CONFLICT', grpcStatus: 'FAILED_PRECONDITION' });
    assert.equal(res.body.errors![0]!.message, `The rows of another account's framework "GBF-2024" cannot be read while you have a framework with the same identifier.`);
    // The connection is in id order (paged by the service): the other account's older framework first.
    assert.deepEqual(res.body.errors![0]!.path, ['frameworks', 'nodes', 0, 'rows']);
    assert.deepEqual(res.body.data, { frameworks: { nodes: [{ id: ids['GBF-2024'], owned: false, rows: null }, { id: ownId, owned: true, rows: [] }] } }, 'the rest of the answer stands');
    assert.equal(data(await gql('mutation ($i: String!) { removeFramework(identifier: $i) { message } }', { i: 'GBF-2024' }, other))['removeFramework'].message, 'Framework removed.');
  });
});

describe('errors carry extensions.code', () => {
  test('types are checked before any call, bounds by the service: each refusal names the GraphQL field', async () => {
    /** `gateway`: refused before any call; `service`: the taxonomy service's refusal, relabelled. */
    const cases: [string, 'gateway' | 'service', string][] = [
      [
        'mutation { addYearSpecificsToFramework(input: { identifier: "GBF-2024", year: 2024, valueOutstanding: -1, allocatedAmount: 0, valueOutstandingFramework: true }) { message } }',
        'service',
        'input.valueOutstanding must be a finite number of at least 0.',
      ],
      [
        'mutation { addYearSpecificsToProject(input: { identifier: "P-SOLAR", year: 2024, allocatedAmount: 1e16 }) { message } }',
        'service',
        'input.allocatedAmount must be at most 1000000000000000.',
      ],
      [
        `mutation { addCategoryIndicatorToFramework(input: { identifier: "GBF-2024", year: 2024, subCategoryId: ${S1}, volume: 1, indicatorId: "x", value: 1 }) { message } }`,
        'gateway',
        'input.indicatorId must be an integer.',
      ],
      ['mutation { addFramework(input: { identifier: "", name: "X", currencyCode: "EUR" }) { message } }', 'gateway', 'input.identifier is required.'],
      ['mutation { addProject(input: { identifier: "P", name: "X", currencyCode: "EURO", frameworkIdentifier: "F" }) { message } }', 'service', 'input.currencyCode must be a 3-letter currency code, got "EURO".'],
      ['mutation { addProject(input: { identifier: "P", name: "X", currencyCode: "EUR", frameworkIdentifier: "" }) { message } }', 'gateway', 'input.frameworkIdentifier is required.'],
      ['mutation { removeProject(identifier: "") { message } }', 'gateway', 'identifier is required.'],
      ['mutation { buildFrameworkFromProjects(identifier: "GBF-2024", year: 24) { message } }', 'service', 'year must be a 4-digit year from 1900 to 2200, got 24.'],
      ['{ frameworks(year: 20245) { nodes { id } } }', 'service', 'year must be a 4-digit year from 1900 to 2200, got 20245.'],
      ['{ framework(identifier: "a\\nb", year: 2024) { id } }', 'gateway', 'identifier must not contain control characters.'],
      [`mutation { addFramework(input: { identifier: "${'x'.repeat(256)}", name: "X", currencyCode: "EUR" }) { message } }`, 'service', 'input.identifier must be 1 to 255 characters on one line.'],
    ];
    for (const [query, owner, message] of cases) {
      const counts = await callsDuring(async () => {
        assert.deepEqual(onlyError(await gql(query)), { message, code: 'BAD_USER_INPUT' }, query);
      });
      if (owner === 'gateway') assert.deepEqual(counts, {}, query);
      else assert.equal(Object.values(counts).reduce((a, b) => a + b, 0), 1, query);
    }
  });

  test('a visibility outside the enum is refused by GraphQL itself', async () => {
    const res = await gql('{ frameworks(year: 2024, visibility: SHARED) { nodes { id } } }');
    assert.equal(onlyError(res).code, 'GRAPHQL_VALIDATION_FAILED');
  });

  test("another account's changes of public items: FORBIDDEN Not authorized.; private ones: NOT_FOUND", async () => {
    // One request each: an error in a non-null mutation field ends the (serial) mutation.
    const cases: [string, string, string][] = [
      ['mutation { removeFramework(identifier: "GBF-2024") { message } }', 'Not authorized.', 'FORBIDDEN'],
      ['mutation { addYearSpecificsToProject(input: { identifier: "P-WIND", year: 2024, allocatedAmount: 1 }) { message } }', 'Not authorized.', 'FORBIDDEN'],
      ['mutation { buildFrameworkFromProjects(identifier: "GBF-2024", year: 2024) { message } }', 'Not authorized.', 'FORBIDDEN'],
      ['mutation { removeFramework(identifier: "PRIV-1") { message } }', 'No such framework "PRIV-1".', 'NOT_FOUND'],
    ];
    for (const [query, message, code] of cases) assert.deepEqual(onlyError(await gql(query, {}, other)), { message, code }, query);
  });
});

describe('removals', () => {
  test('each removal answers the service message; a framework in use is refused first', async () => {
    const refused = await gql('mutation { removeFramework(identifier: "GBF-2024") { message } }');
    assert.equal(onlyError(refused).code, 'CONFLICT');
    const res = await gql(`mutation {
      a: removeIndicatorFromProject(input: { identifier: "P-WIND", year: 2024, subCategoryId: ${S2}, indicatorId: ${I2} }) { message }
      b: removeCategoryFromProject(input: { identifier: "P-WIND", year: 2024, subCategoryId: ${S1} }) { message }
      c: removeYearSpecificsFromProject(identifier: "P-SOLAR", year: 2024) { message }
      d: removeProject(identifier: "P-SOLAR") { message id }
      e: removeProject(identifier: "P-WIND") { message }
      f: removeIndicatorFromFramework(input: { identifier: "GBF-2024", year: 2024, subCategoryId: ${S2}, indicatorId: ${I2} }) { message }
      g: removeCategoryFromFramework(input: { identifier: "GBF-2024", year: 2024, subCategoryId: ${S1} }) { message }
      h: removeFrameworkYearSpecifics(identifier: "GBF-2024", year: 2024) { message }
      i: removeFramework(identifier: "GBF-2024") { message }
    }`);
    assert.deepEqual(data(res), {
      a: { message: `Indicator ${I2} of sub category ${S2} removed from project.` },
      b: { message: `Sub category ${S1} removed from project (1 row).` },
      c: { message: 'Year specifics for 2024 removed from project.' },
      d: { message: 'Project removed.', id: ids['P-SOLAR'] },
      e: { message: 'Project removed.' },
      f: { message: `Indicator ${I2} of sub category ${S2} removed from framework.` },
      g: { message: `Sub category ${S1} removed from framework (1 row).` },
      h: { message: 'Year specifics for 2024 removed from framework.' },
      i: { message: 'Framework removed.' },
    });
    assert.deepEqual(sent('removeIndicatorFromProject'), { projectIdentifier: 'P-WIND', indicatorId: I2, subCategoryId: S2, reportingYear: 2024 });
    assert.deepEqual(data(await gql('{ frameworks(year: 2024) { nodes { identifier } } projects(year: 2024) { nodes { identifier } } }')), {
      frameworks: { nodes: [{ identifier: 'PRIV-1' }] },
      projects: { nodes: [] },
    });
  });
});

test('every framework and project type, field and argument is described', async () => {
  const res = await gql(`{
    __schema { types { name description enumValues { name description } fields { name description args { name description } }
      inputFields { name description } } }
  }`);
  type T = {
    name: string;
    description: string | null;
    enumValues: { name: string; description: string | null }[] | null;
    fields: { name: string; description: string | null; args: { name: string; description: string | null }[] }[] | null;
    inputFields: { name: string; description: string | null }[] | null;
  };
  const types = (data(res)['__schema'] as { types: T[] }).types;
  const mine = new Set([
    'Visibility', 'Framework', 'FrameworkYearSpecifics', 'Project', 'FrameworkRow', 'AddFrameworkInput', 'FrameworkYearSpecificsInput',
    'CategoryIndicatorInput', 'RemoveIndicatorRowInput', 'RemoveSubCategoryRowsInput', 'AddProjectInput', 'ProjectYearSpecificsInput',
  ]);
  const missing: string[] = [];
  for (const type of types) {
    if (mine.has(type.name)) {
      if (!type.description) missing.push(type.name);
      for (const f of [...(type.inputFields ?? []), ...(type.enumValues ?? [])]) if (!f.description) missing.push(`${type.name}.${f.name}`);
      for (const f of type.fields ?? []) {
        if (!f.description) missing.push(`${type.name}.${f.name}`);
        for (const a of f.args) if (!a.description) missing.push(`${type.name}.${f.name}(${a.name})`);
      }
    }
    if (type.name === 'Query' || type.name === 'Mutation') {
      for (const f of type.fields ?? []) {
        if (!f.description) missing.push(`${type.name}.${f.name}`);
        for (const a of f.args) if (!a.description && a.name !== 'input') missing.push(`${type.name}.${f.name}(${a.name})`);
      }
    }
  }
  assert.deepEqual(missing, []);
  assert.ok(mine.size === types.filter((x) => mine.has(x.name)).length, 'every type is in the schema');
});
