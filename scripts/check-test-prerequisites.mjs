#!/usr/bin/env node
// What `npm test` (scripts/test.mjs) checks before it builds anything: whether this machine has what the
// suite needs. Run alone, it lists what is missing and exits 1. Plain Node, no dependencies, so it runs on
// an old Node too (and says so).
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { connect } from 'node:net';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

export const SETUP = 'sudo bash scripts/setup-test-machine.sh';
/** package.json's engines.node (>=22.18). */
export const MIN_NODE = [22, 18];

function has(command, args = ['--version']) {
  try {
    execFileSync(command, args, { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

function output(command, args) {
  try {
    return execFileSync(command, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
  } catch {
    return undefined;
  }
}

/** Whether a TCP server answers at url's host and port within 2 s. */
function answers(url, defaultPort) {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const socket = connect({ host: hostname.replace(/^\[|\]$/g, ''), port: Number(port || defaultPort) });
    const done = (ok) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(2000, () => done(false));
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
  });
}

/** Whether `version` (process.versions.node) is at least MIN_NODE. */
export function nodeIsRecentEnough(version) {
  const [major, minor] = version.split('.').map(Number);
  return major > MIN_NODE[0] || (major === MIN_NODE[0] && minor >= MIN_NODE[1]);
}

/** What this machine lacks for the suite, one line each; `node` is the version the suite would run under. */
export async function missingPrerequisites(env = process.env, node = process.versions.node) {
  const missing = [];
  if (!nodeIsRecentEnough(node)) {
    missing.push(`Node.js ${MIN_NODE.join('.')} or later (this is v${node}); the setup installs Node 22 into .ci/node, which npm test then uses by itself`);
  }
  if (!has('cc') || !has('make')) missing.push('a C compiler and make (the Kafka mock cluster is built from C)');
  const includeDir = output('pkg-config', ['--variable=includedir', 'rdkafka']);
  if (!includeDir || !existsSync(join(includeDir, 'librdkafka', 'rdkafka_mock.h'))) {
    missing.push('librdkafka-dev with pkg-config (rdkafka_mock.h: the Kafka mock cluster)');
  }
  const chromium = env['CHROMIUM_PATH'] ?? '/usr/bin/chromium';
  if (!existsSync(chromium)) missing.push(`Chromium at ${chromium} (the browser tests)`);
  if (!has('promtool')) missing.push('promtool (Debian\'s prometheus package: the alert rules\' unit tests)');
  const postgresUrl = env['TEST_DATABASE_URL'] ?? 'postgres://postgres@127.0.0.1:5432/postgres';
  if (!(await answers(postgresUrl, 5432))) missing.push(`a PostgreSQL server at ${new URL(postgresUrl).host} (TEST_DATABASE_URL)`);
  const redisUrl = env['TEST_REDIS_URL'] ?? 'redis://127.0.0.1:6379';
  if (!(await answers(redisUrl, 6379))) missing.push(`a Redis server at ${new URL(redisUrl).host} (TEST_REDIS_URL)`);
  // The network fault tests (test/src/faults-network.test.ts) make namespaces, veth pairs and nftables rules.
  if (process.platform === 'linux' && !has('ip', ['-V'])) missing.push("ip (Debian's iproute2: the network fault tests' namespaces)");
  if (process.platform === 'linux' && !has('nft', ['-v'])) missing.push("nft (Debian's nftables: the network fault tests' partitions)");
  return missing;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const missing = await missingPrerequisites();
  if (missing.length > 0) {
    console.error(`this machine lacks what the tests need:\n${missing.map((m) => `  - ${m}`).join('\n')}`);
    console.error(`Install and start them with one command (Debian, as root):\n  ${SETUP}`);
    process.exit(1);
  }
}
