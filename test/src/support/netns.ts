import { execFile, execFileSync, spawn, type ChildProcess, type SpawnOptions } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, connect, type AddressInfo, type Server } from 'node:net';
import { promisify } from 'node:util';

const run = promisify(execFile);

/**
 * Test hosts of their own for the fault tests (issue 50): one network namespace per host, each joined by a
 * veth pair to a bridge that lives in a hub namespace of the same run. Nothing is added to the machine's
 * own namespace, so the 10.x addresses and every packet between the hosts stay inside namespaces the run
 * made and removes. Faults are nftables rules inside the hosts' namespaces (a partition drops packets, so
 * both ends see a silent link, as on a real network, not a reset). Latency is the kernel's sch_netem where
 * the kernel has it; without it, a latency proxy (latency-proxy.ts) in each serving host's namespace stands
 * in front of the ports it serves (`serve`), and `impair` sets their delay.
 *
 * Names carry a prefix unique to the run (`gi` + pid + random), so parallel runs never meet.
 */
export interface Host {
  name: string;
  /** The namespace's name (`ip netns exec <ns> …`). */
  ns: string;
  /** The host's address on the run's bridge. */
  ip: string;
}

export interface Network {
  prefix: string;
  hosts: Map<string, Host>;
  /** Whether this kernel has sch_netem. */
  netemAvailable: boolean;
  /** What delays packets when `impair` asks for latency: netem on each link, or the latency proxies. */
  delayBy: DelayBy;
  addHost(name: string): Promise<Host>;
  /**
   * Names `host` resolves (its /etc/hosts, which `ip netns exec` mounts from /etc/netns/<ns>/hosts): a name
   * with several addresses, as a headless Service's, for round-robin clients. Set before spawning there.
   */
  names(host: Host, entries: Record<string, string[]>): void;
  /** Spawns `command` inside `host`'s namespace (the file system and environment are the caller's). */
  spawn(host: Host, command: string, args: string[], options: SpawnOptions): ChildProcess;
  /**
   * Declares TCP ports `host` serves to the other hosts. Without sch_netem a latency proxy in `host`'s
   * namespace stands in front of them from now on: an nftables redirect sends what arrives on the link for
   * each port to the proxy, which forwards it to the port on the host's address. Every connection, one
   * opened before a fault included, then passes through it, and `impair` can delay it. A no-op with netem.
   * Declare before the clients connect.
   */
  serve(host: Host, ports: number[]): Promise<void>;
  /** Runs `command` inside `host`'s namespace and resolves with its stdout. */
  exec(host: Host, command: string, args: string[]): Promise<string>;
  /** Partitions `a` from `b` (both directions, every port): packets are dropped, nothing answers. */
  cut(a: Host, b: Host): Promise<void>;
  /** Lifts every partition and impairment. */
  heal(): Promise<void>;
  /**
   * Every link impaired: each host drops `lossPercent` of the packets it sends on its link (nftables'
   * numgen) and delays them by `delayMs`: netem delays each packet a host sends; the latency proxies delay
   * each chunk in each direction of every connection to a served port, as much per crossing. Returns what
   * was applied.
   */
  impair(opts: { delayMs: number; lossPercent: number }): Promise<Impairment>;
  /** The impairment in force, if any. */
  impaired(): Impairment | undefined;
  /**
   * A TCP port on 127.0.0.1 of the machine's own namespace that leads to `port` on 127.0.0.1 inside `host`
   * (through a Unix socket in the shared file system): the test client's door to the gateway. This path
   * is not part of the fault domain.
   */
  door(host: Host, port: number): Promise<number>;
  /** Stops the doors and removes every namespace (and with them their links and rules); idempotent. */
  remove(): Promise<void>;
}

export type DelayBy = 'netem' | 'latency-proxy';
export interface Impairment {
  delayMs: number;
  lossPercent: number;
  /** What delayed the packets (none when `delayMs` is 0). */
  delayBy: DelayBy | 'none';
}

/** Why this machine cannot make namespaces (not root, no ip or nft), or false. Under CI a reason is an error. */
export function netnsSkipReason(): string | false {
  const reason = (() => {
    if (process.platform !== 'linux') return 'network namespaces need Linux';
    if (process.getuid?.() !== 0) return 'network namespaces need root';
    for (const [tool, pkg] of [['ip', 'iproute2'], ['nft', 'nftables']] as const) {
      try {
        execFileSync(tool, ['-V'], { stdio: 'ignore' });
      } catch {
        return `${tool} is missing (Debian's ${pkg}; scripts/setup-test-machine.sh installs it)`;
      }
    }
    const probe = `gi-probe-${process.pid}-${randomBytes(3).toString('hex')}`;
    try {
      execFileSync('ip', ['netns', 'add', probe], { stdio: 'ignore' });
      execFileSync('ip', ['netns', 'del', probe], { stdio: 'ignore' });
    } catch {
      return 'cannot create network namespaces here (ip netns add failed)';
    }
    return false;
  })();
  if (reason && process.env['CI']) throw new Error(`${reason} (CI must run the fault tests)`);
  return reason;
}

