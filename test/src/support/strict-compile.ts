import assert from 'node:assert/strict';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import ts from 'typescript';

/**
 * Compiles a generated client's program strictly (strict, exact optional properties, unchecked index
 * access as undefined) into its folder, asserts that it has no diagnostic (so every `@ts-expect-error`
 * in it marks a real type error), and imports what it emitted.
 */
export async function compileStrictly<T>(outDir: string, entry: string): Promise<T> {
  const program = ts.createProgram([path.join(outDir, entry)], {
    strict: true,
    exactOptionalPropertyTypes: true,
    noUncheckedIndexedAccess: true,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    target: ts.ScriptTarget.ES2022,
    skipLibCheck: true,
    outDir,
  });
  const diagnostics = [...ts.getPreEmitDiagnostics(program), ...program.emit().diagnostics];
  const text = ts.formatDiagnostics(diagnostics, { getCanonicalFileName: (f) => f, getCurrentDirectory: () => outDir, getNewLine: () => '\n' });
  assert.equal(diagnostics.length, 0, text);
  return (await import(pathToFileURL(path.join(outDir, entry.replace(/\.ts$/, '.js'))).href)) as T;
}
