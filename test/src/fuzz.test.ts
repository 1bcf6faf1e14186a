import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { gzipSync } from 'node:zlib';
import fc from 'fast-check';
import { operationEntries, operationTable } from '@green-impact/gateway/v1/operation-table';
import type { OperationEntry } from '@green-impact/gateway/v1/operation';
import type { Field } from '@green-impact/gateway/catalogue/fields';
import type { RunningSystem } from '@green-impact/embedded/system';
import { testDatabases } from '@green-impact/testing/shared/databases';
import { accountSnapshot, ESG, referenceSnapshot, seedAccount, seedReferenceData, type AccountData, type Taxonomy } from './support/dataset.js';
import { adversarialValue, INT4_MAX, invalidValue, nested, POLLUTION, type ValuePools } from './support/fuzz-values.js';
import { INTROSPECTION, malformedQueries, readSchema, requestArb, type Schema } from './support/graphql-fuzz.js';
import { assertGraphqlAnswer, assertV1Answer, describeProbe, send, type Answer, type Probe } from './support/http-probe.js';
import { createUserAccount, startTestSystem, v1Client } from './support/system.js';

/**
 * Property-based fuzzing of both faces of the gateway against ONE real system (PGlite, every service over
 * real gRPC): thousands of generated /v1/call bodies — wrong types for every parameter of every operation
 * in the gateway's own operation table, hostile but well-typed values, broken envelopes, raw non-JSON
 * bodies — and GraphQL requests built from the introspected schema. Every answer must be a 2xx (only
 * where the input may be valid) or a 4xx with `{message, code}`; never a 5xx, never an internal detail.
 * The owner's data and the reference data read the same before and after: invalid requests are sent as
 * the owner, well-typed hostile changes as another account, so nothing here may legitimately change them.
 *
 * Seeded and bounded (FUZZ_SEED, FUZZ_SCALE): a failure prints the seed, the path and the request.
 */
const SEED = Number(process.env['FUZZ_SEED'] ?? 20_251_120);
const SCALE = Number(process.env['FUZZ_SCALE'] ?? 1);
const runs = (n: number) => Math.max(1, Math.round(n * SCALE));
const OPERATOR = 'fuzz-operator-key';
const BATCH = 8;

type Who = 'owner' | 'other' | 'operator' | 'nobody' | 'bogus';
interface Item {
  probe: Probe;
  who: Who;
  /** 'invalid': must be a 4xx; 'any': 2xx or 4xx. */
  expect: 'invalid' | 'any';
}

const READ = /^(get|list|fetch|generate)/;
const isRead = (operation: string, params: Record<string, unknown>) =>
  READ.test(operation) && !/^y/i.test(String(params['compute_missing'] ?? ''));

const pglite = testDatabases.find((d) => d.name === 'pglite')!;

