import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { stringify } from 'yaml';
import { repoRoot, skipWithoutKubectl } from './support/infra/manifests.js';
import { renderWithComponents } from './support/infra/components.js';
import { runPromtool, skipWithoutPromtool } from './support/infra/promtool.js';
import { promqlProblems } from './support/infra/promql-references.js';
import { registeredMetrics } from './support/infra/registered-metrics.js';

const DASHBOARD = 'infra/k8s/components/monitoring/grafana/green-impact.json';
const text = readFileSync(join(repoRoot, DASHBOARD), 'utf8');

interface Panel {
  id: number;
  title: string;
  type: string;
  datasource?: { uid?: string };
  gridPos?: { h: number; w: number; x: number; y: number };
  targets?: { refId: string; expr: string }[];
}
const dashboard = JSON.parse(text) as { uid: string; title: string; panels: Panel[]; templating: { list: { name: string }[] } };
const exprs = dashboard.panels.flatMap((p) => (p.targets ?? []).map((t) => ({ panel: p.title, expr: t.expr })));

/** Grafana's variables, as Grafana would fill them in, so that promtool can parse the queries. */
const asPromql = (expr: string) => expr.replaceAll('$__rate_interval', '5m').replaceAll('$__interval', '1m').replaceAll('$namespace', 'green-impact');

describe(`Grafana dashboard (${DASHBOARD})`, () => {
  it('is a dashboard whose panels each have a unique id, a place, the data source variable and queries', () => {
    assert.equal(dashboard.uid, 'green-impact');
    const variables = dashboard.templating.list.map((v) => v.name);
    assert.ok(variables.includes('datasource') && variables.includes('namespace'), variables.join());
    const ids = dashboard.panels.map((p) => p.id);
    assert.equal(new Set(ids).size, ids.length, 'panel ids are unique');
    for (const p of dashboard.panels) {
      assert.ok(p.gridPos, `${p.title}: no gridPos`);
      assert.equal(p.datasource?.uid, '${datasource}', p.title);
      assert.ok(p.targets?.length, `${p.title}: no queries`);
      const refIds = p.targets!.map((t) => t.refId);
      assert.equal(new Set(refIds).size, refIds.length, `${p.title}: refIds are unique`);
      for (const t of p.targets!) assert.match(t.expr, /namespace="\$namespace"/, `${p.title}: every query follows the namespace variable`);
    }
  });

  it('the reference check itself catches an unknown metric, an unknown label, a bare name and an unknown grouping', () => {
    const metrics = registeredMetrics();
    assert.equal(promqlProblems('sum(rate(gateway_graphql_operations_total{service="gateway"}[5m]))', metrics).length, 0);
    assert.deepEqual(promqlProblems('rate(gateway_graphql_errors_total{service="gateway"}[5m])', metrics), ['metric gateway_graphql_errors_total is registered by no code']);
    assert.deepEqual(promqlProblems('rate(gateway_graphql_operations_total{status="500"}[5m])', metrics), ['gateway_graphql_operations_total has no label status']);
    assert.deepEqual(promqlProblems('rate(gateway_graphql_operations_total[5m])', metrics), ['bare name gateway_graphql_operations_total: write metrics as selectors name{...}']);
    assert.deepEqual(promqlProblems('sum by (route) (rate(gateway_graphql_operations_total{outcome="refused"}[5m]))', metrics), ['grouping by route, which none of its metrics carries']);
  });

  it('every query names only metrics and labels the code registers', () => {
    const metrics = registeredMetrics();
    for (const { panel, expr } of exprs) assert.deepEqual(promqlProblems(expr, metrics), [], `${panel}: ${expr}`);
  });

  it('shows what operators are asked about: requests, GraphQL outcomes and resolver latency, /v1/call, 429s, chain jobs', () => {
    const all = exprs.map((e) => e.expr).join('\n');
    for (const metric of [
      'http_requests_total{',
      'gateway_graphql_operations_total{',
      'outcome="server_error"',
      'gateway_graphql_resolver_duration_seconds_bucket{',
      'gateway_v1_operations_total{',
      'gateway_rate_limited_requests_total{',
      'chain_job_queue_depth{',
    ]) {
      assert.ok(all.includes(metric), `no panel queries ${metric}`);
    }
  });

  describe('queries parse as PromQL (promtool check rules, each query as a recording rule)', { skip: skipWithoutPromtool }, () => {
    it('promtool accepts every query', () => {
      const dir = mkdtempSync(join(tmpdir(), 'dashboard-promql-'));
      after(() => rmSync(dir, { recursive: true, force: true }));
      const rules = exprs.map((e, i) => ({ record: `dashboard:query_${i}`, expr: asPromql(e.expr) }));
      writeFileSync(join(dir, 'queries.yaml'), stringify({ groups: [{ name: 'dashboard', rules }] }));
      const checked = runPromtool(['check', 'rules', 'queries.yaml'], dir);
      assert.equal(checked.status, 0, checked.output);
    });
  });

  it('ships as a ConfigMap Grafana\'s sidecar loads (label grafana_dashboard), holding this file', { skip: skipWithoutKubectl }, () => {
    const map = renderWithComponents().find((o) => o.kind === 'ConfigMap' && o.metadata.name === 'green-impact-grafana-dashboard');
    assert.ok(map, 'no dashboard ConfigMap rendered');
    assert.equal(map.metadata['labels']?.['grafana_dashboard'], '1');
    assert.equal(map['data']['green-impact.json'], text);
  });
});
