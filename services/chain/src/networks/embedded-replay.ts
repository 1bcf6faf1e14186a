import type { DataSource } from 'typeorm';
import type { Logger } from '@green-impact/shared/logger';
import type { SentTransaction } from '../jobs/job-types.js';
import type { ChainNetwork } from './chain-network.js';

/**
 * An embedded network starts empty on every start, while the database keeps the jobs. To keep what was
 * written readable (documents re-read their anchors from the chain), every mined transaction is sent
 * again, in nonce order, right after the contracts are deployed at the same addresses (same signer, same
 * nonces). Signed transactions are stored with their jobs, so nothing needs the key but the gap filler:
 * a nonce the service has no mined transaction for (used outside the service) gets an empty transfer.
 * Blocks and timestamps differ from the first run; state and addresses are the same.
 */
export async function replayEmbeddedHistory(ds: DataSource, network: ChainNetwork, log: Logger): Promise<number> {
  const rows: { nonce: string; tx_hash: string; transactions: SentTransaction[] }[] = await ds.query(
    `SELECT nonce, tx_hash, transactions FROM chain.jobs
      WHERE chain_instance = $1 AND signer = $2 AND nonce IS NOT NULL AND receipt IS NOT NULL
      ORDER BY nonce`,
    [network.instanceId, network.signerAddress],
  );
  let replayed = 0;
  for (const row of rows) {
    const nonce = Number(row.nonce);
    let next = await network.provider.getTransactionCount(network.signerAddress, 'latest');
    if (next > nonce) continue; // deployments, or already there
    while (next < nonce) {
      await (await network.wallet.sendTransaction({ to: network.signerAddress, value: 0n, nonce: next })).wait();
      next++;
    }
    const tx = row.transactions.find((t) => t.hash === row.tx_hash) ?? row.transactions[row.transactions.length - 1];
    try {
      if (!tx) throw new Error('no signed transaction stored');
      await network.provider.broadcastTransaction(tx.raw);
      replayed++;
    } catch (err) {
      // Keep the nonce sequence whole so later transactions still replay.
      log.warn({ err, network: network.name, nonce }, 'could not replay a transaction; its nonce gets an empty transfer');
      await (await network.wallet.sendTransaction({ to: network.signerAddress, value: 0n, nonce })).wait();
    }
  }
  if (replayed > 0) log.info({ network: network.name, transactions: replayed }, 'embedded network history replayed');
  return replayed;
}
