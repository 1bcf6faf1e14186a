import { setTimeout as sleep } from 'node:timers/promises';
import { countsOf, listInvestorIdentifiers, listJobs, listUserIdentifiers } from './account-reads.js';
import { assertOneTransactionPerJobOnChain } from './chain-reads.js';
import { History, type HistoryCheck } from './history.js';
import { startFaultTopology, type FaultTopology } from './netns-topology.js';
import type { Impairment } from './netns.js';
import { graphqlCall, v1Call } from './outcomes.js';
import { until } from './poll.js';
import { createUserAccount } from './system.js';
import type { Write } from './write-load.js';

const OPERATOR = 'gi_6Ley_jbLN4XB3TPt6p9BzchDKJCHmJCQwCdMEf5uXCs'; // BOOTSTRAP_API_KEY: random (a weak one is refused at start)
/** The gateway's per-call and per-request deadlines in these runs: short, so a silent link shows within seconds. */
export const GRPC_DEADLINE_MS = 4_000;
export const REQUEST_DEADLINE_MS = 6_000;

/** What `npm run faults` writes per fault (bench/faults.json) and what the test asserts. */
export interface FaultReport extends HistoryCheck {
  fault: string;
  /** Seconds the fault lasted. */
  faultSeconds: number;
  /** Seconds from the heal until every kind of write was acknowledged again. */
  recoverySeconds: number;
  /**
   * Chain jobs accepted but not yet final just before the heal (what an outbox cut from Kafka holds); null
   * when the system could not list them then (the database cut away).
   */
  jobsPendingAtHeal: number | null;
  /** Messages in the chain service's outbox just before the heal (held back from Kafka), and once drained. */
  outboxAtHeal: number | null;
  /** Seconds from the heal until the outbox was empty (every held message accepted by Kafka). */
  outboxDrainedSeconds: number;
  /** Seconds from the heal until every chain job was final (completed or failed), the clients' retries included. */
  jobsSettledSeconds: number;
  /** Writes of each kind acknowledged while the fault lasted. */
  duringFault: Record<Kind, number>;
  /** The median time, in ms, from sending a write to its acknowledgement, before the fault and during it. */
  medianAckMs: { beforeFault: number | null; duringFault: number | null };
  /** Messages read from chain.job-events after the heal (every run so far); each completed job's must be among them. */
  jobEvents: number;
  /** Chain jobs present after the heal, and whether the node mined exactly one transaction per job. */
  chainJobs: number;
  minedOncePerJob: boolean;
  /** The link impairment in force during the fault (the slow-link fault's), with what delayed the packets; null for none. */
  impairment: Impairment | null;
  /** Conditions of the run worth knowing. */
  notes: string[];
}

/** The topology the faults run against. */
export interface FaultSystem {
  topology: FaultTopology;
}

/** One fault's clients: they write as an account of their own. */
interface Clients extends FaultSystem {
  apiKey: string;
}

/** Each client's pace: at most one write per this many ms (a steady load whose writes the checker can list in full). */
const PACE_MS = 100;

export async function startFaultSystem(): Promise<FaultSystem> {
  const topology = await startFaultTopology({
    BOOTSTRAP_API_KEY: OPERATOR,
    DATABASE_POOL_SIZE: '4',
    // One transaction per insert job: the node's count of transactions is then the count of jobs.
    CHAIN_KV_BATCH: '1',
    // The check reads every job's transaction through the public relay in one batch: its quota is not under test.
    CHAIN_RELAY_PER_SECOND: '0',
    CHAIN_RELAY_MAX_CONCURRENT: '10000',
    GRPC_DEADLINE_MS: String(GRPC_DEADLINE_MS),
    REQUEST_DEADLINE_MS: String(REQUEST_DEADLINE_MS),
    LOG_LEVEL: 'warn',
    NODE_ENV: 'test',
  });
  return { topology };
}

type Kind = 'user' | 'investor' | 'job';
const KINDS: Kind[] = ['user', 'investor', 'job'];

