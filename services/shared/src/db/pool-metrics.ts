import { Gauge } from 'prom-client';
import type { DataSource } from 'typeorm';
import { metricsRegistry } from '../metrics.js';

/** node-postgres' Pool, as TypeORM's PostgreSQL driver holds it (driver.master). */
interface PgPool {
  totalCount: number;
  idleCount: number;
  waitingCount: number;
  options?: { max?: number };
}

const pools = new Map<string, { ds: DataSource; max: number }>();

/**
 * db_pool_connections{schema, state}: connections of each service's pool in use, idle and the callers
 * waiting for one, and its size (state="max"), read at each scrape. Saturation: in_use == max with
 * waiting > 0 (alert GreenImpactDbPoolSaturated).
 */
new Gauge({
  name: 'db_pool_connections',
  help: 'Database pool of each service schema: connections in use, idle, callers waiting for one, and the pool size (max).',
  labelNames: ['schema', 'state'] as const,
  registers: [metricsRegistry],
  collect() {
    this.reset();
    for (const [schema, { ds, max }] of pools) {
      const pool = (ds.driver as unknown as { master?: PgPool }).master;
      if (!ds.isInitialized || !pool) continue;
      this.set({ schema, state: 'in_use' }, pool.totalCount - pool.idleCount);
      this.set({ schema, state: 'idle' }, pool.idleCount);
      this.set({ schema, state: 'waiting' }, pool.waitingCount);
      this.set({ schema, state: 'max' }, max);
    }
  },
});

/** Reports `ds`'s pool as `schema` until it is destroyed (a later one of the same schema replaces it). */
export function reportPool(schema: string, ds: DataSource, max: number): void {
  pools.set(schema, { ds, max });
}