describe('fuzz: hostile input through /v1/call and /graphql (PGlite)', () => {
  let system: RunningSystem;
  const keys: Record<Who, string | undefined> = { owner: '', other: '', operator: OPERATOR, nobody: undefined, bogus: 'not-a-key-' + 'k'.repeat(40) };
  let tax: Taxonomy;
  let owner: AccountData;
  let other: AccountData;
  let pools: ValuePools;
  let schema: Schema;
  let ownerBefore: Record<string, unknown>;
  let referenceBefore: Record<string, unknown>;
  const prototypeBefore = Object.getOwnPropertyNames(Object.prototype).sort();
  const tally = new Map<string, number>();

  const count = (what: string) => tally.set(what, (tally.get(what) ?? 0) + 1);

  async function run(items: Item[], kind: 'v1' | 'graphql', check: (a: Answer, item: Item, sent: string, context: string) => void): Promise<void> {
    await Promise.all(
      items.map(async (item) => {
        const key = keys[item.who];
        const probe = { ...item.probe, headers: { ...(key !== undefined ? { 'x-api-key': key } : {}), ...item.probe.headers } };
        const answer = await send(system.gatewayUrl, probe);
        count(`${kind} ${item.expect} ${answer.status}`);
        const sent = typeof probe.body === 'string' ? probe.body : '';
        check(answer, item, sent, describeProbe(probe, item.who));
      }),
    );
  }
  const runV1 = (items: Item[]) => run(items, 'v1', (a, item, sent, ctx) => assertV1Answer(a, sent, ctx, item.expect === 'any'));
  const runGraphql = (items: Item[]) => run(items, 'graphql', (a, _item, sent, ctx) => assertGraphqlAnswer(a, sent, ctx));
  const settings = (numRuns: number): fc.Parameters<[Item[]]> => ({ seed: SEED, numRuns: runs(numRuns), endOnFailure: true, verbose: 1, includeErrorInReport: true });

  before(async () => {
    system = await startTestSystem(pglite, OPERATOR);
    keys.owner = await createUserAccount(system.gatewayUrl, OPERATOR, 'Fuzz Owner');
    keys.other = await createUserAccount(system.gatewayUrl, OPERATOR, 'Fuzz Other');
    tax = await seedReferenceData(v1Client(system.gatewayUrl, OPERATOR));
    owner = await seedAccount(v1Client(system.gatewayUrl, keys.owner), 'A', tax);
    other = await seedAccount(v1Client(system.gatewayUrl, keys.other), 'B', tax);
    pools = {
      identifiers: [owner, other].flatMap((d) => [d.framework, d.publicFramework, d.project, d.asset, d.investor, d.plainInvestor, d.portfolio, d.user, `ISS-${d.tag}`]).concat('investors', 'en', 'sv', 'EUR'),
      ids: [tax.category, tax.subCategory, tax.unit, tax.superIndicator, tax.indicator, owner.positionId, other.positionId, 1, 7],
    };
    ownerBefore = await ownerView();
    referenceBefore = await referenceSnapshot(v1Client(system.gatewayUrl, keys.owner));
    const introspection = await send(system.gatewayUrl, { path: '/graphql', headers: { 'content-type': 'application/json', 'x-api-key': keys.owner }, body: JSON.stringify({ query: INTROSPECTION }) });
    schema = readSchema((introspection.json as any).data);
  });
  after(async () => system?.stop());

  const ownerView = () => accountSnapshot(v1Client(system.gatewayUrl, keys.owner!), owner);

  // ---------------------------------------------------------------- /v1/call bodies

  function body(entry: OperationEntry, parameters: unknown, envelope: Record<string, unknown> = {}): Record<string, unknown> {
    const versioned = entry.solution !== ESG;
    return { solution: entry.solution, operation: entry.operation, parameters, ...(versioned ? { version: 1, network: 'sepolia' } : {}), ...envelope };
  }
  const v1 = (payload: unknown, headers: Record<string, string> = {}): Probe => ({
    path: '/v1/call',
    headers: { 'content-type': 'application/json', ...headers },
    body: typeof payload === 'string' ? payload : JSON.stringify(payload),
  });

  /** Well-typed hostile parameters of `entry`, now and then under the spec's misspelt aliases. */
  /** The row's fields by their /v1/call names. */
  const paramsOf = (entry: OperationEntry): [string, Field][] => Object.values(entry.input).map((field) => [field.v1, field]);

  function hostileParams(entry: OperationEntry): fc.Arbitrary<Record<string, unknown>> {
    const specs = paramsOf(entry);
    const model = Object.fromEntries(specs.map(([name, spec]) => [name, adversarialValue(name, spec, pools)]));
    const required = specs.filter(([, s]) => s.required).map(([n]) => n);
    return fc.tuple(fc.record(model, { requiredKeys: required }), fc.boolean(), POLLUTION).map(([params, useAliases, pollution]) => {
      const out: Record<string, unknown> = { ...pollution };
      for (const [name, value] of Object.entries(params)) {
        const alias = specs.find(([n]) => n === name)?.[1].aliases[0];
        out[useAliases && alias ? alias : name] = value;
      }
      return out;
    });
  }

  /** A body with exactly one thing wrong that the gateway must refuse. */
  function invalidBody(entry: OperationEntry): fc.Arbitrary<Record<string, unknown>> {
    const specs = paramsOf(entry);
    const corruptible = specs.filter(([, s]) => invalidValue(s) !== undefined);
    const required = specs.filter(([, s]) => s.required).map(([n]) => n);
    const versioned = entry.solution !== ESG;
    const unknownOperation = (op: unknown) => (typeof op === 'string' && operationTable.find(entry.solution, op) ? `${op}Nope` : op);
    const corruptions: fc.Arbitrary<(b: Record<string, unknown>) => void>[] = [
      fc.constantFrom<unknown>(42, true, [ESG], {}, 'SVC.ESG.Credit', 'svc.esg.credits', ' SVC.ESG.Credits', 'SVC.NFT.ZK', 'SVC', '__proto__', undefined).map((v) => (b) => {
        if (v === undefined) delete b['solution'];
        else b['solution'] = v;
      }),
      fc.constantFrom<unknown>(entry.operation.toUpperCase(), `${entry.operation} `, '__proto__', 'constructor', 'toString', 'hasOwnProperty', 42, true, [entry.operation], {}, 'x'.repeat(10_000), undefined).map((v) => (b) => {
        if (v === undefined) delete b['operation'];
        else b['operation'] = unknownOperation(v);
      }),
      fc.constantFrom<unknown>([], [1], 'parameters', 42, true).map((v) => (b) => void (b['parameters'] = v)),
    ];
    if (versioned) {
      corruptions.push(fc.constantFrom<unknown>(2, '2', 0, -1, 'v1', [1], {}, true, 1.5).map((v) => (b) => void (b['version'] = v)));
      corruptions.push(fc.constantFrom<unknown>('net work', '../x', 'x'.repeat(65), 42, {}, ['sepolia'], 'sepolia\u0000').map((v) => (b) => void (b['network'] = v)));
      if (entry.envelope?.version) corruptions.push(fc.constant((b) => void delete b['version']));
      if (entry.envelope?.network) corruptions.push(fc.constant((b) => void delete b['network']));
    }
    if (corruptible.length) {
      corruptions.push(
        fc.constantFrom(...corruptible).chain(([name, spec]) =>
          invalidValue(spec)!.map((value) => (b: Record<string, unknown>) => {
            const params = b['parameters'] as Record<string, unknown>;
            for (const alias of spec.aliases) delete params[alias];
            params[name] = value;
          }),
        ),
      );
      // Weighted twice: wrong parameter values are the bulk of real mistakes.
      corruptions.push(corruptions[corruptions.length - 1]!);
    }
    if (required.length) {
      corruptions.push(
        fc.constantFrom(...required).chain((name) =>
          fc.constantFrom<unknown>(undefined, null, '').map((absent) => (b: Record<string, unknown>) => {
            const params = b['parameters'] as Record<string, unknown>;
            for (const alias of specs.find(([n]) => n === name)?.[1].aliases ?? []) delete params[alias];
            if (absent === undefined) delete params[name];
            else params[name] = absent;
          }),
        ),
      );
    }
    return fc.tuple(hostileParams(entry), fc.oneof(...corruptions)).map(([params, corrupt]) => {
      const b = body(entry, params);
      corrupt(b);
      return b;
    });
  }

  const entryArb = () => fc.constantFrom(...operationEntries);

  /** Raw bodies that are not a valid call whatever their content: broken JSON, wrong media, deep nesting. */
  function rawInvalid(): fc.Arbitrary<Probe> {
    const valid = entryArb().chain((e) => hostileParams(e).map((p) => JSON.stringify(body(e, p))));
    return fc.oneof(
      fc.string({ unit: 'binary', maxLength: 300 }).map((s) => v1(s.startsWith('{') ? `${s}}}` : s)),
      valid.chain((text) => fc.integer({ min: 1, max: text.length - 1 }).map((cut) => v1(text.slice(0, cut)))),
      fc.uint8Array({ minLength: 1, maxLength: 300 }).map((bytes) => ({ ...v1(''), body: Uint8Array.from([0xff, 0xfe, ...bytes]) })),
      fc.constantFrom(
        "{solution: 'SVC.ESG.Credits', operation: 'getUsers'}",
        '{"solution":"SVC.ESG.Credits","operation":"getUsers","parameters":{"user_identifier":NaN}}',
        '{"solution":"SVC.ESG.Credits","operation":"getUsers","parameters":{"user_identifier":Infinity}}',
        '{"solution":"SVC.ESG.Credits","operation":"getUsers",}',
        '// comment\n{"solution":"SVC.ESG.Credits","operation":"getUsers"}',
        "{'solution':'SVC.ESG.Credits'}",
        '{"solution":"SVC.ESG.Credits","operation":"getUsers","parameters":{"user_identifier":"\\ud800\\x"}}',
        '',
        'null',
        '[]',
        '"SVC.ESG.Credits"',
        '1e999',
      ).map((text) => v1(text)),
      // A valid body in the wrong media type or encoding.
      fc.tuple(valid, fc.constantFrom('text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x', 'application/xml', 'application/json; charset=utf-16', 'application/json; charset=latin1', '')).map(
        ([text, type]): Probe => ({ path: '/v1/call', headers: type ? { 'content-type': type } : {}, body: text }),
      ),
      fc.tuple(valid, fc.constantFrom('gzip', 'deflate', 'br', 'compress', 'x-unknown')).map(([text, encoding]) => ({
        path: '/v1/call',
        headers: { 'content-type': 'application/json', 'content-encoding': encoding },
        body: encoding === 'gzip' ? gzipSync(Buffer.from(text)).subarray(0, 20) : text,
      })),
      // Deep nesting: in a parameter, as the parameters, and as the whole body.
      fc.tuple(fc.constantFrom(10, 1_000, 100_000), fc.constantFrom<'array' | 'object'>('array', 'object')).chain(([depth, kind]) =>
        fc.constantFrom(
          v1(`{"solution":"${ESG}","operation":"getUsers","parameters":{"user_identifier":${nested(depth, kind)}}}`),
          v1(`{"solution":"${ESG}","operation":"removeUser","parameters":${nested(depth, 'array')}}`),
          v1(nested(depth, kind)),
        ),
      ),
      // The last of duplicate keys is wrong.
      valid.map((text) => v1(`${text.slice(0, -1)},"parameters":[]}`)),
      valid.map((text) => v1(`${text.slice(0, -1)},"solution":"SVC.Nope"}`)),
      fc.constantFrom('GET', 'PUT', 'DELETE', 'PATCH').map((method) => ({ path: '/v1/call', method, headers: {} })),
    );
  }

  it('/v1/call: invalid parameters, envelopes and raw bodies answer 4xx {message, code}', async () => {
    const whoArb = fc.constantFrom<Who>('owner', 'owner', 'owner', 'operator', 'nobody', 'bogus');
    const item: fc.Arbitrary<Item> = fc.oneof(
      { weight: 4, arbitrary: fc.tuple(entryArb().chain(invalidBody), whoArb).map(([b, who]) => ({ probe: v1(b), who, expect: 'invalid' as const })) },
      { weight: 1, arbitrary: rawInvalid().map((probe) => ({ probe, who: 'owner' as Who, expect: 'invalid' as const })) },
    );
    await fc.assert(fc.asyncProperty(fc.array(item, { minLength: 1, maxLength: BATCH }), runV1), settings(200));

    // Bodies at and over the limit (1 MiB by default).
    const big = (bytes: number) => v1(JSON.stringify({ solution: ESG, operation: 'addUser', parameters: { user_identifier: 'x'.repeat(bytes) } }));
    await runV1([
      { probe: big(1_100_000), who: 'owner', expect: 'invalid' },
      { probe: big(5_000_000), who: 'nobody', expect: 'invalid' },
      { probe: big(1_000_000), who: 'owner', expect: 'invalid' },
    ]);
  });

  it('/v1/call: hostile but well-typed input — reads as the owner, changes as another account', async () => {
    // NFT changes mint from URLs and send e-mail: they are fuzzed with invalid input only.
    const entries = operationEntries.filter((e) => e.solution !== 'SVC.NFT.zK' || READ.test(e.operation));
    const call = fc.constantFrom(...entries).chain((entry) =>
      fc.tuple(hostileParams(entry), fc.boolean()).map(([params, readAsOther]): Item => ({
        probe: v1(body(entry, params)),
        who: isRead(entry.operation, params) && !readAsOther ? 'owner' : 'other',
        expect: 'any',
      })),
    );
    // Duplicate keys whose last value is well-typed: sent as the other account, whatever the operation.
    const duplicated = fc.tuple(fc.constantFrom(...entries), fc.constantFrom(...entries)).chain(([a, b]) =>
      fc.tuple(hostileParams(a), hostileParams(b)).map(([pa, pb]): Item => {
        const text = JSON.stringify(body(a, pa));
        return { probe: v1(`${text.slice(0, -1)},"operation":${JSON.stringify(b.operation)},"parameters":${JSON.stringify(pb)}}`), who: 'other', expect: 'any' };
      }),
    );
    const item = fc.oneof({ weight: 6, arbitrary: call }, { weight: 1, arbitrary: duplicated });
    await fc.assert(fc.asyncProperty(fc.array(item, { minLength: 1, maxLength: BATCH }), runV1), settings(140));
  });

  // ---------------------------------------------------------------- /graphql

  const gqlProbe = (payload: unknown, headers: Record<string, string> = { 'content-type': 'application/json' }): Probe => ({
    path: '/graphql',
    headers,
    body: typeof payload === 'string' ? payload : JSON.stringify(payload),
  });

  it('/graphql: malformed, nested, huge and wrongly typed requests are 4xx or 200 with errors', async () => {
    const transport = fc.constantFrom<Probe>(
      gqlProbe({ query: 42 }),
      gqlProbe({ query: '{ me { id } }', variables: 'x' }),
      gqlProbe({ query: '{ me { id } }', variables: [1] }),
      gqlProbe({ query: '{ me { id } }', operationName: 42 }),
      gqlProbe({ query: '{ me { id } }', operationName: 'Nope' }),
      gqlProbe([{ query: '{ me { id } }' }, { query: '{ me { id } }' }]),
      gqlProbe({}),
      gqlProbe(''),
      gqlProbe('{"query": "{ me { id } }"'),
      gqlProbe('null'),
      // Only a lookup that misses: other persisted-query errors are the known bug of the test below.
      gqlProbe({ extensions: { persistedQuery: { version: 1, sha256Hash: '0'.repeat(64) } } }),
      gqlProbe({ query: 'query($s: String) { me { id } }', variables: { s: 'x'.repeat(900_000) } }),
      gqlProbe({ query: 'query($s: String) { me { id } }', variables: { s: 'x'.repeat(2_000_000) } }),
      gqlProbe({ query: '{ me { id } }', variables: JSON.parse(`{"__proto__": {"polluted": true}}`) }),
      gqlProbe({ query: '{ me { id } }' }, { 'content-type': 'text/plain' }),
      gqlProbe({ query: '{ me { id } }' }, { 'content-type': 'application/x-www-form-urlencoded' }),
      gqlProbe({ query: '{ me { id } }' }, {}),
      { path: `/graphql?query=${encodeURIComponent('{ me { id } }')}`, method: 'GET', headers: {} },
      { path: `/graphql?query=${encodeURIComponent('{ me { id } }')}`, method: 'GET', headers: { 'apollo-require-preflight': '1' } },
      { path: `/graphql?query=${encodeURIComponent('mutation { generateEncryptionKey { encryptionKey } }')}`, method: 'GET', headers: { 'apollo-require-preflight': '1' } },
      { path: `/graphql?query=${encodeURIComponent('{'.repeat(5_000))}`, method: 'GET', headers: { 'apollo-require-preflight': '1' } },
      { path: '/graphql', method: 'PUT', headers: { 'content-type': 'application/json' }, body: '{"query":"{ me { id } }"}' },
    );
    const malformed = malformedQueries.map((query) => gqlProbe({ query }));
    const wrongVariables = fc
      .constantFrom(...schema.query.filter((f) => f.args.length > 0))
      .chain((field) => requestArb(schema, 'query', [field], pools.identifiers))
      .map((r) => gqlProbe({ query: r.query, variables: Object.fromEntries(Object.keys(r.variables).map((k) => [k, { deep: [[[{ deeper: 'x'.repeat(1_000) }]]] }])) }));
    const item = fc
      .tuple(fc.oneof(transport, malformed, malformed, wrongVariables), fc.constantFrom<Who>('owner', 'owner', 'nobody', 'bogus'))
      .map(([probe, who]): Item => ({ probe, who, expect: 'any' }));
    await fc.assert(fc.asyncProperty(fc.array(item, { minLength: 1, maxLength: BATCH }), runGraphql), settings(80));
  });

  it('/graphql: schema-driven hostile arguments — queries as the owner, mutations as another account', async () => {
    // Rotating or revoking its own key would lock the other account out of the rest of the run (the
    // isolation suite covers those across accounts); NFT mutations mint from URLs and send e-mail.
    const mutations = schema.mutation.filter((f) => !/^(rotateApiKey|revokeApiKey)$|nft|mint|transfer|claim|send|revoke/i.test(f.name));
    const query = requestArb(schema, 'query', schema.query, pools.identifiers).map((r): Item => ({ probe: gqlProbe(r), who: r.wrongType ? 'other' : 'owner', expect: 'any' }));
    const mutation = requestArb(schema, 'mutation', mutations, pools.identifiers).map((r): Item => ({ probe: gqlProbe(r), who: 'other', expect: 'any' }));
    const item = fc.oneof({ weight: 3, arbitrary: query }, { weight: 2, arbitrary: mutation });
    await fc.assert(fc.asyncProperty(fc.array(item, { minLength: 1, maxLength: BATCH }), runGraphql), settings(130));
  });

  // ---------------------------------------------------------------- afterwards

  it("the owner's data and the reference data are unchanged; the process is up and unpolluted", async () => {
    assert.deepEqual(await ownerView(), ownerBefore, "the owner's data changed");
    assert.deepEqual(await referenceSnapshot(v1Client(system.gatewayUrl, keys.owner!)), referenceBefore, 'the reference data changed');
    assert.deepEqual(Object.getOwnPropertyNames(Object.prototype).sort(), prototypeBefore, 'Object.prototype gained properties');
    const probe = {} as Record<string, unknown>;
    for (const key of ['polluted', 'role', 'isAdmin', 'accountId']) assert.equal(probe[key], undefined, `Object.prototype.${key} is set`);
    assert.equal((await fetch(`${system.gatewayUrl}/healthz`)).status, 200);
    assert.equal((await fetch(`${system.gatewayUrl}/readyz`)).status, 200);
    const summary = [...tally.entries()].sort(([a], [b]) => a.localeCompare(b)).map(([k, n]) => `  ${k.padEnd(24)} ${n}`);
    console.log(`fuzz (seed ${SEED}): requests by face, expectation and status\n${summary.join('\n')}`);
  });

  it('the operator: hostile but well-typed reference-data changes are 2xx or 4xx', async () => {
    const reference = operationEntries.filter((e) => /Category|SubCategory|Indicator|Unit|Goal|Currenc|FXrate|Translation/.test(e.operation) && !READ.test(e.operation));
    const item = fc
      .constantFrom(...reference)
      .chain((entry) => hostileParams(entry).map((params): Item => ({ probe: v1(body(entry, params)), who: 'operator', expect: 'any' })));
    await fc.assert(fc.asyncProperty(fc.array(item, { minLength: 1, maxLength: BATCH }), runV1), settings(40));
    assert.equal((await fetch(`${system.gatewayUrl}/healthz`)).status, 200);
  });

  /**
   * Was a bug (fixed in gateway/src/graphql/format-error.ts): request errors that Apollo or graphql-js raise without an
   * `extensions.code` are taken for faults by the gateway's formatError and answered
   * `{"message":"Internal error.","extensions":{"code":"INTERNAL"}}` (and logged at error level, so any
   * client can fill the error log): automatic persisted queries whose hash does not match the query or
   * whose version is not 1 (HTTP 400), and a `subscription` operation on a schema without one (HTTP 200).
   * Reproductions:
   *   POST /graphql {"query":"{ me { id } }","extensions":{"persistedQuery":{"version":1,"sha256Hash":"abc"}}}
   *   POST /graphql {"query":"subscription { me { id } }"}
   */
  it('GraphQL request errors without a code are client errors, not INTERNAL', async () => {
    const headers = { 'content-type': 'application/json', 'x-api-key': keys.owner! };
    const probes = [
      gqlProbe({ query: '{ me { id } }', extensions: { persistedQuery: { version: 1, sha256Hash: 'abc' } } }, headers),
      gqlProbe({ query: '{ me { id } }', extensions: { persistedQuery: { version: 2, sha256Hash: 'abc' } } }, headers),
      gqlProbe({ query: 'subscription { me { id } }' }, headers),
    ];
    for (const probe of probes) {
      assertGraphqlAnswer(await send(system.gatewayUrl, probe), String(probe.body), describeProbe(probe, 'owner'));
    }
  });

  /**
   * Was a bug (fixed in the gateway's integer parameters and in the shared error mapping): integer ids above 2^31−1 passed the gateway (`int`, min 1, no max)
   * and reach PostgreSQL `serial` (int4) columns: `value "2147483648" is out of range for type integer`
   * → 500 INTERNAL on /v1/call and `INTERNAL` on GraphQL. Reproduction:
   *   POST /v1/call {"solution":"SVC.ESG.Credits","operation":"removePosition",
   *                  "parameters":{"investor_identifier":"x","position_id":2147483648}}   → 500
   * Every id parameter of every operation is tried here; the list of 5xx must be empty.
   */
  it('ids beyond int4 (2^31) are refused with 4xx, not 500', async () => {
    const failures: string[] = [];
    const baseline = (name: string, spec: Field): unknown => {
      const byName: Record<string, string> = {
        framework_identifier: owner.framework,
        project_identifier: owner.project,
        asset_identifier: owner.asset,
        investor_identifier: owner.investor,
        portfolio_identifier: owner.portfolio,
        user_identifier: owner.user,
      };
      if (byName[name]) return byName[name];
      const inner: Record<string, unknown> = { solution: 'SVC.Blockchain.Save', operation: 'save', version: 1, network: 'sepolia' };
      const byType: Record<Field['type'], unknown> = { string: 'x', identifier: 'x', int: 1, wideInt: 1, number: 1, enum: spec.values?.[0], json: inner[name], list: [] };
      return byType[spec.type];
    };
    for (const entry of operationEntries) {
      const specs = paramsOf(entry);
      for (const [name] of specs.filter(([, s]) => s.type === 'int' || s.type === 'wideInt')) {
        const params = Object.fromEntries(specs.filter(([, s]) => s.required).map(([n, s]) => [n, baseline(n, s)]));
        params[name] = INT4_MAX + 1;
        for (const who of ['owner', 'operator'] as const) {
          const answer = await send(system.gatewayUrl, { ...v1(body(entry, params)), headers: { 'content-type': 'application/json', 'x-api-key': keys[who]! } });
          if (answer.status >= 500) failures.push(`${entry.operation}.${name} as ${who} → ${answer.status} ${answer.text}`);
        }
      }
    }
    const gql = await send(system.gatewayUrl, gqlProbe({ query: `mutation { removePosition(investorIdentifier: "${owner.investor}", positionId: "${INT4_MAX + 1}") { message } }` }, { 'content-type': 'application/json', 'x-api-key': keys.owner! }));
    if (/INTERNAL/.test(gql.text)) failures.push(`GraphQL removePosition(positionId: ${INT4_MAX + 1}) → ${gql.text}`);
    assert.deepEqual(failures, [], `${failures.length} id parameters answer 5xx beyond int4:\n${failures.join('\n')}`);
  });
});
