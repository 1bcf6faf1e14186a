import { addressOfWord, quantity, TRANSFER_TOPIC, type RpcBlock, type RpcReceipt } from './evm-reads.js';
import { html, type Html } from '@green-impact/shared/html';
import { page, row } from '@green-impact/shared/page';

/**
 * The explorer pages the gateway serves at GET /explorer/<network>/tx/<hash> and
 * /explorer/<network>/block/<number> (RenderExplorerPage, explorer-pages.ts): a transaction's receipt and
 * a block for networks without a block explorer (the embedded ones), read through the JSON-RPC relay on
 * the pages' quota. Pure renderers.
 */

const mono = (v: unknown): Html | '' => (v === undefined || v === null || v === '' ? '' : html`<span class="mono">${v}</span>`);

/** Wei as ether-style units (18 decimals), trimmed: the native coin's name is the network's. */
export function formatUnits(wei: string, decimals = 18): string {
  const v = BigInt(wei);
  const base = 10n ** BigInt(decimals);
  const fraction = (v % base).toString().padStart(decimals, '0').replace(/0+$/, '');
  return fraction ? `${v / base}.${fraction}` : `${v / base}`;
}

/** An ERC-721 / ERC-20 Transfer log in words: from, to and the token id (or amount). */
function transferText(log: NonNullable<RpcReceipt['logs']>[number]): Html | undefined {
  const topics = log.topics ?? [];
  if (topics[0]?.toLowerCase() !== TRANSFER_TOPIC || topics.length !== 4) return undefined;
  const [from, to, id] = [addressOfWord(topics[1]), addressOfWord(topics[2]), quantity(topics[3])];
  if (!from || !to || id === undefined) return undefined;
  const minted = /^0x0{40}$/.test(from);
  return html`<strong>Transfer</strong> of token ${id} ${minted ? 'minted' : html`from <span class="mono">${from}</span>`} to <span class="mono">${to}</span>`;
}

function logsTable(logs: NonNullable<RpcReceipt['logs']>): Html {
  if (logs.length === 0) return html`<p>No event logs.</p>`;
  return html`<table>${logs.map(
    (l, i) => html`<tr><th>Log ${quantity(l.logIndex) ?? i}</th><td>
${transferText(l) ?? ''}
<div>Contract ${mono(l.address)}</div>
${(l.topics ?? []).map((t, j) => html`<div>topic ${j}: ${mono(t)}</div>`)}
<div>data: ${mono(l.data && l.data.length > 2_050 ? `${l.data.slice(0, 2_050)}…` : l.data)}</div>
</td></tr>`,
  )}</table>`;
}

export function receiptPage(network: string, receipt: RpcReceipt): string {
  const ok = quantity(receipt.status) === '1';
  const gasUsed = quantity(receipt.gasUsed);
  const price = quantity(receipt.effectiveGasPrice);
  const cost = gasUsed !== undefined && price !== undefined ? formatUnits((BigInt(gasUsed) * BigInt(price)).toString()) : undefined;
  const body = html`<table>
${row('Status', ok ? html`<span class="ok">success</span>` : html`<span class="bad">reverted</span>`)}
${row('Network', network)}
${row('Transaction', mono(receipt.transactionHash))}
${row('Block', blockLink(network, quantity(receipt.blockNumber)))}
${row('Block hash', mono(receipt.blockHash))}
${row('From', mono(receipt.from))}
${row('To', mono(receipt.to))}
${row('Contract created', mono(receipt.contractAddress))}
${row('Gas used', gasUsed)}
${row('Gas price', price !== undefined ? `${formatUnits(price, 9)} gwei` : '')}
${row('Cost', cost !== undefined ? `${cost} (native coin of ${network})` : '')}
</table>
<h2>Event logs</h2>
${logsTable(receipt.logs ?? [])}
<p class="sub">Read now from network ${network} through this gateway's JSON-RPC relay (POST /rpc/${network}).</p>`;
  return page('Transaction', body, `${network} · ${receipt.transactionHash}`);
}

/** A transaction the network knows but has not mined yet. */
export function pendingTransactionPage(network: string, hash: string): string {
  return page('Transaction', html`<p class="note">Transaction <span class="mono">${hash}</span> is waiting to be mined on ${network}. Reload in a moment.</p>`, network);
}

/** This gateway's page of a block, for a network without an explorer. */
export function blockPath(network: string, blockNumber: string | number): string {
  return `/explorer/${encodeURIComponent(network)}/block/${blockNumber}`;
}

const blockLink = (network: string, n: string | undefined): Html | '' => (n === undefined ? '' : html`<a href="${blockPath(network, n)}">${n}</a>`);

/** A mined block: its number, hash, time and gas, and its transactions, each linked to its receipt page. */
export function blockPage(network: string, block: RpcBlock): string {
  const n = quantity(block.number);
  const seconds = quantity(block.timestamp);
  const time = seconds !== undefined ? new Date(Number(seconds) * 1000).toISOString() : undefined;
  const parent = n !== undefined && n !== '0' ? (BigInt(n) - 1n).toString() : undefined;
  const txs = block.transactions ?? [];
  const body = html`<table>
${row('Network', network)}
${row('Block', n)}
${row('Block hash', mono(block.hash))}
${row('Parent', parent !== undefined ? html`${blockLink(network, parent)} ${mono(block.parentHash)}` : mono(block.parentHash))}
${row('Mined at', time !== undefined ? html`<time datetime="${time}">${time}</time>` : '')}
${row('Miner', mono(block.miner))}
${row('Gas used', quantity(block.gasUsed))}
${row('Gas limit', quantity(block.gasLimit))}
${row('Base fee', block.baseFeePerGas !== undefined && quantity(block.baseFeePerGas) !== undefined ? `${formatUnits(quantity(block.baseFeePerGas)!, 9)} gwei` : '')}
</table>
<h2>Transactions (${txs.length})</h2>
${txs.length === 0 ? html`<p>No transactions.</p>` : html`<ol>${txs.map((h) => html`<li><a class="mono" href="/explorer/${encodeURIComponent(network)}/tx/${h}">${h}</a></li>`)}</ol>`}
<p class="sub">Read now from network ${network} through this gateway's JSON-RPC relay (POST /rpc/${network}).</p>`;
  return page('Block', body, `${network} · block ${n ?? ''}`);
}
