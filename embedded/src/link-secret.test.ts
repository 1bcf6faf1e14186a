import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigError } from '@green-impact/shared/config';
import { documentLinkSecret } from './link-secret.js';

test('npm start keeps one document link secret in the data directory, unless DOCUMENT_LINK_SECRET is set', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'link-secret-'));
  try {
    const dataDir = join(dir, 'data');
    const first = documentLinkSecret(dataDir, undefined);
    assert.equal(first.source, join(dataDir, 'document-link-secret'));
    assert.match(first.secret, /^[A-Za-z0-9_-]{43}$/);
    assert.equal((await stat(first.source)).mode & 0o777, 0o600);
    assert.deepEqual(documentLinkSecret(dataDir, undefined), first, 'the same secret after a restart');
    assert.deepEqual(documentLinkSecret(dataDir, 'x'.repeat(40)), { secret: 'x'.repeat(40), source: 'DOCUMENT_LINK_SECRET' });
    await writeFile(first.source, 'short\n');
    assert.throws(() => documentLinkSecret(dataDir, undefined), (err: unknown) => err instanceof ConfigError && /at least 32 characters/.test(err.message));
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
