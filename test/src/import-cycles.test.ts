import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { productionSources } from './support/sources.js';
import { importCycles } from './support/source-graph.js';

const root = fileURLToPath(new URL('../../', import.meta.url));

/**
 * No module of a workspace imports itself through others (type-only imports count: a type shared by two
 * modules belongs in a leaf module both import). A circle makes load order decide whether a value is
 * defined yet, and ties modules that should change apart.
 */
describe('no import circles', () => {
  const workspaces = ['gateway', 'embedded', ...readdirSync(join(root, 'services')).map((s) => `services/${s}`)];
  for (const workspace of workspaces) {
    it(`${workspace}: no import circle among its production modules`, () => {
      const files = productionSources(join(root, workspace, 'src'));
      assert.ok(files.length > 0, `no sources under ${workspace}/src`);
      assert.deepEqual(importCycles(files, root), []);
    });
  }

  it('reports a circle by its path (the check itself)', () => {
    const dir = mkdtempSync(join(tmpdir(), 'import-cycles-'));
    try {
      writeFileSync(join(dir, 'a.ts'), "import type { B } from './b.js';\nexport type A = B;\n");
      writeFileSync(join(dir, 'b.ts'), "export { c } from './c.js';\nexport type B = string;\n");
      writeFileSync(join(dir, 'c.ts'), "export const c = async () => import('./a.js');\n");
      writeFileSync(join(dir, 'd.ts'), "import { c } from './c.js';\nexport const d = c;\n");
      writeFileSync(join(dir, 'e.ts'), "import { e as self } from './e.js';\nexport const e = () => self;\n");
      const files = ['a.ts', 'b.ts', 'c.ts', 'd.ts', 'e.ts'].map((f) => join(dir, f));
      assert.deepEqual(importCycles(files, dir).sort(), ['a.ts → b.ts → c.ts → a.ts', 'e.ts → e.ts']);
      assert.deepEqual(importCycles(files.slice(1), dir), ['e.ts → e.ts'], 'without a.ts nothing leads back');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
