import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createScratchPostgresDatabase, skipReason, testDatabases } from '@green-impact/testing/shared/databases';
import { startKafkaMock, type KafkaMock } from '@green-impact/testing/shared/kafka-mock';
import {
  startOtlpCollector,
  startTopology,
  topologyEnv,
  topologyPorts,
  type CollectedSpan,
  type OtlpCollector,
  type Topology,
} from './support/distributed.js';
import { subscriptionClient, watchJob } from './support/subscriptions.js';
import { type CallResult, createUserAccount, graphqlClient, ok } from './support/system.js';
import { until } from './support/poll.js';

const postgres = testDatabases.find((d) => d.name === 'postgresql')!;
const ESG = 'SVC.ESG.Credits';
const OPERATOR = 'gi_4LazY4P42vXL9ZIE12NQx9pMO5BV1qTcJ3waCVUcB8o'; // BOOTSTRAP_API_KEY: random (a weak one is refused at start)
const YEAR = 2024;
const SAVE = { solution: 'SVC.Blockchain.Save', operation: 'save', version: 1, network: 'sepolia' };
const idOf = (message: string): number => Number(/(\d+)\.$/.exec(message)?.[1]);
const SPAN = { SERVER: 2, CLIENT: 3, PRODUCER: 4, CONSUMER: 5 };
/** Personal data the flows send; none of it may reach a log line or a span. */
const PII = ['Ann Investor', 'ann.investor@example.org'];

/**
 * The production topology on one machine: identity, taxonomy, portfolio, chain and the gateway, each its
 * own process (scripts/start-distributed.mjs) on a scratch PostgreSQL database, the chain service on
 * Kafka (librdkafka's mock cluster, a real wire-protocol broker) and its embedded EVM networks, traces
 * exported over OTLP/HTTP to a collector in this test. Drives an issuer's flow, an investor's flow and a
 * chain job through /v1/call, then checks the trace of the chain write across processes, each service's
 * /metrics and the logs.
 */
