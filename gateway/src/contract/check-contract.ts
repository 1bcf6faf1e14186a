import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { printSchema } from 'graphql';
import { schema } from '../graphql/executable-schema.js';
import { openApiDocument } from '../v1/openapi.js';
import { operationTable } from '../v1/operation-table.js';
import { graphqlBreakingChanges, openApiBreakingChanges, releases, releasesDir, SEMVER, unrecorded } from './contract-changes.js';

/**
 * The contract's evolution check, run by the root build (so by `npm test` and CI):
 *
 *   node gateway/dist/contract/check-contract.js            fails (exit 1) on a breaking change against the
 *                                                           newest release that docs/api-changelog.md does not
 *                                                           record as intended, printing the list
 *   node gateway/dist/contract/check-contract.js --release X.Y.Z
 *                                                           keeps the current GraphQL schema and OpenAPI
 *                                                           document as release X.Y.Z, and opens the
 *                                                           changelog's section of that release
 *
 * Releases live in docs/contract/releases/<version>/ (schema.graphql, openapi.json).
 */
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const changelogPath = path.join(root, 'docs/api-changelog.md');

function release(version: string): void {
  if (!SEMVER.test(version)) throw new Error(`A release is named MAJOR.MINOR.PATCH, not ${version}.`);
  if (releases().includes(version)) throw new Error(`Release ${version} exists already: released contracts do not change.`);
  const dir = path.join(releasesDir, version);
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, 'schema.graphql'), `${printSchema(schema)}\n`);
  writeFileSync(path.join(dir, 'openapi.json'), `${JSON.stringify(openApiDocument(operationTable, version), null, 2)}\n`);
  const changelog = readFileSync(changelogPath, 'utf8');
  const date = new Date().toISOString().slice(0, 10);
  writeFileSync(changelogPath, changelog.replace(/^## Unreleased\s*$/m, `## Unreleased\n\n## ${version} (${date})\n`));
  process.stdout.write(`released the contract as ${version}: ${path.relative(root, dir)}\n`);
}

function check(): number {
  const newest = releases().at(-1);
  if (!newest) {
    process.stderr.write('No released contract in docs/contract/releases: release one with --release 1.0.0.\n');
    return 1;
  }
  const dir = path.join(releasesDir, newest);
  const changes = [
    ...graphqlBreakingChanges(readFileSync(path.join(dir, 'schema.graphql'), 'utf8'), schema),
    ...openApiBreakingChanges(JSON.parse(readFileSync(path.join(dir, 'openapi.json'), 'utf8')) as Record<string, unknown>, openApiDocument(operationTable)),
  ];
  const open = unrecorded(changes, readFileSync(changelogPath, 'utf8'));
  if (open.length === 0) {
    if (changes.length > 0) process.stdout.write(`contract: ${changes.length} breaking change(s) against ${newest}, each recorded as intended in docs/api-changelog.md\n`);
    return 0;
  }
  process.stderr.write(
    `The contract breaks clients of release ${newest} (docs/contract/releases/${newest}):\n` +
      open.map((c) => `  - \`${c.text}\`\n`).join('') +
      'Deprecate instead of removing (@deprecated(reason: …)), or, if the break is intended, record each line above\n' +
      'under "## Unreleased" in docs/api-changelog.md with the reason, and release the next major version.\n',
  );
  return 1;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  const at = process.argv.indexOf('--release');
  if (at > 0) release(process.argv[at + 1] ?? '');
  else process.exitCode = check();
}
