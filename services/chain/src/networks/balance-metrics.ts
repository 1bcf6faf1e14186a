import { formatEther } from 'ethers';
import { Gauge } from 'prom-client';
import { metricsRegistry } from '@green-impact/shared/metrics';
import type { Logger } from '@green-impact/shared/logger';
import type { NetworkRegistry } from './network-registry.js';

/** A balance read is reused for this long: a scrape every 15 s costs one eth_getBalance per network per half minute. */
const BALANCE_TTL_MS = 30_000;

interface Reading {
  at: number;
  value: number;
}

const sources = new Set<{ networks: NetworkRegistry; log: Logger; readings: Map<string, Reading> }>();

/**
 * chain_signer_balance{network, currency}: each network's signer balance in its native coin, read at scrape
 * time (at most every 30 s per network; the last reading is reported again while the node does not answer,
 * and none before the first). An empty balance shows as jobs only queueing: GreenImpactSignerBalanceLow
 * alerts before that.
 */
const gauge = new Gauge({
  name: 'chain_signer_balance',
  help: 'Balance of each network\'s signer in the native coin (read at most every 30 s).',
  labelNames: ['network', 'currency'] as const,
  registers: [metricsRegistry],
  async collect() {
    this.reset();
    for (const source of sources) {
      await Promise.all(
        source.networks.networks().map(async (n) => {
          let reading = source.readings.get(n.name);
          if (!reading || Date.now() - reading.at > BALANCE_TTL_MS) {
            try {
              reading = { at: Date.now(), value: Number(formatEther(await n.provider.getBalance(n.signerAddress))) };
              source.readings.set(n.name, reading);
            } catch (err) {
              source.log.warn({ network: n.name, err: (err as Error).message }, 'signer balance not read');
            }
          }
          if (reading) this.set({ network: n.name, currency: n.nativeCurrencySymbol }, reading.value);
        }),
      );
    }
  },
});

/** Reports the signers' balances of `networks` until the returned function is called (at service close). */
export function registerBalanceMetrics(networks: NetworkRegistry, log: Logger): () => void {
  void gauge;
  const source = { networks, log, readings: new Map<string, Reading>() };
  sources.add(source);
  return () => void sources.delete(source);
}