describe('multi-process topology: every service its own process, PostgreSQL, Kafka, OTLP traces', { skip: await skipReason(postgres), timeout: 90_000 }, () => {
  let kafka: KafkaMock;
  let db: { url: string; stop(): Promise<void> };
  let collector: OtlpCollector;
  let contentDir: string;
  let topology: Topology;
  let issuerKey: string;

  const post = async (apiKey: string, body: Record<string, unknown>, headers: Record<string, string> = {}): Promise<CallResult> => {
    const res = await fetch(`${topology.url}/v1/call`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': apiKey, ...headers },
      body: JSON.stringify(body),
    });
    return { status: res.status, body: await res.json() };
  };
  const esg = (apiKey: string) => (operation: string, parameters: Record<string, unknown>, headers: Record<string, string> = {}) =>
    ok(post(apiKey, { solution: ESG, operation, parameters }, headers), operation);

  before(async () => {
    [kafka, db, collector] = await Promise.all([startKafkaMock({ partitions: 3 }), createScratchPostgresDatabase(), startOtlpCollector()]);
    contentDir = mkdtempSync(join(tmpdir(), 'gi-multiprocess-'));
    topology = await startTopology(
      topologyEnv(await topologyPorts(), {
        DATABASE_URL: db.url,
        DATABASE_POOL_SIZE: '4',
        CONTENT_DIR: contentDir,
        BOOTSTRAP_API_KEY: OPERATOR,
        KAFKA_BROKERS: kafka.brokers.join(','),
        // librdkafka's mock: quick rebalances and fetches (see kafka-mock.ts).
        KAFKA_SESSION_TIMEOUT_MS: '6000',
        KAFKA_HEARTBEAT_INTERVAL_MS: '500',
        KAFKA_MAX_WAIT_MS: '100',
        OTEL_EXPORTER_OTLP_ENDPOINT: collector.endpoint,
        OTEL_BSP_SCHEDULE_DELAY: '200',
        LOG_LEVEL: 'info',
        NODE_ENV: 'test',
      }),
    );
    issuerKey = await createUserAccount(topology.url, OPERATOR, 'Multiprocess Issuer');
  });

  after(async () => {
    const code = await topology?.stop();
    await Promise.all([kafka?.stop(), db?.stop(), collector?.close()]);
    if (contentDir) rmSync(contentDir, { recursive: true, force: true });
    assert.equal(code, 0, `the topology stopped uncleanly:\n${topology?.output().slice(-4000)}`);
  });

  it('an issuer, an investor and a chain job through /v1/call, one trace from the gateway to the chain worker', async () => {
    const op = esg(OPERATOR);
    const issuer = esg(issuerKey);

    // The operator's taxonomy (taxonomy process).
    const id = async (operation: string, params: Record<string, unknown>) =>
      idOf((await op(operation, { reporting_year: YEAR, language_code: 'en', ...params })).message);
    const category = await id('addCategory', { category_name: 'Renewable energy' });
    const solar = await id('addSubCategory', { sub_category_name: 'Solar power', category_id: category });
    const tco2e = await id('addUnit', { unit_name: 'tCO2e' });
    const climate = await id('addSuperIndicator', { super_indicator_name: 'Climate', category_id: category });
    const ghg = await id('addIndicator', { indicator_name: 'GHG avoided', super_indicator_id: climate, unit_id: tco2e });

    // The issuer's framework: V = 2 000 000, L = 2 500 000, flag no → D = 2 500 000.
    await issuer('addFramework', { framework_identifier: 'GBF-MP', framework_name: 'Green Bond Framework', framework_currency_code: 'EUR', framework_visibility: 'public' });
    await issuer('addYearSpecificsToFramework', { framework_identifier: 'GBF-MP', value_outstanding: 2_000_000, allocated_amount: 2_500_000, value_outstanding_framework: 'no', reporting_year: YEAR });
    await issuer('addCategoryIndicatorToFramework', { framework_identifier: 'GBF-MP', sub_category_id: solar, sub_category_volume: 1_000_000, indicator_id: ghg, indicator_value: 12_500, reporting_year: YEAR });
    await issuer('addAsset', { asset_identifier: 'SE-MP-1', asset_name: 'Green bond 2029', issuer_identifier: 'NORDIC', framework_identifier: 'GBF-MP', asset_currency_code: 'EUR', asset_value_outstanding: 2_000_000, asset_visibility: 'public' });

    // The investor (portfolio process, which asks the taxonomy process): a full-year position with impacts.
    await issuer('addInvestor', { investor_identifier: 'inv_mp', investor_name: PII[0], investor_currency_code: 'EUR', investor_email: PII[1] });
    const position = idOf((await issuer('addPosition', { investor_identifier: 'inv_mp', asset_identifier: 'SE-MP-1', position_amount: 100_000, position_currency_code: 'EUR', reporting_year: YEAR })).message);
    const impacts = await issuer('getPositionImpacts', { investor_identifier: 'inv_mp', position_id: position, reporting_year: YEAR });
    const impact = impacts.find((r: any) => r.indicator_id === ghg);
    assert.ok(impact, JSON.stringify(impacts));
    assert.equal(impact.attribution_denominator, 2_500_000);
    // P_f / D = 100 000 / 2 500 000; τ = 365 days (position_days' default) of the leap year 2024.
    assert.ok(Math.abs(impact.tau - 365 / 366) < 1e-9, `tau ${impact.tau}`);
    assert.ok(Math.abs(impact.value - (365 / 366) * 0.04 * 12_500) < 1e-6, `impact ${impact.value}`);

    // The chain job (gateway → taxonomy renders → chain → outbox → Kafka → worker → EVM), with a
    // client-chosen trace id and request id to find it by.
    const traceId = randomBytes(16).toString('hex');
    const requestId = `mp-write-${randomBytes(4).toString('hex')}`;
    const written = await issuer(
      'writeJsonFrameworkToBlockchain',
      { framework_identifier: 'GBF-MP', reporting_year: YEAR, ...SAVE },
      { traceparent: `00-${traceId}-${randomBytes(8).toString('hex')}-01`, 'x-request-id': requestId },
    );
    const done = await until(
      () => issuer('getJobStatusFromBlockchain', { job_id: written.job_id }),
      (s) => ['completed', 'failed'].includes(s.info.status.Value),
      `job ${written.job_id}`,
    );
    assert.equal(done.info.status.Value, 'completed', JSON.stringify(done));
    const doc = await issuer('getJsonFrameworkFromBlockchain', { job_id: written.job_id });
    assert.equal(JSON.stringify(doc).includes('GBF-MP'), true);

    // One trace, every span from OpenTelemetry's instrumentations (started with --import, register.ts)
    // but the JSON-RPC one: the gateway's HTTP span → its gRPC call → the chain service's handler → its
    // PostgreSQL statements → the relay's send to chain.jobs over Kafka → the worker's processing of that
    // job, and the job's eth_sendRawTransaction to the chain node. Each process exports its spans in its own
    // batches, whenever it will: the test waits for every span it asserts on, not for the last one to happen.
    const isPostgres = (s: CollectedSpan) => s.attributes['db.system'] === 'postgresql' || s.attributes['db.system.name'] === 'postgresql';
    const statement = (s: CollectedSpan) => String(s.attributes['db.statement'] ?? s.attributes['db.query.text'] ?? '');
    const expected = {
      'the gateway HTTP span': (s: CollectedSpan) => s.service === 'gateway' && s.kind === SPAN.SERVER,
      'gateway → chain call': (s: CollectedSpan) => s.service === 'gateway' && s.kind === SPAN.CLIENT && s.name.endsWith('/SubmitDocument'),
      'chain handler': (s: CollectedSpan) => s.service === 'chain' && s.kind === SPAN.SERVER && s.name.endsWith('/SubmitDocument'),
      'the job INSERT': (s: CollectedSpan) => s.service === 'chain' && s.kind === SPAN.CLIENT && isPostgres(s) && /^INSERT INTO chain\.jobs/.test(statement(s)),
      'send to chain.jobs': (s: CollectedSpan) => s.service === 'chain' && s.kind === SPAN.PRODUCER && s.name === 'send chain.jobs',
      worker: (s: CollectedSpan) => s.service === 'chain' && s.kind === SPAN.CONSUMER && s.name === 'process chain.jobs',
      'the broadcast': (s: CollectedSpan) => s.service === 'chain' && s.kind === SPAN.CLIENT && s.name === 'eth_sendRawTransaction',
      'taxonomy rendering': (s: CollectedSpan) => s.service === 'taxonomy' && s.kind === SPAN.SERVER,
    };
    const spans = await until(
      async () => collector.spans.filter((s) => s.traceId === traceId),
      (list) => Object.values(expected).every((span) => list.some(span)),
      `every span of the write (${Object.keys(expected).join(', ')})`,
      15_000,
    );
    const shown = () => JSON.stringify(spans.map((s) => [s.service, s.kind, s.name]));
    const one = (what: keyof typeof expected): CollectedSpan => {
      const found = spans.find(expected[what]);
      assert.ok(found, `${what} in ${shown()}`);
      return found;
    };
    // One HTTP server span per request: nothing else patches the HTTP server beside the instrumentation.
    const httpSpans = spans.filter(expected['the gateway HTTP span']);
    assert.equal(httpSpans.length, 1, shown());
    const httpSpan = httpSpans[0]!;
    assert.equal(httpSpan.attributes['http.route'], '/v1/call');
    assert.equal(httpSpan.attributes['app.request_id'], requestId);
    assert.equal(httpSpan.attributes['app.operation'], `${ESG}/writeJsonFrameworkToBlockchain`);
    const client = one('gateway → chain call');
    const server = one('chain handler');
    const insert = one('the job INSERT');
    const publish = one('send to chain.jobs');
    const worker = one('worker');
    const rpc = one('the broadcast');
    const descends = (span: CollectedSpan, ancestor: CollectedSpan): boolean => {
      for (let s: CollectedSpan | undefined = span; s; s = spans.find((p) => p.spanId === s!.parentSpanId)) if (s === ancestor) return true;
      return false;
    };
    // Express's middleware spans may stand between the HTTP span and the gRPC call.
    assert.ok(descends(client, httpSpan), shown());
    assert.equal(server.parentSpanId, client.spanId);
    assert.equal(publish.parentSpanId, server.spanId);
    assert.equal(worker.parentSpanId, publish.spanId);
    assert.ok(descends(insert, server), 'the INSERT runs in the handler');
    // The pump broadcasts the job in the trace of the call that created it (or of its message).
    assert.ok(descends(rpc, server), 'the broadcast belongs to the write');
    // The statement is there; what the caller sent is not (parameters are never recorded).
    assert.ok(!JSON.stringify(insert.attributes).includes('GBF-MP'), JSON.stringify(insert.attributes));
    assert.equal(publish.attributes['messaging.system'], 'kafka');
    assert.equal(worker.attributes['messaging.consumer.group.name'], 'chain-worker');
    assert.equal(worker.attributes['app.job_id'], written.job_id);
    assert.equal(rpc.attributes['rpc.system'], 'jsonrpc');
    assert.equal(rpc.attributes['rpc.service'], 'sepolia');
    // Nothing personal in any exported span.
    for (const p of PII) assert.ok(!JSON.stringify(collector.spans).includes(p), `"${p}" in a span`);
  });

  it('a GraphQL subscription follows a chain job to COMPLETED across processes (job events over Kafka)', async () => {
    const written = await graphqlClient(topology.url, issuerKey)('mutation { insertString(input: { network: "sepolia", key: "mp-watched", value: "seen" }) { job { id status } } }');
    assert.equal(written.errors, undefined, JSON.stringify(written.errors));
    const ws = subscriptionClient(topology.url, issuerKey);
    try {
      const seen = await watchJob(ws, written.data.insertString.job.id, 30_000);
      assert.equal(seen.at(-1)?.status, 'COMPLETED', JSON.stringify(seen));
      assert.match(seen.at(-1)?.txHash ?? '', /^0x[0-9a-f]{64}$/);
      // The GraphQL instrumentation's execute span names the operation, a span of it names the field; the
      // document's literals are in none. The gateway exports them in batches of its own: the test waits for
      // both spans it asserts on (the field's may come in a later batch than the operation's).
      const gatewaySpans = await until(
        async () => collector.spans.filter((s) => s.service === 'gateway'),
        (list) => list.some((s) => s.attributes['graphql.operation.type'] === 'mutation') && JSON.stringify(list).includes('insertString'),
        "the mutation's GraphQL span and a span naming its field (insertString)",
        10_000,
      );
      assert.ok(!JSON.stringify(gatewaySpans).includes('mp-watched'), 'a literal of the document in a span');
    } finally {
      await ws.dispose();
    }
  });

  it("serves each service's Prometheus metrics on its own port, the chain backlog included", async () => {
    const scrape = async (port: number) => {
      const res = await fetch(`http://127.0.0.1:${port}/metrics`);
      assert.equal(res.status, 200);
      assert.match(res.headers.get('content-type') ?? '', /^text\/plain/);
      return res.text();
    };
    for (const [name, port] of Object.entries(topology.ports.metrics)) {
      const text = await scrape(port);
      assert.match(text, /^process_cpu_seconds_total /m, name);
      assert.match(text, new RegExp(`^grpc_server_handled_total\\{service="greenimpact\\.${name}\\.v1\\.\\w+",method="\\w+",code="OK"\\} \\d+`, 'm'), name);
      assert.match(text, /^grpc_server_handling_seconds_bucket\{/m, name);
    }
    const chain = await scrape(topology.ports.metrics.chain);
    assert.match(chain, /^chain_job_queue_depth\{status="queued"\} 0$/m);
    assert.match(chain, /^chain_job_queue_depth\{status="submitted"\} \d+$/m);
    assert.match(chain, /^chain_job_oldest_age_seconds\{status="queued"\} 0$/m);
    assert.match(chain, /^chain_outbox_messages \d+$/m);
    assert.match(chain, /^chain_outbox_lag_seconds [\d.e-]+$/m);
    assert.equal((await fetch(`http://127.0.0.1:${topology.ports.metrics.chain}/other`)).status, 404);
    const gateway = await (await fetch(`${topology.url}/metrics`)).text();
    assert.match(gateway, /^http_requests_total\{route="\/v1\/call",method="POST",status="200"\} \d+/m);
  });

  it('logs JSON lines with request ids, trace ids and no personal data', () => {
    const lines = topology
      .output()
      .split('\n')
      .map((l) => /^\[(\w+)\] (\{.*\})$/.exec(l))
      .filter((m): m is RegExpExecArray => m !== null)
      .map((m) => ({ process: m[1]!, entry: JSON.parse(m[2]!) as Record<string, unknown> }));
    assert.ok(lines.length > 20, 'the processes log JSON');
    const access = lines.filter((l) => l.process === 'gateway' && l.entry['msg'] === 'request' && l.entry['route'] === '/v1/call');
    assert.ok(access.length > 10);
    assert.ok(access.every((l) => typeof l.entry['requestId'] === 'string'));
    assert.ok(access.some((l) => typeof l.entry['traceId'] === 'string'), 'access lines name their trace');
    const all = topology.output();
    for (const p of PII) assert.ok(!all.includes(p), `"${p}" in the logs`);
    assert.ok(!all.includes(OPERATOR) && !all.includes(issuerKey), 'an API key in the logs');
  });
});
