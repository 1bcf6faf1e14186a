import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { kubectl, readYamlFile, repoRoot, skipWithoutKubectl } from './support/infra/manifests.js';
import { renderWithComponents } from './support/infra/components.js';
import { promqlProblems } from './support/infra/promql-references.js';
import { registeredMetrics } from './support/infra/registered-metrics.js';


describe('optional components: ServiceMonitor, PrometheusRule, HTTPRoute (kubectl kustomize)', { skip: skipWithoutKubectl }, () => {
  const objects = kubectl ? renderWithComponents() : [];
  const ofKind = (kind: string) => objects.filter((o) => o.kind === kind);
  const services = ofKind('Service');

  it('each ServiceMonitor selects existing Services by a port they name, and every workload is scraped', () => {
    const scraped = new Set<string>();
    for (const sm of ofKind('ServiceMonitor')) {
      const sel = sm['spec'].selector;
      const selected = services.filter((s) => {
        const labels = s.metadata['labels'] ?? {};
        const byLabels = Object.entries(sel.matchLabels ?? {}).every(([k, v]) => labels[k] === v);
        const byExpr = (sel.matchExpressions ?? []).every((e: { key: string; operator: string; values: string[] }) => e.operator === 'In' && e.values.includes(labels[e.key]));
        return byLabels && byExpr;
      });
      assert.ok(selected.length > 0, `${sm.metadata.name} selects no Service`);
      for (const s of selected) {
        for (const ep of sm['spec'].endpoints) {
          assert.ok(s['spec'].ports.some((p: { name: string }) => p.name === ep.port), `${sm.metadata.name}: Service ${s.metadata.name} has no port ${ep.port}`);
          assert.equal(ep.path, '/metrics');
        }
        scraped.add(s.metadata.name);
      }
    }
    assert.deepEqual([...scraped].sort(), ['chain', 'gateway', 'identity', 'portfolio', 'taxonomy']);
  });

  it('the alert rules use only metrics and labels the code registers', () => {
    const metrics = registeredMetrics();
    const [rule] = ofKind('PrometheusRule');
    assert.ok(rule, 'no PrometheusRule');
    const rules = rule['spec'].groups.flatMap((g: { rules: { alert?: string; record?: string; expr: string; labels?: { severity: string } }[] }) => g.rules);
    assert.ok(rules.length >= 3);
    // Recording rules (the SLOs' ratios) are series too, with the labels they aggregate by.
    for (const r of rules.filter((x: { record?: string }) => x.record)) {
      assert.deepEqual(promqlProblems(r.expr, metrics), [], r.record);
      metrics.set(r.record!, [...r.expr.matchAll(/\bby \(([^)]*)\)/g)].flatMap((m) => m[1]!.split(',').map((l: string) => l.trim())));
    }
    for (const r of rules.filter((x: { alert?: string }) => x.alert)) {
      assert.match(r.labels!.severity, /^(critical|warning)$/, r.alert);
      assert.deepEqual(promqlProblems(r.expr, metrics), [], r.alert);
    }
  });

  it('the HTTPRoute sends exactly the Ingress\'s public paths to the gateway Service port', () => {
    const [route] = ofKind('HTTPRoute');
    assert.ok(route, 'no HTTPRoute');
    const gateway = services.find((s) => s.metadata.name === 'gateway');
    const paths = route['spec'].rules.flatMap((r: { matches: { path: { value: string } }[]; backendRefs: { name: string; port: number }[] }) => {
      for (const b of r.backendRefs) {
        assert.equal(b.name, 'gateway');
        assert.ok(gateway?.['spec'].ports.some((p: { port: number }) => p.port === b.port), `gateway Service has no port ${b.port}`);
      }
      return r.matches.map((m) => m.path.value);
    });
    const ingress = readYamlFile(join(repoRoot, 'infra/k8s/components/ingress/ingress.yaml'));
    const ingressPaths = ingress.flatMap((i) => i['spec'].rules.flatMap((r: { http: { paths: { path: string }[] } }) => r.http.paths.map((p) => p.path)));
    assert.deepEqual([...new Set(paths)].sort(), [...new Set(ingressPaths)].sort());
    assert.ok(!paths.some((p: string) => ['/metrics', '/healthz', '/readyz', '/'].includes(p)), 'internal routes stay private');
  });
});
