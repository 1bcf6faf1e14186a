import { existsSync, readFileSync } from 'node:fs';
import { dirname, extname, join, relative, resolve } from 'node:path';
import ts from 'typescript';

/** A TypeScript or JavaScript source parsed by the compiler (no type checking: one file at a time). */
export function parseSource(path: string): ts.SourceFile {
  const kind = path.endsWith('.mjs') || path.endsWith('.js') ? ts.ScriptKind.JS : ts.ScriptKind.TS;
  return ts.createSourceFile(path, readFileSync(path, 'utf8'), ts.ScriptTarget.Latest, true, kind);
}

function line(file: ts.SourceFile, node: ts.Node): number {
  return file.getLineAndCharacterOfPosition(node.getStart(file)).line + 1;
}

const PROCESS_MODULES = new Set(['process', 'node:process']);

/**
 * Where `file` reads the process's environment: `process.env`, `process['env']`, `globalThis.process.env`,
 * `const { env } = process`, and `env` taken from the node:process module (named, default or namespace
 * import). Answers "line: text" for each.
 */
export function environmentReads(file: ts.SourceFile): string[] {
  const found: string[] = [];
  const report = (node: ts.Node) => found.push(`${line(file, node)}: ${node.getText(file).replace(/\s+/g, ' ')}`);
  // Names bound to the process object: the global, and imports of node:process.
  const processNames = new Set(['process']);
  for (const statement of file.statements) {
    if (!ts.isImportDeclaration(statement) || !ts.isStringLiteral(statement.moduleSpecifier)) continue;
    if (!PROCESS_MODULES.has(statement.moduleSpecifier.text)) continue;
    const clause = statement.importClause;
    if (clause?.name) processNames.add(clause.name.text);
    const bindings = clause?.namedBindings;
    if (bindings && ts.isNamespaceImport(bindings)) processNames.add(bindings.name.text);
    if (bindings && ts.isNamedImports(bindings)) {
      for (const element of bindings.elements) if ((element.propertyName ?? element.name).text === 'env') report(element);
    }
  }
  const isProcess = (node: ts.Expression): boolean =>
    (ts.isIdentifier(node) && processNames.has(node.text)) ||
    (ts.isPropertyAccessExpression(node) && node.name.text === 'process' && ts.isIdentifier(node.expression) && node.expression.text === 'globalThis');
  const visit = (node: ts.Node): void => {
    if (ts.isPropertyAccessExpression(node) && node.name.text === 'env' && isProcess(node.expression)) report(node);
    else if (
      ts.isElementAccessExpression(node) &&
      isProcess(node.expression) &&
      ts.isStringLiteralLike(node.argumentExpression) &&
      node.argumentExpression.text === 'env'
    ) report(node);
    else if (ts.isVariableDeclaration(node) && node.initializer && isProcess(node.initializer) && ts.isObjectBindingPattern(node.name)) {
      for (const element of node.name.elements) {
        const key = element.propertyName ?? element.name;
        if (ts.isIdentifier(key) && key.text === 'env') report(element);
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return found;
}

/**
 * The files `path` imports or re-exports by a relative specifier (static imports, `import type` too,
 * `export … from`, and dynamic `import('./x.js')`), resolved as TypeScript's NodeNext resolution does:
 * `./x.js` is `./x.ts` in the source tree.
 */
export function relativeImports(path: string): string[] {
  const info = ts.preProcessFile(readFileSync(path, 'utf8'), true, true);
  const out = new Set<string>();
  for (const { fileName } of info.importedFiles) {
    if (!fileName.startsWith('.')) continue;
    const target = resolveSource(resolve(dirname(path), fileName));
    if (target !== undefined) out.add(target);
  }
  return [...out];
}

function resolveSource(spec: string): string | undefined {
  const ext = extname(spec);
  const stem = ext === '.js' || ext === '.mjs' ? spec.slice(0, -ext.length) : spec;
  const candidates = ext === '.mjs' ? [spec, `${stem}.mts`] : [`${stem}.ts`, `${stem}.tsx`, spec, join(spec, 'index.ts')];
  return candidates.find((c) => existsSync(c) && c.match(/\.(m?ts|tsx|mjs|js)$/));
}

/**
 * The import cycles among `files` (edges to files outside the set are ignored): one cycle per strongly
 * connected component of more than one file (or a file importing itself), as the path
 * a → b → … → a, relative to `root`.
 */
export function importCycles(files: string[], root: string): string[] {
  const inSet = new Set(files);
  const edges = new Map(files.map((f) => [f, relativeImports(f).filter((t) => inSet.has(t)).sort()]));
  // Tarjan's strongly connected components.
  let counter = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const components: string[][] = [];
  const connect = (v: string): void => {
    index.set(v, counter);
    low.set(v, counter);
    counter++;
    stack.push(v);
    onStack.add(v);
    for (const w of edges.get(v)!) {
      if (!index.has(w)) {
        connect(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) === index.get(v)) {
      const component: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        component.push(w);
      } while (w !== v);
      if (component.length > 1 || edges.get(v)!.includes(v)) components.push(component);
    }
  };
  for (const f of [...files].sort()) if (!index.has(f)) connect(f);
  return components.map((component) => {
    // A shortest way back to the component's first file (breadth-first within the component).
    const members = new Set(component);
    const start = [...component].sort()[0]!;
    const previous = new Map<string, string>();
    const queue = [start];
    let closing: string | undefined;
    while (queue.length > 0 && closing === undefined) {
      const v = queue.shift()!;
      for (const w of edges.get(v)!) {
        if (!members.has(w)) continue;
        if (w === start) {
          closing = v;
          break;
        }
        if (!previous.has(w)) {
          previous.set(w, v);
          queue.push(w);
        }
      }
    }
    const path = [start];
    for (let v = closing!; v !== start; v = previous.get(v)!) path.splice(1, 0, v);
    path.push(start);
    const others = component.length - new Set(path).size;
    return path.map((p) => relative(root, p)).join(' → ') + (others > 0 ? ` (and ${others} more file(s) in the same circle)` : '');
  });
}
