import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { dirname, join, normalize } from 'node:path';
import { repoRoot } from './manifests.js';

/** The files infra/docker/assemble.mjs puts in a service's image (its --list), node_modules aside. */
export function imageFileList(service: string): string[] {
  const res = spawnSync(process.execPath, [join(repoRoot, 'infra/docker/assemble.mjs'), '--service', service, '--list'], { encoding: 'utf8' });
  if (res.status !== 0) throw new Error(`assemble.mjs --service ${service} --list failed: ${res.stderr}`);
  return res.stdout.split('\n').filter(Boolean);
}

// import … from 'x', export … from 'x', import 'x' at the start of a statement; import('x') and require('x').
const SPECIFIERS = [
  /^\s*(?:import|export)\b[^'"`;]*?\bfrom\s*['"]([^'"]+)['"]/gm,
  /^\s*import\s*['"]([^'"]+)['"]/gm,
  /\b(?:import|require)\s*\(\s*['"]([^'"]+)['"]\s*\)/g,
];

/** The module specifiers a compiled file imports or re-exports, statically or dynamically. */
export function importSpecifiers(text: string): string[] {
  return SPECIFIERS.flatMap((re) => [...text.matchAll(re)].map((m) => m[1] as string));
}

function packageName(specifier: string): string {
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? `${parts[0]}/${parts[1]}` : (parts[0] as string);
}

/**
 * What the image would miss at run time: a relative import of a file left out, or a package that no
 * workspace in the image lists under dependencies (a devDependency is not installed there; an optional one
 * may be absent, so its importer must handle MODULE_NOT_FOUND). Every file
 * the image holds is checked: no test support ships (image-contents.ts proves it), so none is exempt.
 */
export function missingAtRuntime(files: string[], extraEntries: { file: string; text: string }[] = []): string[] {
  const listed = new Set(files);
  const deps = new Set<string>();
  /** optionalDependencies: left out of the chain's image (hardhat); importable only where the absence is handled. */
  const optional = new Set<string>();
  /** Workspace package name → [its folder, its exports map]: imports of workspaces resolve to listed files. */
  const workspaces = new Map<string, [string, Record<string, string>]>();
  for (const f of files.filter((f) => f.endsWith('package.json'))) {
    const pkg = JSON.parse(readFileSync(join(repoRoot, f), 'utf8')) as { name?: string; dependencies?: Record<string, string>; optionalDependencies?: Record<string, string>; exports?: Record<string, string> };
    for (const d of Object.keys(pkg.dependencies ?? {})) deps.add(d);
    for (const d of Object.keys(pkg.optionalDependencies ?? {})) optional.add(d);
    if (pkg.name && f !== 'package.json') workspaces.set(pkg.name, [dirname(f), pkg.exports ?? {}]);
  }
  const workspaceFile = (spec: string): string | undefined => {
    const name = packageName(spec);
    const ws = workspaces.get(name);
    if (!ws) return undefined;
    const sub = `.${spec.slice(name.length)}`;
    const exact = ws[1][sub];
    const pattern = ws[1]['./*'];
    const target = exact ?? (pattern && sub.startsWith('./') ? pattern.replace('*', sub.slice(2)) : undefined);
    return target ? normalize(join(ws[0], target)) : `${name} has no export ${sub}`;
  };
  const builtins = new Set(builtinModules);
  const sources = [
    ...files.filter((f) => f.endsWith('.js')).map((file) => ({ file, text: readFileSync(join(repoRoot, file), 'utf8') })),
    ...extraEntries,
  ];
  const problems: string[] = [];
  for (const { file, text } of sources) {
    for (const spec of importSpecifiers(text)) {
      if (spec.startsWith('.')) {
        const target = normalize(join(dirname(file), spec));
        if (!listed.has(target)) problems.push(`${file} imports ${spec}, which the image leaves out`);
      } else if (workspaces.has(packageName(spec))) {
        const target = workspaceFile(spec);
        if (!target || !listed.has(target)) problems.push(`${file} imports ${spec} (${target}), which the image leaves out`);
      } else if (optional.has(packageName(spec))) {
        if (!text.includes('MODULE_NOT_FOUND')) problems.push(`${file} imports the optional ${spec} without handling its absence (MODULE_NOT_FOUND)`);
      } else if (!spec.startsWith('node:') && !builtins.has(spec) && !deps.has(packageName(spec))) {
        problems.push(`${file} imports ${spec}, which is not a production dependency of the image's workspaces`);
      }
    }
  }
  return problems;
}
