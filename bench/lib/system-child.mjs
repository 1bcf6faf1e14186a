// The system in its own process for bench/run.mjs: prints {"ready": {gatewayUrl, grpc}} when it listens,
// stops cleanly on SIGTERM.
import { importDist, startInProcess } from './system.mjs';

// The parent's caller key pair, so the parent's gRPC calls are signed as these services expect.
const { callerKeysForChildren } = await importDist('testing/dist/shared/caller-keys.js');
callerKeysForChildren(process.env.BENCH_CALLER_SIGNING_KEY);

const system = await startInProcess({
  databaseUrl: process.env.BENCH_DATABASE_URL || undefined,
  bootstrapApiKey: process.env.BENCH_BOOTSTRAP_KEY,
});
process.stdout.write(`${JSON.stringify({ ready: { gatewayUrl: system.gatewayUrl, grpc: system.grpc } })}\n`);

// BENCH_CPU_PROF=<dir>: a CPU profile of this process from its first SIGUSR2 (sent before the measured part,
// impact-scale.mjs's streamed reads) to SIGTERM, written there as system.cpuprofile for DevTools or a script.
const profileDir = process.env.BENCH_CPU_PROF;
let profiling;
if (profileDir) {
  const { Session } = await import('node:inspector/promises');
  process.once('SIGUSR2', async () => {
    const session = new Session();
    session.connect();
    await session.post('Profiler.enable');
    await session.post('Profiler.start');
    profiling = session;
  });
}
process.once('SIGTERM', async () => {
  if (profiling) {
    const { profile } = await profiling.post('Profiler.stop');
    const { writeFileSync } = await import('node:fs');
    writeFileSync(`${profileDir}/system.cpuprofile`, JSON.stringify(profile));
  }
  await system.stop();
  process.exit(0);
});
