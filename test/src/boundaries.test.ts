import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { productionSources } from './support/sources.js';

const root = fileURLToPath(new URL('../../', import.meta.url));
const SERVICES = ['identity', 'taxonomy', 'portfolio', 'chain'];

/** The @green-impact packages a file imports or re-exports (static and dynamic). */
function imports(path: string): string[] {
  const text = readFileSync(path, 'utf8');
  const found = new Set<string>();
  for (const m of text.matchAll(/(?:from\s+|import\s*\(\s*|import\s+)['"](@green-impact\/[a-z-]+)/g)) found.add(m[1]!);
  return [...found];
}

/**
 * Services share only contracts: the proto package and services/shared. A service importing another
 * service's code (its client wrapper, its canonical JSON, its guards) couples their releases and lets two
 * copies drift; the gateway talks to services over gRPC only. The embedded system is the one place that
 * composes them in one process.
 */
describe('service boundaries', () => {
  const offenders = (owner: string, dir: string, allowed: (pkg: string) => boolean) =>
    productionSources(dir).flatMap((file) =>
      imports(file)
        .filter((pkg) => !allowed(pkg))
        .map((pkg) => `${relative(root, file)} imports ${pkg} (${owner} may use only proto, shared${owner === 'gateway' ? '' : ' and itself'})`),
    );

  it('no service imports another service', () => {
    const found = SERVICES.flatMap((s) =>
      offenders(s, join(root, 'services', s, 'src'), (pkg) => ['@green-impact/proto', '@green-impact/shared', `@green-impact/${s}`].includes(pkg)),
    );
    assert.deepEqual(found, []);
  });

  it('the gateway imports no service', () => {
    assert.deepEqual(offenders('gateway', join(root, 'gateway', 'src'), (pkg) => ['@green-impact/proto', '@green-impact/shared', '@green-impact/gateway'].includes(pkg)), []);
  });

  it('no service depends on another at run time (package.json dependencies)', () => {
    for (const s of [...SERVICES.map((x) => `services/${x}`), 'gateway']) {
      const pkg = JSON.parse(readFileSync(join(root, s, 'package.json'), 'utf8')) as { dependencies?: Record<string, string> };
      const services = Object.keys(pkg.dependencies ?? {}).filter((d) => SERVICES.some((x) => d === `@green-impact/${x}`) && !s.endsWith(d.split('/')[1]!));
      assert.deepEqual(services, [], `${s}/package.json: a service needs another only in tests, through the harnesses of testing/`);
    }
  });

  it('finds an import when there is one (the check itself)', () => {
    const sample = join(root, 'testing', 'src', 'portfolio', 'harness.ts');
    assert.ok(imports(sample).includes('@green-impact/taxonomy'), 'the portfolio harness runs the real taxonomy service in process');
  });
});