function write(sys: Clients, kind: Kind, name: string): Write {
  const { url } = sys.topology;
  if (kind === 'user') return { kind, name, send: () => v1Call(url, sys.apiKey, { solution: 'SVC.ESG.Credits', operation: 'addUser', parameters: { user_identifier: name } }) };
  if (kind === 'investor') {
    return {
      kind,
      name,
      send: () =>
        graphqlCall(url, sys.apiKey, 'mutation($i: AddInvestorInput!) { addInvestor(input: $i) { message } }', {
          i: { identifier: name, name: `Investor ${name}`, currencyCode: 'EUR' },
        }),
    };
  }
  return {
    kind,
    name,
    send: () =>
      v1Call(
        url,
        sys.apiKey,
        { solution: 'SVC.Blockchain.Hash', version: 1, network: 'sepolia', operation: 'insertString', parameters: { key: name, value: `v-${name}` } },
        { 'idempotency-key': name },
      ),
  };
}

/** How often each name of `kind` is stored, read through the gateway. */
async function present(sys: Clients, kind: string): Promise<Map<string, number>> {
  const { url } = sys.topology;
  if (kind === 'user') return countsOf(await listUserIdentifiers(url, sys.apiKey));
  if (kind === 'investor') return countsOf(await listInvestorIdentifiers(url, sys.apiKey));
  return countsOf((await listJobs(url, sys.apiKey)).map((j) => j.key!));
}

export interface Fault {
  name: string;
  /** Applies the fault; returns notes on how it was applied. */
  apply(sys: FaultSystem): Promise<string[]>;
  /** How long the fault lasts under load. */
  holdMs: number;
  /** Why the run shows no sign of the fault, if it does not (a fault that changed nothing proves nothing). */
  felt?(seen: {
    outboxAtHeal: number | null;
    jobsPendingAtHeal: number | null;
    unknown: number;
    duringFault: Record<Kind, number>;
    medianAckMs: FaultReport['medianAckMs'];
  }): string | undefined;
}

/**
 * A read of the checker's, undefined while it fails: a system that just healed may still refuse a read for a
 * moment (503, its pool's connections recovering), which is no answer about the data.
 */
async function readable<T>(read: () => Promise<T>): Promise<T | undefined> {
  try {
    return await read();
  } catch {
    return undefined;
  }
}

/** Rows of the chain service's transactional outbox (chain.outbox), read on the PostgreSQL host. */
async function outboxRows(sys: FaultSystem): Promise<number> {
  return Number((await sys.topology.sql('SELECT count(*) FROM chain.outbox')).trim());
}

/** Every service that writes cut from PostgreSQL: transactions in flight lose their link mid-way, commits' answers included. */
export const postgresPartition: Fault = {
  name: 'services-cut-from-postgres',
  holdMs: 10_000,
  async apply({ topology }) {
    const pg = topology.host('postgres');
    for (const s of ['identity', 'portfolio', 'chain'] as const) await topology.net.cut(topology.host(s), pg);
    return [];
  },
  felt: ({ unknown }) => (unknown > 0 ? undefined : 'no write ended in doubt'),
};

/**
 * The gateway cut from one of portfolio's two replicas while both keep running: calls already on that link
 * end at their deadline, and the balancing must move on to the other replica.
 */
export const gatewayPortfolioPartition: Fault = {
  name: 'gateway-cut-from-one-portfolio-replica',
  holdMs: 20_000,
  async apply({ topology }) {
    await topology.net.cut(topology.host('gateway'), topology.host('portfolio'));
    return [];
  },
  felt: ({ duringFault }) => (duringFault.investor ? undefined : 'no investor write was acknowledged during the cut: the balancing did not move on'),
};

