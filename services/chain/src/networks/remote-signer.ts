import {
  AbstractSigner,
  copyRequest,
  resolveAddress,
  getAddress,
  toQuantity,
  Transaction,
  type Provider,
  type TransactionLike,
  type TransactionRequest,
  type TypedDataDomain,
  type TypedDataField,
} from 'ethers';

/** Where a network's signer key lives when it is not in this process: a signer speaking Web3Signer's JSON-RPC. */
export interface RemoteSignerSpec {
  /** The signer's JSON-RPC endpoint (Web3Signer's Eth1 `eth_signTransaction`). */
  url: string;
  /** The account it signs for: the registry's writer and the NFTs' custody wallet. */
  address: string;
  /** How long one signing request may take. */
  timeoutMs: number;
  /** Sent as `Authorization` when set (read from a file, e.g. a mounted Secret; never logged). */
  authorization?: string | undefined;
}

/**
 * An ethers signer whose key stays in a remote signer (Web3Signer, a KMS-backed signer behind the same
 * interface): each transaction is sent to it as `eth_signTransaction` and the raw transaction it answers
 * is checked before use (same sender, chain, nonce, recipient, data, gas and fees), so a misconfigured
 * or compromised signer cannot slip a different transaction into the nonce sequence. The nonce manager
 * is unchanged: it fills the nonce, this only signs.
 */
export class RemoteSigner extends AbstractSigner {
  private nextId = 1;

  constructor(
    readonly spec: RemoteSignerSpec,
    private readonly chainId: number,
    provider: Provider | null = null,
  ) {
    super(provider);
  }

  override async getAddress(): Promise<string> {
    return getAddress(this.spec.address);
  }

  override connect(provider: Provider | null): RemoteSigner {
    return new RemoteSigner(this.spec, this.chainId, provider);
  }

  override async signTransaction(request: TransactionRequest): Promise<string> {
    // As ethers' Wallet does: the caller filled nonce, gas and fees (sendTransaction populates first).
    const from = await this.getAddress();
    const { to, from: asked, ...rest } = copyRequest(request);
    if (asked !== undefined && getAddress(await resolveAddress(asked, this.provider)) !== from) {
      throw new Error(`Transaction from ${String(asked)} cannot be signed by the remote signer of ${from}.`);
    }
    const tx = Transaction.from({ ...rest, ...(to ? { to: await resolveAddress(to, this.provider) } : {}) } as TransactionLike<string>);
    const params: Record<string, string> = {
      from,
      gas: toQuantity(tx.gasLimit),
      value: toQuantity(tx.value),
      data: tx.data,
      nonce: toQuantity(tx.nonce),
      chainId: toQuantity(tx.chainId || BigInt(this.chainId)),
    };
    if (tx.to) params['to'] = tx.to;
    if (tx.type === 0 || tx.type === 1) {
      params['gasPrice'] = toQuantity(tx.gasPrice ?? 0n);
    } else {
      params['maxFeePerGas'] = toQuantity(tx.maxFeePerGas ?? 0n);
      params['maxPriorityFeePerGas'] = toQuantity(tx.maxPriorityFeePerGas ?? 0n);
    }
    const raw = await this.rpc('eth_signTransaction', [params]);
    if (typeof raw !== 'string' || !/^0x[0-9a-fA-F]+$/.test(raw)) throw new Error(`The remote signer answered no signed transaction (${this.where()}).`);
    checkSigned(Transaction.from(raw), tx, from, BigInt(this.chainId), this.where());
    return raw;
  }

  override signMessage(): Promise<string> {
    return Promise.reject(new Error('The chain service signs transactions only; the remote signer is not asked to sign messages.'));
  }

  override signTypedData(_domain: TypedDataDomain, _types: Record<string, TypedDataField[]>, _value: Record<string, unknown>): Promise<string> {
    return Promise.reject(new Error('The chain service signs transactions only; the remote signer is not asked to sign typed data.'));
  }

  /** The accounts the signer holds (`eth_accounts`): used at start to check it holds the configured one. */
  async accounts(): Promise<string[]> {
    const answer = await this.rpc('eth_accounts', []);
    return Array.isArray(answer) ? answer.filter((a): a is string => typeof a === 'string').map((a) => getAddress(a)) : [];
  }

  /** The signer's origin only: its path or query may carry a token. */
  private where(): string {
    return new URL(this.spec.url).origin;
  }

  private async rpc(method: string, params: unknown[]): Promise<unknown> {
    let res: Response;
    try {
      res = await fetch(this.spec.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...(this.spec.authorization ? { authorization: this.spec.authorization } : {}) },
        body: JSON.stringify({ jsonrpc: '2.0', id: this.nextId++, method, params }),
        signal: AbortSignal.timeout(this.spec.timeoutMs),
      });
    } catch (err) {
      throw new Error(`The remote signer at ${this.where()} did not answer ${method}: ${(err as Error).message}`);
    }
    let body: { result?: unknown; error?: { code?: number; message?: string } };
    try {
      body = (await res.json()) as typeof body;
    } catch {
      throw new Error(`The remote signer at ${this.where()} answered ${method} with HTTP ${res.status} and no JSON-RPC body.`);
    }
    if (body.error) throw new Error(`The remote signer at ${this.where()} refused ${method}: ${body.error.message ?? 'no message'} (${body.error.code ?? '?'})`);
    return body.result;
  }
}

/** The signed transaction must be the one asked for, from the configured account on this chain. */
export function checkSigned(signed: Transaction, asked: Transaction, from: string, chainId: bigint, where: string): void {
  const differs: string[] = [];
  if (signed.from === null || getAddress(signed.from) !== from) differs.push(`sender ${signed.from ?? 'none'}`);
  if (signed.chainId !== chainId) differs.push(`chain id ${signed.chainId}`);
  if (signed.nonce !== asked.nonce) differs.push(`nonce ${signed.nonce}`);
  if ((signed.to ?? '').toLowerCase() !== (asked.to ?? '').toLowerCase()) differs.push(`recipient ${signed.to ?? 'none'}`);
  if (signed.data.toLowerCase() !== asked.data.toLowerCase()) differs.push('data');
  if (signed.value !== asked.value) differs.push(`value ${signed.value}`);
  if (signed.gasLimit !== asked.gasLimit) differs.push(`gas ${signed.gasLimit}`);
  const fee = (t: Transaction) => (t.type === 0 || t.type === 1 ? `${t.gasPrice}` : `${t.maxFeePerGas}/${t.maxPriorityFeePerGas}`);
  if (fee(signed) !== fee(asked)) differs.push(`fees ${fee(signed)}`);
  if (differs.length) throw new Error(`The remote signer at ${where} signed a different transaction than asked (${differs.join(', ')}); not sent.`);
}
