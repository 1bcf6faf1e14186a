import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Wallet, type TransactionRequest } from 'ethers';

// A remote signer as its own process, for tests of the chain service's remoteSigner: it holds
// REMOTE_SIGNER_KEY and answers Web3Signer's Eth1 JSON-RPC subset the service uses — eth_accounts and
// eth_signTransaction (legacy gasPrice or EIP-1559 fees) — on 127.0.0.1:REMOTE_SIGNER_PORT (0: any).
// GET /signed answers how many transactions it signed. Prints one JSON line {url, address} once it serves.
const wallet = new Wallet(process.env['REMOTE_SIGNER_KEY'] ?? '');
let signed = 0;

type Params = Record<string, string | undefined>;

async function answer(method: string, params: unknown[]): Promise<unknown> {
  if (method === 'eth_accounts') return [wallet.address];
  if (method !== 'eth_signTransaction') throw Object.assign(new Error(`Method ${method} not supported`), { code: -32601 });
  const p = (params[0] ?? {}) as Params;
  if (p['from']?.toLowerCase() !== wallet.address.toLowerCase()) throw Object.assign(new Error(`No key for account ${p['from']}`), { code: -32000 });
  const big = (v: string | undefined) => (v === undefined ? undefined : BigInt(v));
  const tx: TransactionRequest = {
    ...(p['to'] ? { to: p['to'] } : {}),
    data: p['data'] ?? '0x',
    value: big(p['value']) ?? 0n,
    nonce: Number(p['nonce']),
    gasLimit: big(p['gas']),
    chainId: big(p['chainId']),
    ...(p['gasPrice'] !== undefined
      ? { type: 0, gasPrice: big(p['gasPrice']) }
      : { type: 2, maxFeePerGas: big(p['maxFeePerGas']), maxPriorityFeePerGas: big(p['maxPriorityFeePerGas']) }),
  };
  const raw = await wallet.signTransaction(tx);
  signed++;
  return raw;
}

const server = http.createServer((req, res) => {
  if (req.method === 'GET' && req.url === '/signed') {
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ signed }));
    return;
  }
  const chunks: Buffer[] = [];
  req.on('data', (c: Buffer) => chunks.push(c));
  req.on('end', () => {
    let body: { id?: unknown; method?: string; params?: unknown[] };
    try {
      body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as typeof body;
    } catch {
      res.writeHead(400).end();
      return;
    }
    answer(String(body.method), body.params ?? []).then(
      (result) => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ jsonrpc: '2.0', id: body.id, result })),
      (err: { code?: number; message?: string }) =>
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ jsonrpc: '2.0', id: body.id, error: { code: err.code ?? -32603, message: err.message } })),
    );
  });
});
server.listen(Number(process.env['REMOTE_SIGNER_PORT'] ?? 0), '127.0.0.1', () => {
  process.stdout.write(`${JSON.stringify({ url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, address: wallet.address })}\n`);
});
process.once('SIGTERM', () => server.close());
