import type { EntitySchema, MigrationInterface } from 'typeorm';
import { ConfigError, envReader, loadLogLevel, processEnvironment } from './config.js';
import { openServiceDataSource } from './db/data-source.js';
import { createLogger } from './logger.js';

export interface ServiceSchema {
  schema: string;
  entities: EntitySchema[];
  migrations: (new () => MigrationInterface)[];
}

/**
 * Applies one service's migrations to DATABASE_URL and exits: the entry of the Kubernetes migrations Job,
 * so an upgrade migrates once before new replicas start (on Kubernetes the services only check the schema's
 * version, MIGRATIONS=check; elsewhere they also migrate at start, which is then a no-op).
 */
export async function runMigrationsProcess(name: string, definition: ServiceSchema): Promise<void> {
  let url: string;
  let level: string;
  try {
    const environment = processEnvironment();
    level = loadLogLevel(environment);
    url = envReader(environment).string('DATABASE_URL');
  } catch (err) {
    if (!(err instanceof ConfigError)) throw err;
    process.stderr.write(`${name} migrate: configuration error: ${err.message}\n`);
    process.exitCode = 78;
    return;
  }
  const log = createLogger(`${name}-migrate`, { level });
  const ds = await openServiceDataSource({ url, ...definition, poolSize: 2, log });
  const applied = await ds.query(`SELECT name FROM "${definition.schema}".typeorm_migrations ORDER BY id`);
  log.info({ schema: definition.schema, applied: applied.map((r: { name: string }) => r.name) }, 'schema up to date');
  await ds.destroy();
}
