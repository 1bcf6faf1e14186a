// (a) in the production shape: the gateway and each service in a process of its own (scripts/start-distributed.mjs,
// as on Kubernetes), on PostgreSQL. The gateway's hop then costs its own process's CPU rather than a share of
// one event loop, which is what a platform team running separate pods sees. Beside each measurement, the CPU
// time per request of every process (lib/cpu.mjs): the gateway and each service (the starter's children, found
// in /proc by their parent pid and entry file), the PostgreSQL backends of the scratch database, and this
// process, the load client.
//
// (e) then, in the same topology: the read mix of `npm run load` (lib/load-mix.mjs) closed loop to find the
// saturated rate (lib/harness.mjs, which waits for the calls in flight when the time is up, so even a short
// run on a slow machine has a rate), and open loop (lib/open-loop.mjs) at half of it, latency from each
// scheduled send.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { childProcesses, cpuProbe, pidsGroup, postgresBackendsGroup, procAvailable } from './cpu.mjs';
import { httpClient } from './http.mjs';
import { measure } from './harness.mjs';
import { answerError, loadMix, requestLabel } from './load-mix.mjs';
import { countsPerRequest } from './statements.mjs';
import { openLoop } from './open-loop.mjs';
import { measureOverhead, overheadReads } from './overhead.mjs';
import { seedDataset } from './seed.mjs';
import { importDist, POSTGRES_SERVER_URL, scratchPostgres } from './system.mjs';

/** The processes of the topology started by the process `starterPid`: { gateway: pid, identity: pid, … }. */
export function topologyPids(starterPid) {
  const pids = {};
  for (const { pid, cmdline } of childProcesses(starterPid)) {
    const name = /\b(?:services\/(\w+)|(gateway))\/dist\/index\.js\b/.exec(cmdline);
    if (name) pids[name[1] ?? name[2]] = pid;
  }
  return pids;
}

/** The processes of the production shape, in the order the CPU tables list them. */
const TOPOLOGY_PROCESSES = ['gateway', 'identity', 'taxonomy', 'portfolio', 'chain'];

// Five Node processes starting at once on a busy 2-core machine can take well over the tests' 45 s.
const TOPOLOGY_READY_MS = 180_000;

/**
 * The production shape on the PostgreSQL database `databaseUrl` (already migrated or not): the gateway and
 * each service in a process of their own, with `operatorKey` as the bootstrap key and this process's caller
 * key as the gateway's (the bench's own gRPC calls go straight to the services). `nodeOptions`: NODE_OPTIONS
 * of every process (a CPU profile, say). Answers { url, ports, pids: { gateway: pid, … }, notes, stop() }
 * once every backend serves; `notes` say when a process's CPU cannot be measured.
 */
export async function startProductionShape({ databaseUrl, operatorKey, nodeOptions, progress }) {
  const { startTopology, topologyEnv, topologyPorts } = await importDist('test/dist/support/distributed.js');
  const { callerKeysForChildren } = await importDist('testing/dist/shared/caller-keys.js');
  const contentDir = mkdtempSync(join(tmpdir(), 'bench-distributed-'));
  progress('starting the gateway and the services, a process each…');
  let topology;
  try {
    topology = await startTopology(
      topologyEnv(await topologyPorts(), {
        DATABASE_URL: databaseUrl,
        CONTENT_DIR: contentDir,
        BOOTSTRAP_API_KEY: operatorKey,
        CALLER_SIGNING_KEY: callerKeysForChildren().CALLER_SIGNING_KEY,
        LOG_LEVEL: 'error',
        NODE_ENV: 'production',
        DOCUMENT_LINK_SECRET: randomBytes(32).toString('base64'),
        // One key from one address: the bench measures what the system does, not what the limits let through.
        RATE_LIMIT_PER_KEY: '0',
        RATE_LIMIT_PER_ADDRESS: '0',
        ...(nodeOptions ? { NODE_OPTIONS: nodeOptions } : {}),
      }),
      TOPOLOGY_READY_MS,
    );
  } catch (err) {
    rmSync(contentDir, { recursive: true, force: true });
    throw err;
  }
  const pids = topologyPids(topology.child.pid);
  const notes = [];
  if (!procAvailable) notes.push('CPU per process: unavailable, this is not Linux (no /proc).');
  else if (TOPOLOGY_PROCESSES.some((n) => !pids[n])) notes.push(`CPU per process: no process found for ${TOPOLOGY_PROCESSES.filter((n) => !pids[n]).join(', ')} among the starter's children.`);
  return {
    url: topology.url,
    ports: topology.ports,
    pids,
    notes,
    /** The probe groups of the processes (lib/cpu.mjs), one each. */
    cpuGroups: () => Object.fromEntries(TOPOLOGY_PROCESSES.map((n) => [n, pidsGroup(...(pids[n] ? [pids[n]] : []))])),
    async stop() {
      await topology.stop();
      rmSync(contentDir, { recursive: true, force: true });
    },
  };
}

