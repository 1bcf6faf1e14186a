import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot } from './support/infra/manifests.js';

/**
 * SECURITY.md names the test behind each claim (its table under "How this is tested"): every file it names
 * exists, and every test title it quotes is in one of the files of its row, so a renamed or deleted test
 * cannot leave a claim standing on nothing.
 */
describe('SECURITY.md names tests that exist', () => {
  const text = readFileSync(join(repoRoot, 'SECURITY.md'), 'utf8');
  const rows = text.split('\n').filter((line) => line.startsWith('| ') && /\.test\.ts`/.test(line));

  it('has a row for each claim, each naming at least one test file', () => {
    assert.ok(rows.length >= 15, `only ${rows.length} claim rows with tests`);
  });

  it('every named test file exists and every quoted title is in a file of its row', () => {
    const missing: string[] = [];
    for (const row of rows) {
      const cell = row.split(' | ').at(-1)!;
      const files = [...cell.matchAll(/`([\w./-]+\.test\.ts)`/g)].map(([, name]) => name!);
      const sources = files.map((file) => {
        const path = join(repoRoot, file);
        if (!existsSync(path)) missing.push(`${file} (no such file)`);
        // Titles in single quotes escape their apostrophes.
        return existsSync(path) ? readFileSync(path, 'utf8').replaceAll("\\'", "'") : '';
      });
      for (const [, quoted] of cell.matchAll(/"([^"]+)"/g)) {
        const title = quoted!.replace(/…$/, '');
        if (!sources.some((source) => source.includes(title))) missing.push(`"${title}" in ${files.join(', ')}`);
      }
    }
    assert.deepEqual(missing, []);
  });
});
