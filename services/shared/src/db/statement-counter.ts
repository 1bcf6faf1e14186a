import { Counter } from 'prom-client';
import type { Logger as TypeormLogger } from 'typeorm';
import { metricsRegistry } from '../metrics.js';

const statements = new Counter({
  name: 'db_statements_total',
  help: 'SQL statements sent to the database, by service schema (the bench divides it by requests).',
  labelNames: ['schema'] as const,
  registers: [metricsRegistry],
});

/**
 * TypeORM's logger hook, used only to count: every statement a service sends (transactions' BEGIN and
 * COMMIT included) adds one to db_statements_total{schema}. Nothing is logged; SQL and parameters may hold
 * PII and stay out of logs.
 */
export function statementCounter(schema: string): TypeormLogger {
  const counter = statements.labels({ schema });
  return {
    logQuery: () => counter.inc(),
    logQueryError: () => undefined,
    logQuerySlow: () => undefined,
    logSchemaBuild: () => undefined,
    logMigration: () => undefined,
    log: () => undefined,
  };
}