const ip = (...args: string[]) => run('ip', args);

export async function createNetwork(): Promise<Network> {
  const prefix = `gi${process.pid.toString(36)}${randomBytes(2).toString('hex')}`;
  const hub = `${prefix}-hub`;
  const hosts = new Map<string, Host>();
  const doors: { server: Server; child: ChildProcess }[] = [];
  const cuts: [Host, Host][] = [];
  let impairment: Impairment | undefined;
  /** One latency-proxy process per serving host (without netem), told each latency change over IPC. */
  const proxies: ChildProcess[] = [];
  let removed = false;

  await ip('netns', 'add', hub);
  await ip('-n', hub, 'link', 'add', 'br0', 'type', 'bridge');
  await ip('-n', hub, 'link', 'set', 'br0', 'up');
  const netemAvailable = await probeNetem(hub);
  const delayBy: DelayBy = netemAvailable ? 'netem' : 'latency-proxy';
  const setLatency = (ms: number) =>
    Promise.all(
      proxies.map(
        (child) =>
          new Promise<void>((resolve, reject) => {
            child.once('message', () => resolve());
            child.send({ latencyMs: ms }, (err) => err && reject(err));
          }),
      ),
    );

  const nsExec = (host: Host, command: string, args: string[]) => run('ip', ['netns', 'exec', host.ns, command, ...args]);
  /** One host's rules, rendered whole each time: its partitions and the shared impairment. */
  const rules = (host: Host) => {
    const peers = cuts.flatMap(([a, b]) => (a === host ? [b] : b === host ? [a] : [])).map((p) => p.ip);
    const set = peers.length ? `{ ${peers.join(', ')} }` : undefined;
    // On the link only: a host's loopback (a proxy to its server, the gateway's door) is no link.
    const loss = impairment?.lossPercent ? `    oifname "eth0" numgen random mod 100 < ${impairment.lossPercent} drop\n` : '';
    return [
      'table inet faults',
      'delete table inet faults',
      'table inet faults {',
      '  chain out {',
      '    type filter hook output priority 0; policy accept;',
      ...(set ? [`    ip daddr ${set} drop`] : []),
      loss,
      '  }',
      '  chain in {',
      '    type filter hook input priority 0; policy accept;',
      ...(set ? [`    ip saddr ${set} drop`] : []),
      '  }',
      '}',
    ].join('\n');
  };
  const nft = async (host: Host, ruleset: string) => {
    const child = spawn('ip', ['netns', 'exec', host.ns, 'nft', '-f', '-'], { stdio: ['pipe', 'ignore', 'pipe'] });
    let err = '';
    child.stderr!.setEncoding('utf8').on('data', (c: string) => (err += c));
    child.stdin!.end(ruleset + '\n');
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
    if (code !== 0) throw new Error(`nft in ${host.name}: ${err}`);
  };
  const apply = (host: Host) => nft(host, rules(host));
  const applyAll = () => Promise.all([...hosts.values()].map(apply));

  const network: Network = {
    prefix,
    hosts,
    netemAvailable,
    delayBy,
    async addHost(name) {
      const n = hosts.size + 1;
      const host: Host = { name, ns: `${prefix}-${name}`, ip: `10.88.0.${n}` };
      await ip('netns', 'add', host.ns);
      await ip('-n', hub, 'link', 'add', `h${n}`, 'type', 'veth', 'peer', 'name', 'eth0', 'netns', host.ns);
      await ip('-n', hub, 'link', 'set', `h${n}`, 'master', 'br0', 'up');
      await ip('-n', host.ns, 'addr', 'add', `${host.ip}/24`, 'dev', 'eth0');
      await ip('-n', host.ns, 'link', 'set', 'eth0', 'up');
      await ip('-n', host.ns, 'link', 'set', 'lo', 'up');
      hosts.set(name, host);
      await apply(host);
      return host;
    },
    names(host, entries) {
      mkdirSync(`/etc/netns/${host.ns}`, { recursive: true });
      const lines = ['127.0.0.1 localhost', ...Object.entries(entries).flatMap(([name, ips]) => ips.map((a) => `${a} ${name}`))];
      writeFileSync(`/etc/netns/${host.ns}/hosts`, lines.join('\n') + '\n');
    },
    spawn: (host, command, args, options) => spawn('ip', ['netns', 'exec', host.ns, command, ...args], options),
    async serve(host, ports) {
      if (netemAvailable || !ports.length) return;
      const module = new URL('./latency-proxy.js', import.meta.url).href;
      const script = [
        `const { startLatencyProxy } = await import(${JSON.stringify(module)});`,
        `const proxies = await Promise.all(${JSON.stringify(ports)}.map((port) => startLatencyProxy({ target: { host: ${JSON.stringify(host.ip)}, port }, listen: { host: ${JSON.stringify(host.ip)} }, latencyMs: ${impairment?.delayMs ?? 0} })));`,
        'process.send(proxies.map((p) => p.port));',
        "process.on('message', (m) => { for (const p of proxies) p.setLatency(m.latencyMs); process.send('set'); });",
        "process.on('disconnect', () => process.exit(0));",
      ].join('\n');
      const child = network.spawn(host, process.execPath, ['--input-type=module', '-e', script], { stdio: ['ignore', 'ignore', 'inherit', 'ipc'] });
      const listening = await new Promise<number[]>((resolve, reject) => {
        child.once('message', (m) => resolve(m as number[]));
        child.once('exit', (code) => reject(new Error(`the latency proxy in ${host.name} exited (${code})`)));
      });
      proxies.push(child);
      const redirects = ports.map((port, i) => `add rule inet latency pre iifname "eth0" tcp dport ${port} redirect to :${listening[i]}`);
      await nft(host, ['table inet latency {', '  chain pre {', '    type nat hook prerouting priority dstnat; policy accept;', '  }', '}', ...redirects].join('\n'));
    },
    exec: async (host, command, args) => (await nsExec(host, command, args)).stdout,
    async cut(a, b) {
      cuts.push([a, b]);
      await Promise.all([apply(a), apply(b)]);
    },
    async heal() {
      cuts.length = 0;
      const delayed = impairment?.delayBy;
      impairment = undefined;
      if (delayed === 'netem') await Promise.all([...hosts.values()].map((h) => nsExec(h, 'tc', ['qdisc', 'del', 'dev', 'eth0', 'root']).catch(() => undefined)));
      if (delayed === 'latency-proxy') await setLatency(0);
      await applyAll();
    },
    async impair({ delayMs, lossPercent }) {
      impairment = { delayMs, lossPercent, delayBy: delayMs ? delayBy : 'none' };
      if (impairment.delayBy === 'netem') {
        await Promise.all([...hosts.values()].map((h) => nsExec(h, 'tc', ['qdisc', 'replace', 'dev', 'eth0', 'root', 'netem', 'delay', `${delayMs}ms`])));
      }
      if (impairment.delayBy === 'latency-proxy') await setLatency(delayMs);
      await applyAll();
      return { ...impairment };
    },
    impaired: () => (impairment ? { ...impairment } : undefined),
    async door(host, port) {
      const socket = `/tmp/${prefix}-${host.name}-${port}.sock`;
      // Inside the host: a Unix socket (the file system is shared) piped to 127.0.0.1:port there.
      const script = `const net=require('net');require('fs').rmSync(${JSON.stringify(socket)},{force:true});net.createServer(c=>{const u=net.connect(${port},'127.0.0.1');c.pipe(u).pipe(c);c.on('error',()=>u.destroy());u.on('error',()=>c.destroy())}).listen(${JSON.stringify(socket)},()=>process.send('ready'));process.on('disconnect',()=>process.exit(0))`;
      const child = network.spawn(host, process.execPath, ['-e', script], { stdio: ['ignore', 'ignore', 'inherit', 'ipc'] });
      await new Promise<void>((resolve, reject) => {
        child.once('message', () => resolve());
        child.once('exit', (code) => reject(new Error(`the door into ${host.name} exited (${code})`)));
      });
      const server = createServer((c) => {
        const u = connect(socket);
        c.pipe(u).pipe(c);
        c.on('error', () => u.destroy());
        u.on('error', () => c.destroy());
      });
      await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
      doors.push({ server, child });
      return (server.address() as AddressInfo).port;
    },
    async remove() {
      if (removed) return;
      removed = true;
      for (const { server, child } of doors) {
        server.close();
        child.kill('SIGKILL');
      }
      for (const child of proxies) child.kill('SIGKILL');
      // Removing a namespace takes its end of each veth with it, and so the pair.
      for (const ns of [...[...hosts.values()].map((h) => h.ns), hub]) {
        await ip('netns', 'del', ns).catch(() => undefined);
        rmSync(`/etc/netns/${ns}`, { recursive: true, force: true });
      }
    },
  };
  // A runner that dies (timeout, Ctrl-C) must not leave namespaces behind.
  process.once('exit', () => {
    if (removed) return;
    for (const ns of [...[...hosts.values()].map((h) => h.ns), hub]) {
      try {
        rmSync(`/etc/netns/${ns}`, { recursive: true, force: true });
        execFileSync('ip', ['netns', 'del', ns], { stdio: 'ignore' });
      } catch {
        // already gone
      }
    }
  });
  return network;
}

/** Whether `tc … netem` works in this kernel (a throwaway veth pair inside the hub namespace). */
async function probeNetem(ns: string): Promise<boolean> {
  try {
    await ip('-n', ns, 'link', 'add', 'probe0', 'type', 'veth', 'peer', 'name', 'probe1');
    await run('ip', ['netns', 'exec', ns, 'tc', 'qdisc', 'add', 'dev', 'probe0', 'root', 'netem', 'delay', '1ms']);
    return true;
  } catch {
    return false;
  } finally {
    await ip('-n', ns, 'link', 'del', 'probe0').catch(() => undefined);
  }
}
