import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { generateCallerKeyPair, publicKeyText } from '@green-impact/shared/callers/caller-keys';

const root = fileURLToPath(new URL('../../', import.meta.url));
const run = promisify(execFile);

/** Exit code and stderr of a standalone process started with only `env` (plus PATH). */
async function start(entry: string, env: Record<string, string>): Promise<{ code: number | undefined; stderr: string }> {
  try {
    await run(process.execPath, [join(root, entry)], { env: { PATH: process.env['PATH'] ?? '', LOG_LEVEL: 'silent', ...env }, timeout: 30_000 });
    return { code: 0, stderr: '' };
  } catch (err) {
    const e = err as { code?: number; stderr?: string };
    return { code: e.code, stderr: e.stderr ?? '' };
  }
}

/**
 * A standalone process never runs without its caller keys: a service that trusted no gateway key would
 * refuse every call, a gateway without its key would be refused by every service. Both stop before they
 * connect to anything (EX_CONFIG, 78), naming the variable.
 */
describe('standalone processes refuse to start without their caller keys', () => {
  it('a service without CALLER_TRUSTED_KEYS naming the gateway', async () => {
    const { code, stderr } = await start('services/identity/dist/index.js', { DATABASE_URL: 'postgres://nobody@127.0.0.1:1/none', GRPC_PORT: '0', NODE_ENV: 'production' });
    assert.equal(code, 78, stderr);
    assert.match(stderr, /identity: configuration error: CALLER_TRUSTED_KEYS must name the gateway's public key/);
  });

  it('portfolio without its CALLER_SIGNING_KEY, and a gateway without its own', async () => {
    const trusted = { CALLER_TRUSTED_KEYS: `gateway=${publicKeyText(generateCallerKeyPair().publicKey)}` };
    const portfolio = await start('services/portfolio/dist/index.js', { DATABASE_URL: 'postgres://nobody@127.0.0.1:1/none', TAXONOMY_GRPC_ADDR: '127.0.0.1:1', GRPC_PORT: '0', ...trusted });
    assert.equal(portfolio.code, 78, portfolio.stderr);
    assert.match(portfolio.stderr, /CALLER_SIGNING_KEY is required: portfolio signs/);
    const gateway = await start('gateway/dist/index.js', { IDENTITY_GRPC_ADDR: '127.0.0.1:1', PORT: '0', NODE_ENV: 'test', CALLER_SIGNING_KEY: 'not-a-key' });
    assert.equal(gateway.code, 78, gateway.stderr);
    assert.match(gateway.stderr, /gateway: configuration error: CALLER_SIGNING_KEY must be an Ed25519 key/);
    assert.doesNotMatch(gateway.stderr, /not-a-key/, 'a key value is never echoed');
  });
});
