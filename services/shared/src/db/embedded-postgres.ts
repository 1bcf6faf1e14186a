import { mkdirSync } from 'node:fs';
import { PGlite } from '@electric-sql/pglite';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';

export interface EmbeddedPostgres {
  /** postgres:// URL any pg client (TypeORM's driver included) connects to. */
  url: string;
  stop(): Promise<void>;
}

/**
 * PGlite (PostgreSQL compiled to WASM) served on a loopback port by pglite-socket, so the services use
 * the very same `pg` driver and SQL in the embedded default as against a PostgreSQL server. The socket
 * server multiplexes connections and keeps a transaction's statements together.
 */
export async function startEmbeddedPostgres(opts: {
  /** Directory for the data files; in memory when omitted. */
  dataDir?: string;
  host?: string;
  port?: number;
  maxConnections?: number;
}): Promise<EmbeddedPostgres> {
  if (opts.dataDir) mkdirSync(opts.dataDir, { recursive: true });
  const db = await PGlite.create(opts.dataDir ? { dataDir: opts.dataDir } : {});
  const server = new PGLiteSocketServer({
    db,
    host: opts.host ?? '127.0.0.1',
    port: opts.port ?? 0,
    maxConnections: opts.maxConnections ?? 64,
  });
  let port = opts.port ?? 0;
  server.addEventListener('listening', (e) => {
    const detail = (e as CustomEvent<{ port?: number }>).detail;
    if (detail?.port) port = detail.port;
  });
  await server.start();
  return {
    url: `postgres://postgres@${opts.host ?? '127.0.0.1'}:${port}/postgres?sslmode=disable`,
    async stop() {
      await server.stop();
      await db.close();
    },
  };
}
