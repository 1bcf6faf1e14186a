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
process.once('SIGTERM', async () => {
  await system.stop();
  process.exit(0);
});
