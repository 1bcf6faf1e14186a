import { mkdirSync } from 'node:fs';
import { PGlite } from '@electric-sql/pglite';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';
import { ExclusiveQueryQueue } from './exclusive-query-queue.js';

export interface EmbeddedPostgres {
  /** postgres:// URL any pg client (TypeORM's driver included) connects to. */
  url: string;
  /** Protocol messages waiting for the session while another connection's exchange or transaction holds it. */
  waiting(): number;
  /** The data directory as it is now, as a tarball another instance can start from (`loadDataDir`). */
  dumpDataDir(): Promise<Blob>;
  stop(): Promise<void>;
}

/**
 * PGlite (PostgreSQL compiled to WASM) served on a loopback port by pglite-socket, so the services use
 * the very same `pg` driver and SQL in the embedded default as against a PostgreSQL server. The socket
 * server multiplexes connections onto PGlite's one session; each protocol exchange, and each open
 * transaction, has the session to itself.
 */
export async function startEmbeddedPostgres(opts: {
  /** Directory for the data files; in memory when omitted. */
  dataDir?: string;
  host?: string;
  port?: number;
  maxConnections?: number;
  /**
   * A data directory dumped by another instance (dumpDataDir) to start from, in memory: skips initdb, most
   * of the start's cost (tests that start many databases in one process dump a fresh one once).
   */
  loadDataDir?: Blob;
}): Promise<EmbeddedPostgres> {
  if (opts.dataDir) mkdirSync(opts.dataDir, { recursive: true });
  const db = await PGlite.create(opts.dataDir ? { dataDir: opts.dataDir } : opts.loadDataDir ? { loadDataDir: opts.loadDataDir } : {});
  const server = new PGLiteSocketServer({
    db,
    host: opts.host ?? '127.0.0.1',
    port: opts.port ?? 0,
    maxConnections: opts.maxConnections ?? 64,
  });
  // pglite-socket interleaves extended-protocol messages of different connections outside transactions;
  // this queue keeps each exchange whole (see exclusive-query-queue.ts). Handlers take the server's queue
  // when they are created, so it is replaced before the first connection.
  const queue = new ExclusiveQueryQueue(db);
  (server as unknown as { queryQueue: ExclusiveQueryQueue }).queryQueue = queue;
  let port = opts.port ?? 0;
  server.addEventListener('listening', (e) => {
    const detail = (e as CustomEvent<{ port?: number }>).detail;
    if (detail?.port) port = detail.port;
  });
  await server.start();
  return {
    url: `postgres://postgres@${opts.host ?? '127.0.0.1'}:${port}/postgres?sslmode=disable`,
    waiting: () => queue.getQueueLength(),
    dumpDataDir: async () => (await db.dumpDataDir('none')) as Blob,
    async stop() {
      await server.stop();
      await db.close();
    },
  };
}
