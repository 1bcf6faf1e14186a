/**
 * What can be checked of a Helm chart without Helm: the template actions are balanced, every value a
 * template reads exists in values.yaml, every named template it includes is defined, and every number it
 * prints is converted to an integer first (Helm reads values as float64: 1048576 would print 1.048576e+06).
 * It does NOT execute the templates: YAML shape, indentation and function arguments are only checked where
 * `helm` itself runs.
 */
type Values = Record<string, unknown>;

const ACTION = /\{\{-?([\s\S]*?)-?\}\}/g;
const OPENERS = new Set(['if', 'range', 'with', 'define', 'block']);

export interface TemplateFile {
  name: string;
  text: string;
}

function actions(text: string): string[] {
  return [...text.matchAll(ACTION)].map((m) => (m[1] as string).trim()).filter((a) => !a.startsWith('/*'));
}

/** The value at a dotted path, or a marker when some segment is missing. */
function lookup(values: unknown, path: string[]): { found: boolean; value?: unknown } {
  let cur: unknown = values;
  for (const seg of path) {
    if (cur === null || typeof cur !== 'object' || Array.isArray(cur) || !Object.hasOwn(cur, seg)) return { found: false };
    cur = (cur as Values)[seg];
  }
  return { found: true, value: cur };
}

export function helmTemplateProblems(templates: TemplateFile[], values: Values): string[] {
  const problems: string[] = [];
  const defined = new Set(templates.flatMap((t) => [...t.text.matchAll(/\{\{-?\s*define\s+"([^"]+)"/g)].map((m) => m[1] as string)));
  for (const t of templates) {
    const acts = actions(t.text);
    // Balanced blocks.
    let depth = 0;
    for (const a of acts) {
      const word = a.split(/\s+/)[0] ?? '';
      if (OPENERS.has(word)) depth++;
      else if (word === 'end') depth--;
      if (depth < 0) problems.push(`${t.name}: {{ end }} without an opening block`);
    }
    if (depth > 0) problems.push(`${t.name}: ${depth} block(s) never closed with {{ end }}`);
    // Range variables bound to the entries of a map of values: `range $k, $v := .Values.services`.
    const entriesOf = new Map<string, Values[]>();
    for (const m of t.text.matchAll(/range\s+\$\w+\s*,\s*\$(\w+)\s*:=\s*\$?\.Values((?:\.\w+)+)/g)) {
      const { found, value } = lookup(values, (m[2] as string).slice(1).split('.'));
      if (!found || typeof value !== 'object' || value === null) problems.push(`${t.name}: ranges over .Values${m[2]}, which is not a map in values.yaml`);
      else entriesOf.set(m[1] as string, Object.values(value as Values) as Values[]);
    }
    for (const a of acts) {
      let numeric = false;
      for (const m of a.matchAll(/(?:^|[\s(|$])\.Values((?:\.\w+)+)/g)) {
        const path = (m[1] as string).slice(1).split('.');
        const { found, value } = lookup(values, path);
        if (!found) problems.push(`${t.name}: .Values.${path.join('.')} is not in values.yaml`);
        if (typeof value === 'number') numeric = true;
      }
      for (const m of a.matchAll(/\$(\w+)((?:\.\w+)+)/g)) {
        const entries = entriesOf.get(m[1] as string);
        if (!entries) continue;
        const path = (m[2] as string).slice(1).split('.');
        entries.forEach((entry, i) => {
          const { found, value } = lookup(entry, path);
          if (!found) problems.push(`${t.name}: $${m[1]}.${path.join('.')} is missing from entry ${i + 1} of its map in values.yaml`);
          if (typeof value === 'number') numeric = true;
        });
      }
      const word = a.split(/\s+/)[0] ?? '';
      if (numeric && !OPENERS.has(word) && !/\bint(64)?\b/.test(a)) problems.push(`${t.name}: {{ ${a} }} prints a number without int64 (Helm would print floats)`);
      for (const m of a.matchAll(/\b(?:include|template)\s+"([^"]+)"/g)) {
        if (!defined.has(m[1] as string)) problems.push(`${t.name}: includes "${m[1]}", which no template defines`);
      }
    }
  }
  return problems;
}

/** Paths of an override values file that values.yaml does not have (a typo there is silently ignored). */
export function unknownOverrides(overrides: Values, values: Values, freeForm: string[], prefix = ''): string[] {
  const out: string[] = [];
  for (const [k, v] of Object.entries(overrides)) {
    const path = prefix ? `${prefix}.${k}` : k;
    if (!Object.hasOwn(values, k)) {
      out.push(path);
      continue;
    }
    const base = values[k];
    if (freeForm.includes(path)) continue;
    if (v && typeof v === 'object' && !Array.isArray(v) && base && typeof base === 'object' && !Array.isArray(base)) {
      out.push(...unknownOverrides(v as Values, base as Values, freeForm, path));
    }
  }
  return out;
}

/** The `if`/`with`/`range` actions still open at a position of a template, outermost first. */
export function enclosingBlocks(text: string, index: number): string[] {
  const open: string[] = [];
  for (const m of text.slice(0, index).matchAll(ACTION)) {
    const a = (m[1] as string).trim();
    const word = a.split(/\s+/)[0] ?? '';
    if (OPENERS.has(word)) open.push(a);
    else if (word === 'end') open.pop();
  }
  return open;
}
