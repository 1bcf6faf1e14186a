import assert from 'node:assert/strict';
import type { ListedJob } from './account-reads.js';

const RELAY_MAX_BATCH = 100;

/** JSON-RPC calls in one batch through the gateway's public read-only relay (POST /rpc/<network>); the results in order. */
export async function relayBatch(baseUrl: string, network: string, calls: [method: string, params: unknown[]][]): Promise<any[]> {
  if (calls.length === 0) return [];
  // The relay takes at most 100 calls per batch (JSON-RPC -32600 beyond).
  if (calls.length > RELAY_MAX_BATCH) {
    const out: any[] = [];
    for (let i = 0; i < calls.length; i += RELAY_MAX_BATCH) out.push(...(await relayBatch(baseUrl, network, calls.slice(i, i + RELAY_MAX_BATCH))));
    return out;
  }
  const res = await fetch(`${baseUrl}/rpc/${network}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(calls.map(([method, params], id) => ({ jsonrpc: '2.0', id, method, params }))),
  });
  const text = await res.text();
  assert.equal(res.status, 200, text);
  const answers = JSON.parse(text) as { id: number; result?: unknown; error?: unknown }[];
  assert.ok(Array.isArray(answers), `a batch of ${calls.length} calls answered ${text.slice(0, 500)}`);
  return calls.map((_, id) => {
    const answer = answers.find((a) => a.id === id);
    assert.ok(answer && answer.error === undefined, `${calls[id]![0]}: ${JSON.stringify(answer)}`);
    return answer.result;
  });
}

/**
 * Counts on the node, where no unique constraint of the jobs table helps: every completed job's transaction
 * is mined, all from one signer with consecutive nonces, and the signer's latest and pending counts end
 * right after the last of them (nothing sent twice after the first job, nothing left in the pool). The jobs
 * must be every job the signer sent since its first one (on a chain of their own).
 */
export async function assertOneTransactionPerJobOnChain(baseUrl: string, network: string, jobs: ListedJob[]): Promise<void> {
  const completed = jobs.filter((j) => j.status === 'COMPLETED');
  assert.deepEqual(jobs.filter((j) => j.status !== 'COMPLETED').map((j) => [j.id, j.status]), [], 'every job completed');
  const txs = (await relayBatch(baseUrl, network, completed.map((j) => ['eth_getTransactionByHash', [j.txHash]]))) as
    ({ from: string; nonce: string; blockNumber: string | null } | null)[];
  txs.forEach((tx, i) => assert.ok(tx?.blockNumber, `job ${completed[i]!.id}: its transaction ${completed[i]!.txHash} is mined`));
  const signers = new Set(txs.map((tx) => tx!.from.toLowerCase()));
  assert.equal(signers.size, 1, `one signer: ${[...signers]}`);
  const nonces = txs.map((tx) => Number(tx!.nonce)).sort((a, b) => a - b);
  const first = nonces[0]!;
  assert.deepEqual(nonces, nonces.map((_, i) => first + i), 'consecutive nonces, one per job');
  const [signer] = signers;
  const [latest, pending] = (await relayBatch(baseUrl, network, [
    ['eth_getTransactionCount', [signer, 'latest']],
    ['eth_getTransactionCount', [signer, 'pending']],
  ])) as string[];
  assert.equal(Number(latest), first + completed.length, 'the signer mined one transaction per job');
  assert.equal(Number(pending), first + completed.length, 'nothing left in the pool');
}