/** Every link slowed and lossy. */
const SLOW_LINK_MS = 200;
export const slowLossyLinks: Fault = {
  name: 'all-links-200ms-5pct-loss',
  holdMs: 12_000,
  // A write crosses at least the gateway's link to a service and back: a lower bound, never an upper one.
  felt: ({ medianAckMs }) =>
    medianAckMs.duringFault !== null && medianAckMs.duringFault >= 2 * SLOW_LINK_MS ? undefined : `the median write was acknowledged in ${medianAckMs.duringFault} ms`,
  async apply({ topology }) {
    const applied = await topology.net.impair({ delayMs: SLOW_LINK_MS, lossPercent: 5 });
    return applied.delayBy === 'latency-proxy'
      ? ['this kernel has no sch_netem: the 200 ms are the latency proxies\' (each chunk, each direction, of every connection to a served port), the 5 % loss nftables\'']
      : [];
  },
};

/** The chain service cut from Kafka: jobs are still accepted (job and outbox rows in one transaction), the outbox holds them and delivers after the heal. */
export const chainKafkaPartition: Fault = {
  name: 'chain-cut-from-kafka',
  holdMs: 10_000,
  async apply({ topology }) {
    await topology.net.cut(topology.host('chain'), topology.host('kafka'));
    return ['chain jobs keep moving while Kafka is away (the jobs table is the queue, chain.jobs only wakes the pump): what the outbox holds are the messages'];
  },
  felt: ({ outboxAtHeal }) => (outboxAtHeal ? undefined : `the outbox held ${outboxAtHeal} messages at the heal`),
};

/** The chain service cut from the node while jobs are sent: sends whose answer never came, receipts not yet read. */
export const chainNodePartition: Fault = {
  name: 'chain-cut-from-node',
  holdMs: 10_000,
  async apply({ topology }) {
    await topology.net.cut(topology.host('chain'), topology.host('evm'));
    return [];
  },
  felt: ({ jobsPendingAtHeal }) => (jobsPendingAtHeal ? undefined : `${jobsPendingAtHeal} jobs were waiting for the node at the heal`),
};

export const FAULTS = [postgresPartition, chainKafkaPartition, chainNodePartition, gatewayPortfolioPartition, slowLossyLinks];

/**
 * One fault under a steady load (one client per kind of write, each write once, a short back-off after a
 * failure): load until every kind was acknowledged, apply the fault and hold it, heal, measure the recovery,
 * let the clients retry what stayed in doubt, and check the history against what is stored.
 */
