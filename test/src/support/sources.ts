import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

/** Every .ts file under `dir` that ships: not tests, nor test support (a testing/ folder: the test support workspace). */
export function productionSources(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) {
      if (name !== 'testing' && name !== 'node_modules') productionSources(path, out);
    } else if (name.endsWith('.ts') && !name.endsWith('.test.ts') && !name.endsWith('.d.ts')) {
      out.push(path);
    }
  }
  return out;
}
