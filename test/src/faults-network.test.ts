import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { clean, postgresPartition, runFault, startFaultSystem, type FaultSystem } from './support/fault-scenarios.js';
import { netnsSkipReason } from './support/netns.js';
import { postgresServerSkipReason } from './support/netns-topology.js';

/**
 * Issue 50, the shortest of the network faults (the rest run from `npm run faults`, bench/faults.mjs): the
 * distributed topology on test hosts of its own (network namespaces joined by veth pairs to a bridge; a
 * private PostgreSQL server, Kafka's mock cluster and a JSON-RPC node each on a host of its own), clients writing users (/v1/call), investors (GraphQL) and
 * chain jobs (/v1/call with Idempotency-Key), and every service that writes cut from PostgreSQL for a while
 * (packets dropped: transactions in flight, commits included, lose their link). After the heal every
 * acknowledged write is stored exactly once, no refused one is, each chain job's transaction is mined once,
 * and every failure the clients saw was a clear 503/504, never a 500, never later than the request deadline.
 */
describe('network faults: services cut from PostgreSQL under load', { skip: netnsSkipReason() || postgresServerSkipReason(), timeout: 180_000 }, () => {
  let sys: FaultSystem;

  before(async () => {
    sys = await startFaultSystem();
  });

  after(async () => {
    const exits = await sys?.topology.stop();
    // Every process survived the partition and stopped cleanly.
    assert.deepEqual(exits?.filter((e) => e.code !== 0 && e.name !== 'postgres'), [], sys?.topology.output().slice(-4000));
  });

  it('loses nothing, doubles nothing, answers 503/504 and recovers after the heal', async (t) => {
    const report = await runFault(sys, postgresPartition);
    t.diagnostic(JSON.stringify(report));
    assert.deepEqual(sys.topology.exits(), [], 'no process exited during the fault');
    assert.ok(report.unknown > 0, 'the partition was felt: some writes ended in doubt');
    assert.ok(report.acknowledged > 0);
    assert.deepEqual(report.lost, [], 'acknowledged writes lost');
    assert.deepEqual(report.doubled, [], 'writes stored twice');
    assert.deepEqual(report.refusedPresent, [], 'refused writes stored');
    assert.deepEqual(report.violations, [], '500s, hangs, broken answers, chain transactions');
    assert.ok(clean(report));
  });
});