export async function runFault(system: FaultSystem, fault: Fault, history = new History(REQUEST_DEADLINE_MS)): Promise<FaultReport> {
  // An account per fault: what the checker lists is this fault's writes only.
  const sys: Clients = { ...system, apiKey: await createUserAccount(system.topology.url, OPERATOR, `Faults ${fault.name}`) };
  let stopped = false;
  let n = 0;
  const tag = fault.name.replace(/[^a-z]/g, '').slice(0, 12);
  const loop = async (kind: Kind) => {
    while (!stopped) {
      const op = await history.invoke(write(sys, kind, `${tag}-${kind}-${n++}`));
      await sleep(op.result !== 'acknowledged' ? 200 : Math.max(0, PACE_MS - (op.endedAt! - op.invokedAt)));
    }
  };
  const loops = KINDS.map(loop);
  const ackedSince = (since: number, kind: Kind) => history.since(since).some((o) => o.kind === kind && o.result === 'acknowledged');
  let notes: string[] = [];
  let faultAt = 0;
  let healAt = 0;
  let recoverySeconds = Number.NaN;
  let jobsPendingAtHeal: number | null = null;
  let outboxAtHeal: number | null = null;
  let impairment: Impairment | null = null;
  try {
    const start = Date.now();
    await until(async () => KINDS.every((k) => ackedSince(start, k)), Boolean, 'every kind of write acknowledged before the fault', 60_000, 100);
    faultAt = Date.now();
    notes = await fault.apply(sys);
    await sleep(fault.holdMs);
    jobsPendingAtHeal = await listJobs(sys.topology.url, sys.apiKey).then(
      (jobs) => jobs.filter((j) => j.status !== 'COMPLETED' && j.status !== 'FAILED').length,
      () => null,
    );
    outboxAtHeal = await outboxRows(sys).catch(() => null);
    impairment = sys.topology.net.impaired() ?? null;
    healAt = Date.now();
    await sys.topology.net.heal();
    await until(async () => KINDS.every((k) => ackedSince(healAt, k)), Boolean, 'every kind of write acknowledged after the heal', 120_000, 100);
    recoverySeconds = (Date.now() - healAt) / 1000;
  } finally {
    await sys.topology.net.heal();
    stopped = true;
    await Promise.all(loops);
  }
  // What a client does with an answer it could not trust: send it again (the same name, the same key).
  for (const name of history.inDoubt()) {
    const [kind] = name.split('-').slice(1) as [Kind];
    await history.invoke(write(sys, kind, name), true);
  }
  // Chain jobs accepted must end; every job this account ever had is on the node once.
  const jobs = (await until(
    () => readable(() => listJobs(sys.topology.url, sys.apiKey)),
    (list) => list !== undefined && list.every((j) => j.status === 'COMPLETED' || j.status === 'FAILED'),
    'every chain job final',
    120_000,
  ))!;
  const jobsSettledSeconds = (Date.now() - healAt) / 1000;
  await until(() => readable(() => outboxRows(sys)), (n) => n === 0, 'the outbox drained', 60_000, 200);
  const outboxDrainedSeconds = (Date.now() - healAt) / 1000;
  // Every job's completion was delivered on chain.job-events at least once (through the outbox, whatever the fault).
  const events = await sys.topology.jobEvents();
  const completedEvents = new Set(events.filter((e) => e.status.toLowerCase() === 'completed').map((e) => e.jobId));
  const undelivered = jobs.filter((j) => j.status === 'COMPLETED' && !completedEvents.has(j.id)).map((j) => j.id);
  let minedOncePerJob = true;
  const check = await history.check(async (kind) => (await until(() => readable(() => present(sys, kind)), Boolean, `${kind}s listed`))!);
  const during = history.ops.filter((o) => o.invokedAt >= faultAt && o.endedAt! <= healAt && o.result === 'acknowledged');
  const duringFault = Object.fromEntries(KINDS.map((k) => [k, during.filter((o) => o.kind === k).length])) as Record<Kind, number>;
  const beforeFault = history.ops.filter((o) => o.endedAt! < faultAt && o.result === 'acknowledged');
  const medianAckMs = { beforeFault: median(beforeFault.map((o) => o.endedAt! - o.invokedAt)), duringFault: median(during.map((o) => o.endedAt! - o.invokedAt)) };
  if (undelivered.length) check.violations.push(`${undelivered.length} completed jobs without a completed event on chain.job-events: ${undelivered.slice(0, 5).join(', ')}`);
  const unfelt = fault.felt?.({ outboxAtHeal, jobsPendingAtHeal, unknown: check.unknown, duringFault, medianAckMs });
  if (unfelt) check.violations.push(`the fault was not felt: ${unfelt}`);
  try {
    await assertOneTransactionPerJobOnChain(sys.topology.url, 'sepolia', jobs);
  } catch (err) {
    minedOncePerJob = false;
    check.violations.push(`chain: ${(err as Error).message}`);
  }
  return {
    fault: fault.name,
    ...check,
    faultSeconds: (healAt - faultAt) / 1000,
    recoverySeconds,
    duringFault,
    medianAckMs,
    jobsPendingAtHeal,
    outboxAtHeal,
    outboxDrainedSeconds,
    jobsSettledSeconds,
    jobEvents: events.length,
    chainJobs: jobs.length,
    minedOncePerJob,
    impairment,
    notes,
  };
}

function median(values: number[]): number | null {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted.length ? sorted[Math.floor(sorted.length / 2)]! : null;
}

/** Whether the report says nothing was lost, doubled or answered wrongly. */
export const clean = (r: FaultReport) => !r.lost.length && !r.doubled.length && !r.refusedPresent.length && !r.violations.length && r.minedOncePerJob;
