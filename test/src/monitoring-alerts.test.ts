import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { stringify } from 'yaml';
import { repoRoot, skipWithoutKubectl } from './support/infra/manifests.js';
import { renderWithComponents } from './support/infra/components.js';
import { runPromtool, skipWithoutPromtool } from './support/infra/promtool.js';

const TESTS = join(repoRoot, 'infra/prometheus/alerts.test.yaml');
const skip = skipWithoutKubectl || skipWithoutPromtool;

/**
 * The alert rules as Prometheus loads them: the PrometheusRule rendered from the monitoring component, its
 * spec written as a plain rule file beside a copy of infra/prometheus/alerts.test.yaml (promtool resolves
 * rule_files from the test file's folder).
 */
describe('alert rules under promtool (check rules, test rules on infra/prometheus/alerts.test.yaml)', { skip }, () => {
  const dir = mkdtempSync(join(tmpdir(), 'alert-rules-'));
  after(() => rmSync(dir, { recursive: true, force: true }));
  const rule = skip ? undefined : renderWithComponents().find((o) => o.kind === 'PrometheusRule');

  it('the rendered rules are valid Prometheus rules', () => {
    assert.ok(rule, 'no PrometheusRule rendered');
    writeFileSync(join(dir, 'rules.yaml'), stringify(rule['spec']));
    const checked = runPromtool(['check', 'rules', 'rules.yaml'], dir);
    assert.equal(checked.status, 0, checked.output);
  });

  it('the unit tests pass: GraphQL server errors inside 200 answers fire GreenImpactGraphqlErrorRatio, client errors the spike rule, refusals nothing', () => {
    assert.ok(rule, 'no PrometheusRule rendered');
    writeFileSync(join(dir, 'rules.yaml'), stringify(rule['spec']));
    copyFileSync(TESTS, join(dir, 'alerts.test.yaml'));
    const tested = runPromtool(['test', 'rules', 'alerts.test.yaml'], dir);
    assert.equal(tested.status, 0, tested.output);
  });

  it('every alert of the rule is exercised by a unit test', () => {
    assert.ok(rule, 'no PrometheusRule rendered');
    const tests = readFileSync(TESTS, 'utf8');
    const alerts: string[] = rule['spec'].groups.flatMap((g: { rules: { alert?: string }[] }) => g.rules.map((r) => r.alert).filter(Boolean));
    const untested = alerts.filter((a) => !new RegExp(`alertname: ${a}\\b`).test(tests));
    assert.deepEqual(untested, []);
  });
});
