import type { ChainNetwork } from '../networks/chain-network.js';

/** What the node answered about one document, and when. */
interface Facts {
  answers: Map<string, unknown>;
  readAt: Date;
}

/** A JSON-RPC call as the proof verifier makes them. */
export type Rpc = (method: string, params: unknown[]) => Promise<unknown>;

/**
 * The chain facts a document read checks its content against — the anchor (sha256, CID) or the batch's
 * root held by the contract, the transaction's receipt — kept once they cannot change: the transaction is
 * past the network's confirmations. A later read replays them instead of asking the node, and still hashes
 * the stored content against them, so a tampered file fails at once (docs/decisions.md, "Verification:
 * the chain facts are kept, the content is hashed on every view"). Bounded: the oldest entry goes first.
 * Per process: a replica that has not read a document asks the node once itself.
 */
export class ChainFactsCache {
  private readonly entries = new Map<string, Facts>();

  constructor(private readonly maxEntries = 10_000) {}

  /**
   * Runs `check` with an Rpc that answers from the kept facts of `key`, or records what the node answers;
   * the record is kept when `confirmedBlock` (the block the facts were written in, known after the check)
   * is past the network's confirmations. Answers the check's result and when its facts were read.
   */
  async read<T>(key: string, network: ChainNetwork, check: (rpc: Rpc) => Promise<T>, confirmedBlock: (result: T) => number | undefined): Promise<{ result: T; readAt: Date }> {
    const kept = this.entries.get(key);
    if (kept) {
      const replay: Rpc = async (method, params) => {
        const id = `${method}\0${JSON.stringify(params)}`;
        if (!kept.answers.has(id)) throw new Error(`no kept answer for ${method}`);
        return kept.answers.get(id);
      };
      try {
        return { result: await check(replay), readAt: kept.readAt };
      } catch {
        // The check asked something new (another code path): read the node as the first time.
        this.entries.delete(key);
      }
    }
    const answers = new Map<string, unknown>();
    const readAt = new Date();
    const record: Rpc = async (method, params) => {
      const answer: unknown = await network.provider.send(method, params);
      answers.set(`${method}\0${JSON.stringify(params)}`, answer);
      return answer;
    };
    const result = await check(record);
    const block = confirmedBlock(result);
    if (block !== undefined && answers.size > 0) {
      const head = await network.provider.getBlockNumber();
      if (head - block + 1 >= Math.max(1, network.tuning.confirmations)) this.keep(key, { answers, readAt });
    }
    return { result, readAt };
  }

  private keep(key: string, facts: Facts): void {
    this.entries.delete(key);
    this.entries.set(key, facts);
    while (this.entries.size > this.maxEntries) this.entries.delete(this.entries.keys().next().value!);
  }
}
