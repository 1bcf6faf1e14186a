// CPU time per process over a measurement window, from Linux /proc: utime + stime of /proc/<pid>/stat (clock
// ticks, CLK_TCK) read before and after the window for every process involved, and process.cpuUsage() for the
// load client (this process). A probe has named groups; each group is a set of pids listed when it is sampled,
// so a group may change between the two samples (PostgreSQL backends that connect during the window count
// from 0, ones that exit during it are lost, and both are counted in `pidsChanged`).
//
// PostgreSQL: the backends of the scratch database (pg_stat_activity where datname = it), not the whole
// server's process tree: the server is shared (the tests' and other runs' databases live on it), so its tree
// would count their work too. The server's own background processes (checkpointer, WAL writer, autovacuum)
// are left out; a read-only window gives them next to nothing to do.
//
// Elsewhere than Linux, or when a process is not in this machine's /proc (a PostgreSQL server on another
// host), its group answers `unavailable` with the reason instead of a figure.
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';

/** /proc's clock ticks per second (CLK_TCK). */
export const clockTicks = (() => {
  try {
    return Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
  } catch {
    return 100; // the Linux default (USER_HZ)
  }
})();

export const procAvailable = process.platform === 'linux' && existsSync('/proc/self/stat');

/** The fields of /proc/<pid>/stat after the command name (which may hold spaces and parentheses): [state, ppid, …]. */
function statFields(pid) {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  } catch {
    return undefined; // exited, or not visible here
  }
}

/** utime + stime of `pid` in ms, or undefined when it is gone or not in this /proc. */
export function processCpuMs(pid) {
  const f = statFields(pid);
  // Fields 14 (utime) and 15 (stime) of proc(5); the slice starts at field 3.
  return f ? ((Number(f[11]) + Number(f[12])) * 1000) / clockTicks : undefined;
}

/** The pids whose parent is `ppid`, each with its command line. */
export function childProcesses(ppid) {
  if (!procAvailable) return [];
  const out = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const f = statFields(entry);
    if (!f || Number(f[1]) !== ppid) continue;
    let cmdline = '';
    try {
      cmdline = readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0').join(' ');
    } catch {
      // exited meanwhile
    }
    out.push({ pid: Number(entry), cmdline });
  }
  return out;
}

/** A group of fixed pids (a process and nothing else). */
export const pidsGroup = (...pids) => async () => pids;

/** The PostgreSQL backends serving `database`, listed through `serverUrl` (a connection to another database). */
export async function postgresBackendsGroup(serverUrl, database) {
  const { default: pg } = await import('pg');
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  const list = async () => (await client.query('select pid from pg_stat_activity where datname = $1', [database])).rows.map((r) => r.pid);
  list.close = () => client.end();
  return list;
}

const round3 = (x) => Math.round(x * 1000) / 1000;

/**
 * A probe over `groups` ({ name: async () => pids }) and the load client. sample() before and after a window,
 * then perRequest(before, after, requests): { name: ms of CPU per request | 'unavailable: why' }, with
 * `client` (this process) and `total` (the sum of the figures).
 */
export function cpuProbe(groups) {
  const names = Object.keys(groups);
  const client = () => {
    const u = process.cpuUsage();
    return (u.user + u.system) / 1000;
  };
  return {
    async sample({ clientFirst = false } = {}) {
      const snapshot = {};
      if (clientFirst) snapshot.client = client();
      for (const name of names) {
        const pids = await groups[name]();
        snapshot[name] = new Map(pids.map((pid) => [pid, processCpuMs(pid)]));
      }
      if (!clientFirst) snapshot.client = client();
      return snapshot;
    },
    perRequest(before, after, requests) {
      const out = {};
      let total = 0;
      let pidsChanged = 0;
      for (const name of names) {
        if (!procAvailable) {
          out[name] = 'unavailable: no Linux /proc';
          continue;
        }
        const pids = new Set([...before[name].keys(), ...after[name].keys()]);
        if (pids.size === 0) {
          out[name] = 'unavailable: no process';
          continue;
        }
        if ([...after[name].values()].every((ms) => ms === undefined)) {
          out[name] = 'unavailable: not in this machine’s /proc';
          continue;
        }
        let ms = 0;
        for (const pid of pids) {
          const b = before[name].get(pid);
          const a = after[name].get(pid);
          if (a === undefined || b === undefined) pidsChanged++;
          if (a !== undefined) ms += a - (b ?? 0);
        }
        out[name] = round3(ms / requests);
        total += ms;
      }
      const clientMs = after.client - before.client;
      out.client = round3(clientMs / requests);
      out.total = round3((total + clientMs) / requests);
      if (pidsChanged) out.pidsChanged = pidsChanged;
      return out;
    },
  };
}
