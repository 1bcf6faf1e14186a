import { createServer, connect, type AddressInfo, type Server, type Socket } from 'node:net';

/** What the proxy does with new and open connections. */
type ProxyMode = 'up' | 'down' | 'blackhole';

/** Decides on one chunk a client sent, before it is forwarded: `conn` tells the connections apart. */
export type CutTrigger = (chunk: Buffer, conn: number) => boolean;

export interface FaultProxy {
  /** 127.0.0.1:<port>: what clients connect to instead of the target. */
  readonly host: string;
  readonly port: number;
  /**
   * Resets every open connection (both sides), and every new one as soon as it is accepted: to a client as
   * good as refused. The proxy keeps its port: closing the listener and binding the port again later could
   * lose it to another test's listener in between.
   */
  down(): Promise<void>;
  /** Forwards new connections again (a no-op when up). */
  up(): Promise<void>;
  /**
   * Resets every open connection, then accepts new ones but never answers nor forwards a byte: clients
   * wait until their own timeouts (a host that is up but whose service hangs).
   */
  blackhole(): Promise<void>;
  /**
   * Goes down (as `down()`) at the first client chunk `trigger` picks. With `forward` false the chunk is
   * dropped (the target never got it); with `forward` true it is delivered and the cut comes with the
   * target's first answer to it, which the client never sees (the target did the work, the client cannot
   * know). Resolves once it happened.
   */
  cutWhen(trigger: CutTrigger, opts: { forward: boolean }): Promise<void>;
  close(): Promise<void>;
}

/**
 * A TCP proxy between a client and one target (PostgreSQL, a JSON-RPC node, …) that can cut, refuse and
 * hang connections on command, so a test can take a dependency away from processes it does not control
 * and give it back. Cuts are resets (RST), as when a peer dies or a network path breaks.
 */
export async function startFaultProxy(target: { host: string; port: number }): Promise<FaultProxy> {
  const open = new Map<number, { client: Socket; upstream?: Socket }>();
  let mode: ProxyMode = 'up';
  let nextId = 0;
  let pendingCut: { trigger: CutTrigger; forward: boolean; done: () => void } | undefined;

  const resetAll = () => {
    for (const { client, upstream } of open.values()) {
      client.resetAndDestroy();
      upstream?.resetAndDestroy();
    }
    open.clear();
  };

  const accept = (client: Socket) => {
    if (mode === 'down') {
      client.resetAndDestroy();
      return;
    }
    const id = nextId++;
    const entry: { client: Socket; upstream?: Socket } = { client };
    open.set(id, entry);
    client.on('error', () => undefined);
    client.on('close', () => {
      entry.upstream?.destroy();
      open.delete(id);
    });
    if (mode === 'blackhole') return; // held: nothing read, nothing answered
    const upstream = connect(target.port, target.host);
    entry.upstream = upstream;
    upstream.on('error', () => client.resetAndDestroy());
    upstream.on('close', () => client.destroy());
    let onAnswer: (() => void) | undefined;
    upstream.on('data', (chunk) => (onAnswer ? onAnswer() : client.write(chunk)));
    client.on('data', (chunk) => {
      const cut = pendingCut;
      if (cut?.trigger(chunk, id)) {
        pendingCut = undefined;
        let cutting = false;
        const cutAndReport = () => {
          if (!cutting) void cutNow().then(cut.done);
          cutting = true;
        };
        if (cut.forward) {
          onAnswer = cutAndReport;
          upstream.write(chunk);
        } else cutAndReport();
        return;
      }
      upstream.write(chunk);
    });
  };

  const server: Server = createServer(accept);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;

  const cutNow = async () => {
    mode = 'down';
    resetAll();
  };

  return {
    host: '127.0.0.1',
    port,
    down: cutNow,
    async up() {
      if (mode === 'blackhole') resetAll(); // the held connections; forwarded ones stay
      mode = 'up';
    },
    async blackhole() {
      resetAll();
      mode = 'blackhole';
    },
    cutWhen(trigger, opts) {
      return new Promise<void>((done) => (pendingCut = { trigger, forward: opts.forward, done }));
    },
    async close() {
      pendingCut = undefined;
      await cutNow();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
