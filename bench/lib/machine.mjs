import os from 'node:os';

/** What the figures were measured on. */
export function machine() {
  const cpus = os.cpus();
  return {
    cpuModel: cpus[0]?.model ?? 'unknown',
    cores: cpus.length,
    memoryGiB: Math.round((os.totalmem() / 2 ** 30) * 10) / 10,
    loadAverage1m: Math.round(os.loadavg()[0] * 100) / 100,
    node: process.version,
    platform: `${os.type()} ${os.release()} ${os.arch()}`,
  };
}
