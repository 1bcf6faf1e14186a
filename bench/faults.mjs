#!/usr/bin/env node
// npm run faults — the network faults of issue 50, each under a steady client load, against the distributed
// topology on test hosts of its own (network namespaces; needs root, ip and nft: scripts/setup-test-machine.sh).
// Writes bench/faults.json: per fault, operations invoked, acknowledged, refused, unknown, lost and doubled
// (both must be 0), violations (500s, hangs, chain transactions not mined once), and the seconds from the heal
// until every kind of write is acknowledged again. Exits 1 when any fault lost, doubled or answered wrongly.
// FAULTS=name,name runs some of them (names as in the JSON). The shortest runs in the test suite
// (test/src/faults-network.test.ts).
import { writeFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { machine } from './lib/machine.mjs';

const { FAULTS, clean, runFault, startFaultSystem } = await import('../test/dist/support/fault-scenarios.js');
const { netnsSkipReason } = await import('../test/dist/support/netns.js');

const t0 = performance.now();
const progress = (msg) => console.log(`[faults +${((performance.now() - t0) / 1000).toFixed(0).padStart(3)} s] ${msg}`);
const reason = netnsSkipReason();
if (reason) {
  console.error(`npm run faults: ${reason}`);
  process.exit(78);
}
const wanted = process.env.FAULTS?.split(',').map((s) => s.trim()).filter(Boolean);
const faults = FAULTS.filter((f) => !wanted || wanted.includes(f.name));
progress('starting the topology on its own hosts');
const sys = await startFaultSystem();
const results = [];
try {
  for (const fault of faults) {
    progress(`${fault.name}: ${fault.holdMs / 1000} s under load`);
    const report = await runFault(sys, fault);
    results.push(report);
    progress(`${fault.name}: invoked ${report.invoked}, acknowledged ${report.acknowledged}, unknown ${report.unknown}, lost ${report.lost.length}, doubled ${report.doubled.length}, violations ${report.violations.length}, recovered ${report.recoverySeconds} s after the heal`);
  }
} finally {
  await sys.topology.stop();
}
const out = {
  machine: machine(),
  at: new Date().toISOString(),
  faults: results.map((r) => ({ ...r, lostCount: r.lost.length, doubledCount: r.doubled.length })),
};
const file = fileURLToPath(new URL('faults.json', import.meta.url));
writeFileSync(file, JSON.stringify(out, null, 2) + '\n');
progress(`wrote ${file}`);
if (!results.every(clean)) process.exitCode = 1;
