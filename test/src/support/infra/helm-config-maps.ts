/**
 * The ConfigMaps of a template file evaluated without Helm, for the few forms the chart's config.yaml
 * uses, so that their values can be fed to the processes' own config loaders where `helm` is not
 * installed: literal values, `{{ .Values.a.b | int64 | quote }}` (int64 and quote optional),
 * `{{ printf "host:%v" (int64 .Values.a.b) | quote }}`, and keys inside `{{- if [not] .Values.a.b }}` …
 * `{{- end }}`. Any other form is reported as a problem rather than guessed.
 */
type Values = Record<string, unknown>;

function valueAt(values: Values, dotted: string): unknown {
  let cur: unknown = values;
  for (const seg of dotted.split('.').slice(2)) cur = cur !== null && typeof cur === 'object' ? (cur as Values)[seg] : undefined;
  return cur;
}

/** Go template truth: false, 0, "", nil and empty maps or lists are false. */
function truthy(v: unknown): boolean {
  if (Array.isArray(v)) return v.length > 0;
  if (v !== null && typeof v === 'object') return Object.keys(v).length > 0;
  return Boolean(v);
}

/** One action's value, or an error message. A number must go through int64 (Helm would print 1e+06 floats). */
function evaluate(action: string, values: Values): { value: string } | { error: string } {
  const [head = '', ...pipes] = action.split('|').map((s) => s.trim());
  let out: unknown;
  let printf: RegExpExecArray | null;
  if (/^\.Values(\.\w+)+$/.test(head)) out = valueAt(values, head);
  else if ((printf = /^printf "([^"%]*)%v([^"%]*)" \(int64 (\.Values(?:\.\w+)+)\)$/.exec(head))) {
    out = `${printf[1]}${Math.trunc(Number(valueAt(values, printf[3]!)))}${printf[2]}`;
  } else return { error: `cannot evaluate {{ ${action} }}` };
  for (const pipe of pipes) {
    if (pipe === 'int64') out = Math.trunc(Number(out));
    else if (pipe !== 'quote') return { error: `cannot evaluate ${pipe} in {{ ${action} }}` };
  }
  if (out === undefined || out === null) return { error: `{{ ${action} }} names no value` };
  if (typeof out === 'number' && !pipes.includes('int64') && !head.startsWith('printf')) return { error: `{{ ${action} }} prints a number without int64` };
  return { value: String(out) };
}

export function staticConfigMaps(template: string, values: Values): { configMaps: Map<string, Record<string, string>>; problems: string[] } {
  const configMaps = new Map<string, Record<string, string>>();
  const problems: string[] = [];
  for (const doc of template.split(/^---$/m)) {
    if (!/^kind: ConfigMap$/m.test(doc)) continue;
    const name = /^ {2}name: (\S+)$/m.exec(doc)?.[1] ?? '?';
    const data: Record<string, string> = {};
    const open: boolean[] = [];
    let inData = false;
    for (const line of doc.split('\n')) {
      if (/^data:\s*$/.test(line)) inData = true;
      if (!inData || /^\s*(#.*)?$/.test(line)) continue;
      const cond = /^\s*\{\{-?\s*if\s+(not\s+)?(\.Values(?:\.\w+)+)\s*-?\}\}\s*$/.exec(line);
      const entry = /^ {2}(\w+): (.*)$/.exec(line);
      if (cond) open.push(truthy(valueAt(values, cond[2]!)) !== Boolean(cond[1]));
      else if (/^\s*\{\{-?\s*end\s*-?\}\}\s*$/.test(line)) open.pop();
      else if (entry && open.every(Boolean)) {
        const action = /^\{\{-?\s*(.+?)\s*-?\}\}$/.exec(entry[2]!.trim());
        const result = action ? evaluate(action[1]!, values) : entry[2]!.includes('{{') ? { error: `cannot evaluate ${entry[2]}` } : { value: entry[2]!.replace(/^"(.*)"$/, '$1') };
        if ('error' in result) problems.push(`ConfigMap ${name} key ${entry[1]}: ${result.error}`);
        else data[entry[1]!] = result.value;
      } else if (!entry && !/^data:/.test(line)) problems.push(`ConfigMap ${name}: cannot read "${line.trim()}"`);
    }
    configMaps.set(name, data);
  }
  return { configMaps, problems };
}

/** Helm's merge of a values file over the chart's values: maps merge key by key, anything else replaces. */
export function mergeValues(base: Values, override: Values): Values {
  const out: Values = { ...base };
  for (const [k, v] of Object.entries(override)) {
    const b = out[k];
    const isMap = (x: unknown) => x !== null && typeof x === 'object' && !Array.isArray(x);
    out[k] = isMap(v) && isMap(b) ? mergeValues(b as Values, v as Values) : v;
  }
  return out;
}
