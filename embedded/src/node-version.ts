import { readFileSync } from 'node:fs';

/**
 * The one line `npm start` prints when the Node it runs on is older than package.json's `engines.node`
 * (`>=major.minor`), or undefined. The system still starts: the line says what is supported and how to get it.
 */
export function oldNodeNotice(version: string, engines: string | undefined): string | undefined {
  const wanted = /^>=\s*(\d+)(?:\.(\d+))?/.exec(engines ?? '');
  if (!wanted) return undefined;
  const [major = 0, minor = 0] = version.replace(/^v/, '').split('.').map(Number);
  const [wMajor, wMinor] = [Number(wanted[1]), Number(wanted[2] ?? 0)];
  if (major > wMajor || (major === wMajor && minor >= wMinor)) return undefined;
  return (
    `npm start: this is Node v${version.replace(/^v/, '')}, older than package.json asks (engines.node ${engines}); it may work, but only ` +
    `Node ${wMajor}.${wMinor}+ is supported and tested: npm install --prefix .ci/node node@${wMajor} && export PATH="$PWD/.ci/node/node_modules/.bin:$PATH"`
  );
}

/** engines.node of the repository's package.json (beside embedded/), or undefined outside a checkout. */
export function repositoryEngines(): string | undefined {
  try {
    const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { engines?: { node?: string } };
    return pkg.engines?.node;
  } catch {
    return undefined;
  }
}
