import type { K8sObject } from './manifests.js';

/**
 * nginx variables that put a query string (or another page's, through the Referer) into a log line:
 * the request line, the unparsed URI, the query and its arguments. $uri is the path alone.
 */
const LEAKING = ['$request', '$request_uri', '$args', '$query_string', '$is_args', '$http_referer', '$arg_'];

/** What in an ingress-nginx controller ConfigMap's log formats could log a query string. [] when nothing. */
export function accessLogProblems(objects: K8sObject[]): string[] {
  const config = objects.find((o) => o.kind === 'ConfigMap' && o.metadata.name === 'ingress-nginx-controller');
  if (!config) return ['no ingress-nginx-controller ConfigMap'];
  const data = (config['data'] ?? {}) as Record<string, string>;
  const problems: string[] = [];
  if (!data['log-format-upstream']) problems.push('log-format-upstream is not set: nginx\'s default logs "$request", query string included');
  for (const key of ['log-format-upstream', 'log-format-stream']) {
    const format = data[key];
    if (format === undefined) continue;
    // Longest names first, and whole names only: $request_method and $request_length are fine.
    const used: string[] = format.match(/\$[A-Za-z_]+/g) ?? [];
    for (const v of used) if (LEAKING.some((l) => (l.endsWith('_') ? v.startsWith(l) : v === l))) problems.push(`${key} uses ${v}`);
    if (key === 'log-format-upstream' && !used.includes('$uri')) problems.push(`${key} logs no path ($uri)`);
  }
  return problems;
}
