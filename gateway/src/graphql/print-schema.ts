import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { printSchema } from 'graphql';
import { schema } from './executable-schema.js';

/**
 * Writes the running schema's SDL to docs/schema.graphql, or with --check fails (exit 1) when the committed
 * file differs, so a schema change is always reviewed as a diff of the SDL. Run by the root build.
 */
const target = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../docs/schema.graphql');
const header = '# The GraphQL schema served at /graphql. Generated: `npm run schema:write`; the build fails when it drifts.\n\n';
const sdl = header + printSchema(schema) + '\n';

if (process.argv.includes('--check')) {
  let committed = '';
  try {
    committed = readFileSync(target, 'utf8');
  } catch {
    // Missing counts as drift.
  }
  if (committed !== sdl) {
    process.stderr.write(`docs/schema.graphql is out of date with the gateway's schema. Run \`npm run schema:write\` and commit the diff.\n`);
    process.exit(1);
  }
} else {
  writeFileSync(target, sdl);
  process.stdout.write(`wrote ${path.relative(process.cwd(), target)}\n`);
}
