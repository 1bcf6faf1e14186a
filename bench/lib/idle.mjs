// Idle means idle: the production shape (lib/overhead-distributed.mjs's startProductionShape, every service
// in a process of its own on a scratch PostgreSQL database) left alone for a quiet window once it serves,
// and the CPU each process used over it (lib/cpu.mjs, from /proc), as a percentage of one core. A process
// that polls (an outbox relay, a job poller, a cache refresher) shows here; the goal is under 1 % each.
// Also `npm run bench:idle` (BENCH_IDLE_SECONDS, default 10; BENCH_IDLE_SETTLE_SECONDS, default 5: the
// wait after start-up before the window opens, so start-up work is not counted).
import { cpuProbe, postgresBackendsGroup } from './cpu.mjs';
import { startProductionShape } from './overhead-distributed.mjs';
import { POSTGRES_SERVER_URL, scratchPostgres } from './system.mjs';

const round2 = (x) => Math.round(x * 100) / 100;

/** { seconds, cpuPercentByProcess: { gateway: %, …, postgresql: % }, notes } or { skipped }. */
export async function idleCpu({ operatorKey, seconds = 10, settleSeconds = 5, progress }) {
  const scratch = await scratchPostgres();
  if (scratch.unreachable) return { skipped: scratch.unreachable };
  try {
    const topology = await startProductionShape({ databaseUrl: scratch.url, operatorKey, progress });
    const postgres = await postgresBackendsGroup(POSTGRES_SERVER_URL, new URL(scratch.url).pathname.slice(1));
    try {
      progress(`idle: letting start-up settle for ${settleSeconds} s, then measuring a quiet ${seconds} s…`);
      await new Promise((resolve) => setTimeout(resolve, settleSeconds * 1000));
      const cpu = cpuProbe({ ...topology.cpuGroups(), postgresql: postgres });
      const before = await cpu.sample();
      const started = performance.now();
      await new Promise((resolve) => setTimeout(resolve, seconds * 1000));
      const after = await cpu.sample({ clientFirst: true });
      const window = (performance.now() - started) / 1000;
      // perRequest with one "request" gives the ms of CPU over the window; as a share of a core, in %.
      const ms = cpu.perRequest(before, after, 1);
      const cpuPercentByProcess = {};
      for (const [name, value] of Object.entries(ms)) {
        if (name === 'client' || name === 'total' || name === 'pidsChanged') continue;
        cpuPercentByProcess[name] = typeof value === 'number' ? round2(value / (window * 10)) : value;
      }
      const over = Object.entries(cpuPercentByProcess).filter(([name, p]) => name !== 'postgresql' && typeof p === 'number' && p >= 1);
      return { seconds: round2(window), cpuPercentByProcess, goal: 'each service under 1 % of a core', met: over.length === 0, notes: topology.notes };
    } finally {
      await postgres.close();
      await topology.stop();
    }
  } finally {
    await scratch.stop();
  }
}
