import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { formatEther } from 'ethers';
import { createLogger } from '@green-impact/shared/logger';
import { metricsRegistry } from '@green-impact/shared/metrics';
import { registerBalanceMetrics } from './balance-metrics.js';
import { NetworkRegistry } from './network-registry.js';
import { embeddedNetworkSpecs } from './network-spec.js';

describe('chain_signer_balance', () => {
  it('reports each network\'s signer balance in its coin, once per network (aliases left out), until unregistered', async () => {
    const networks = await NetworkRegistry.open(embeddedNetworkSpecs(), createLogger('balance-test', { level: 'silent' }));
    const unregister = registerBalanceMetrics(networks, createLogger('balance-test', { level: 'silent' }));
    try {
      const sepolia = networks.resolve('sepolia').network;
      const expected = Number(formatEther(await sepolia.provider.getBalance(sepolia.signerAddress)));
      assert.ok(expected > 0);
      const metric = await metricsRegistry.getSingleMetric('chain_signer_balance')!.get();
      const values = metric.values.map((v) => [v.labels['network'], v.labels['currency'], v.value]);
      assert.deepEqual(values.sort(), [['amoy', 'POL', expected], ['sepolia', 'ETH', expected]].sort());
    } finally {
      unregister();
      networks.close();
    }
    assert.deepEqual((await metricsRegistry.getSingleMetric('chain_signer_balance')!.get()).values, []);
  });
});
