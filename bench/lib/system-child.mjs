// The system in its own process for bench/run.mjs: prints {"ready": {gatewayUrl, grpc}} when it listens,
// stops cleanly on SIGTERM.
import { startInProcess } from './system.mjs';

const system = await startInProcess({
  databaseUrl: process.env.BENCH_DATABASE_URL || undefined,
  bootstrapApiKey: process.env.BENCH_BOOTSTRAP_KEY,
});
process.stdout.write(`${JSON.stringify({ ready: { gatewayUrl: system.gatewayUrl, grpc: system.grpc } })}\n`);
process.once('SIGTERM', async () => {
  await system.stop();
  process.exit(0);
});