export async function overheadDistributed({ operatorKey, sizes, year, concurrency, seconds, warmupSeconds, progress }) {
  const { createGrpcClient } = await importDist('services/shared/dist/grpc/client.js');
  const taxonomyProto = await importDist('proto/dist/gen/greenimpact/taxonomy/v1/taxonomy.js');
  const portfolioProto = await importDist('proto/dist/gen/greenimpact/portfolio/v1/portfolio.js');
  const scratch = await scratchPostgres();
  if (scratch.unreachable) return { skipped: scratch.unreachable };
  try {
    const topology = await startProductionShape({ databaseUrl: scratch.url, operatorKey, progress });
    try {
      return await measureInTopology({ topology, createGrpcClient, taxonomyProto, portfolioProto, scratch, operatorKey, sizes, year, concurrency, seconds, warmupSeconds, progress });
    } finally {
      await topology.stop();
    }
  } finally {
    // Also when the topology did not start: the scratch database goes either way.
    await scratch.stop();
  }
}

async function measureInTopology({ topology, createGrpcClient, taxonomyProto, portfolioProto, scratch, operatorKey, sizes, year, concurrency, seconds, warmupSeconds, progress }) {
  const client = httpClient(topology.url, { connections: concurrency * 2 });
  const grpc = {
    taxonomy: createGrpcClient(taxonomyProto.TaxonomyServiceService, `127.0.0.1:${topology.ports.taxonomy}`),
    portfolio: createGrpcClient(portfolioProto.PortfolioServiceService, `127.0.0.1:${topology.ports.portfolio}`),
  };
  const notes = [...topology.notes];
  let postgres;
  try {
    postgres = await postgresBackendsGroup(POSTGRES_SERVER_URL, new URL(scratch.url).pathname.slice(1));
    const cpu = cpuProbe({ ...topology.cpuGroups(), postgresql: postgres });
    progress(`seeding ${JSON.stringify(sizes)}…`);
    const data = await seedDataset(client, operatorKey, { sizes, year });
    const metricsUrls = Object.values(topology.ports.metrics).filter((p) => p > 0).map((p) => `http://127.0.0.1:${p}/metrics`);
    const rows = await measureOverhead(overheadReads({ client, grpc, data, year }), { concurrency, seconds, warmupSeconds, metricsUrls, cpu, progress });

    const requests = loadMix(data, 'read');
    progress(`(e) read mix closed loop (saturated): ${concurrency} concurrent for ${seconds} s…`);
    let next = 0;
    const saturated = await measure(
      async () => {
        const r = requests[next++ % requests.length];
        const answer = await client.request(r.method, r.path, r.headers, r.body);
        const error = answerError(r, answer.status, answer.text);
        if (error) throw new Error(error);
      },
      { concurrency, durationMs: seconds * 1000, warmupMs: (warmupSeconds ?? 1) * 1000, cpu },
    );
    let open;
    if (saturated.rps > 0) {
      progress(`(e) read mix open loop at ${(saturated.rps / 2).toFixed(1)} requests/s (half the saturated rate) for ${seconds} s…`);
      const before = await cpu.sample();
      open = await openLoop({ url: topology.url, requests, rate: saturated.rps / 2, seconds, answerError, connections: concurrency * 4 });
      open.cpuMsPerRequest = cpu.perRequest(before, await cpu.sample({ clientFirst: true }), open.completed + open.errors);
    } else notes.push(`(e) open loop not run: the closed loop of the read mix answered nothing (${saturated.firstError ?? 'no call completed'}).`);
    progress('(e) statements and backend calls per request of the mix…');
    const perOperation = {};
    for (const r of requests) {
      const label = requestLabel(r);
      if (perOperation[label]) {
        perOperation[label].share = Math.round((perOperation[label].share + 1 / requests.length) * 1000) / 1000;
        continue;
      }
      perOperation[label] = { share: Math.round((1 / requests.length) * 1000) / 1000, ...(await countsPerRequest(metricsUrls, () => client.request(r.method, r.path, r.headers, r.body))) };
    }
    return { rows, readMix: { mix: 'read', requestsInMix: requests.length, saturated, openLoop: open, perOperation }, notes };
  } finally {
    await postgres?.close();
    client.close();
    for (const c of Object.values(grpc)) c.close();
  }
}
