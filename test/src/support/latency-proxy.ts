import { createServer, connect, type AddressInfo, type Socket } from 'node:net';
import { performance } from 'node:perf_hooks';

export interface LatencyProxy {
  /** Where clients connect instead of the target. */
  readonly host: string;
  readonly port: number;
  /** The delay every chunk gets in each direction from now on (0: forwarded as it comes). */
  setLatency(ms: number): void;
  /** Connections open now. */
  connections(): number;
  /** The most bytes one direction of one connection held waiting at once so far (the bound's check). */
  peakBufferedBytes(): number;
  /** Stops listening and destroys every open connection (both sides). */
  close(): Promise<void>;
}

export interface LatencyProxyOptions {
  /** What the proxy forwards to. */
  target: { host: string; port: number };
  /** Where it listens (default 127.0.0.1, an ephemeral port). */
  listen?: { host?: string; port?: number };
  /** Initial delay per chunk and direction, in ms (default 0). */
  latencyMs?: number;
  /** Bytes one direction may hold waiting for their time before it stops reading its source (default 1 MiB). */
  maxBufferedBytes?: number;
}

/**
 * A userspace TCP proxy that delays what it forwards, Toxiproxy's latency toxic without Toxiproxy: for
 * kernels without sch_netem (issue 50's slow links). Each connection is forwarded to the target; each chunk
 * read on one side is written to the other `latencyMs` after it was read (never sooner), in the order read.
 * A direction holding more than `maxBufferedBytes` stops reading its source until it is written out, and a
 * destination that does not drain stops it too, so a slow reader cannot make the proxy buffer without bound.
 * An end (FIN) is passed on in order, after the data before it; a reset or error on either side destroys both.
 */
export async function startLatencyProxy(opts: LatencyProxyOptions): Promise<LatencyProxy> {
  let latencyMs = opts.latencyMs ?? 0;
  const maxBuffered = opts.maxBufferedBytes ?? 1 << 20;
  const open = new Set<[Socket, Socket]>();
  let peak = 0;

  /** One direction of one connection: `from`'s chunks written to `to`, each when its time comes. */
  const forward = (from: Socket, to: Socket) => {
    const queue: { due: number; chunk: Buffer | null }[] = [];
    let buffered = 0;
    let blocked = false; // `to` asked us to wait for 'drain'
    let timer: NodeJS.Timeout | undefined;
    const resumeIfRoom = () => {
      if (!blocked && buffered < maxBuffered && from.isPaused()) from.resume();
    };
    const flush = () => {
      timer = undefined;
      while (queue.length) {
        const wait = queue[0]!.due - performance.now();
        // A timer may fire a fraction of a millisecond early by the loop's clock: never deliver before due.
        if (wait > 0) {
          timer = setTimeout(flush, Math.ceil(wait));
          return;
        }
        const { chunk } = queue.shift()!;
        if (to.destroyed) return;
        if (chunk === null) {
          to.end();
          continue;
        }
        buffered -= chunk.length;
        if (!to.write(chunk)) blocked = true;
      }
      resumeIfRoom();
    };
    const push = (chunk: Buffer | null) => {
      // Order holds when the latency is lowered: nothing is due before what was read earlier.
      const due = Math.max(performance.now() + latencyMs, queue.at(-1)?.due ?? 0);
      queue.push({ due, chunk });
      if (chunk) peak = Math.max(peak, (buffered += chunk.length));
      if (buffered >= maxBuffered) from.pause();
      if (!timer) flush();
    };
    from.on('data', (chunk: Buffer) => push(chunk));
    from.on('end', () => push(null));
    to.on('drain', () => {
      blocked = false;
      resumeIfRoom();
    });
    to.on('close', () => clearTimeout(timer));
  };

  const server = createServer({ allowHalfOpen: true }, (client) => {
    // Writes before the connect are held by the socket; half-closes pass through (allowHalfOpen on both).
    const upstream = connect({ host: opts.target.host, port: opts.target.port, allowHalfOpen: true });
    const pair: [Socket, Socket] = [client, upstream];
    open.add(pair);
    // A reset or failure on one side resets the other; a clean close waits for what is still on its way.
    client.on('error', () => upstream.resetAndDestroy());
    upstream.on('error', () => client.resetAndDestroy());
    const closed = () => client.closed && upstream.closed && open.delete(pair);
    client.on('close', closed);
    upstream.on('close', closed);
    forward(client, upstream);
    forward(upstream, client);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.listen?.port ?? 0, opts.listen?.host ?? '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  return {
    host: address.address,
    port: address.port,
    setLatency(ms) {
      latencyMs = ms;
    },
    connections: () => open.size,
    peakBufferedBytes: () => peak,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        for (const pair of open) for (const s of pair) s.destroy();
        open.clear();
      }),
  };
}
