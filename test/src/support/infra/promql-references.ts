import { TARGET_LABELS } from './registered-metrics.js';

/** Series Prometheus makes itself for each target, with their labels. */
const PROMETHEUS_SERIES: Record<string, string[]> = { up: [] };

/** What may stand in PromQL besides metric selectors: functions, aggregations, keywords, duration units. */
const PROMQL_WORDS = new Set([
  'sum', 'min', 'max', 'avg', 'count', 'stddev', 'topk', 'bottomk', 'quantile', 'count_values', 'group',
  'rate', 'irate', 'increase', 'delta', 'idelta', 'deriv', 'histogram_quantile', 'abs', 'ceil', 'floor', 'round',
  'clamp_min', 'clamp_max', 'clamp', 'label_replace', 'label_join', 'vector', 'scalar', 'time', 'absent',
  'max_over_time', 'min_over_time', 'avg_over_time', 'sum_over_time', 'count_over_time', 'last_over_time',
  'by', 'without', 'on', 'ignoring', 'group_left', 'group_right', 'and', 'or', 'unless', 'bool', 'offset',
]);

/**
 * Problems of a PromQL expression against the metrics the code registers (registered-metrics.ts): every
 * metric is written as a selector `name{...}` and must be registered; every label in a matcher, `by`,
 * `without`, `on` or `ignoring` must be one its metrics carry (or one Prometheus adds); nothing else may be
 * a bare name (a metric written without braces would escape the check). Grafana's `$variables` are
 * placeholders and ignored. Not a parser: promtool checks the syntax.
 */
export function promqlProblems(expr: string, metrics: ReadonlyMap<string, readonly string[]>): string[] {
  const problems: string[] = [];
  const known = (name: string) => metrics.get(name) ?? PROMETHEUS_SERIES[name];
  const labels = new Set(TARGET_LABELS);
  let rest = expr.replace(/\$\{?\w+\}?/g, ' ');
  rest = rest.replace(/([A-Za-z_:][\w:]*)\s*\{([^}]*)\}/g, (_all, name: string, matchers: string) => {
    const own = known(name);
    if (!own) problems.push(`metric ${name} is registered by no code`);
    for (const l of own ?? []) labels.add(l);
    for (const [, label] of matchers.matchAll(/([A-Za-z_]\w*)\s*(?:=~|!~|!=|=)\s*"/g)) {
      if (!TARGET_LABELS.includes(label!) && !(own ?? []).includes(label!)) problems.push(`${name} has no label ${label}`);
    }
    return ' ';
  });
  rest = rest.replace(/"(?:[^"\\]|\\.)*"/g, ' ').replace(/\[[^\]]*\]/g, ' ');
  rest = rest.replace(/\b(by|without|on|ignoring|group_left|group_right)\s*\(([^)]*)\)/g, (_all, _kw: string, list: string) => {
    for (const label of list.split(',').map((l) => l.trim()).filter(Boolean)) {
      if (!labels.has(label) && label !== 'le') problems.push(`grouping by ${label}, which none of its metrics carries`);
    }
    return ' ';
  });
  for (const [word] of rest.matchAll(/[A-Za-z_:][\w:]*/g)) {
    if (!PROMQL_WORDS.has(word) && !/^\d/.test(word)) problems.push(`bare name ${word}: write metrics as selectors name{...}`);
  }
  return problems;
}
