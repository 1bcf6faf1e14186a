import type { Logger } from '@green-impact/shared/logger';
import type { ChainNetwork } from '../networks/chain-network.js';
import type { SentTransaction } from '../jobs/job-types.js';
import { broadcast } from './transactions.js';

/** A job's signed transaction, committed as SUBMITTED, waiting to be broadcast. */
export interface Signed {
  jobId: string;
  sent: SentTransaction;
}

/** Batches signed ahead of the one being broadcast; the sender waits for room before preparing more. */
const MAX_WAITING_BATCHES = 1;

/**
 * One signer's broadcasts, strictly in nonce order, one batch after the other, while the sender prepares
 * the next batch. A node that does not answer stops the line: what is left stays SUBMITTED with its raw
 * transaction and the tracker sends it again in nonce order. A refused transaction stops it too: every
 * batch still waiting is dropped (those jobs go back to the queue through `onRefused`), so no later nonce
 * is left waiting behind a gap that will never fill.
 */
export class Broadcaster {
  private tail: Promise<void> = Promise.resolve();
  private epoch = 0;
  private waiting = 0;
  private readonly pending = new Set<string>();

  constructor(
    private readonly network: ChainNetwork,
    private readonly log: Logger,
    private readonly onRefused: (refused: Signed, reason: string) => Promise<void>,
    private readonly onNonceUsed: (s: Signed) => Promise<void>,
    /** After each batch (the tracker looks for the receipts now). */
    private readonly onBatchDone: () => void = () => {},
  ) {}

  has(jobId: string): boolean {
    return this.pending.has(jobId);
  }

  enqueue(batch: Signed[]): void {
    if (batch.length === 0) return;
    const epoch = this.epoch;
    for (const s of batch) this.pending.add(s.jobId);
    this.waiting++;
    this.tail = this.tail.then(async () => {
      this.waiting--;
      try {
        if (epoch === this.epoch) await this.send(batch);
      } catch (err) {
        this.epoch++;
        this.log.warn({ err, network: this.network.name }, 'broadcast stopped; the tracker sends the rest again');
      } finally {
        for (const s of batch) this.pending.delete(s.jobId);
        this.onBatchDone();
      }
    });
  }

  /** Resolves when there is room for another batch. */
  async belowBacklog(): Promise<void> {
    while (this.waiting > MAX_WAITING_BATCHES) await this.tail;
  }

  async idle(): Promise<void> {
    let tail;
    do {
      tail = this.tail;
      await tail;
    } while (tail !== this.tail);
  }

  private async send(batch: Signed[]): Promise<void> {
    for (const s of batch) {
      const outcome = await broadcast(this.network, s.sent.raw);
      if (outcome.kind === 'sent') continue;
      if (outcome.kind === 'nonce-used') {
        await this.onNonceUsed(s);
        continue;
      }
      this.epoch++; // drop the batches signed after this one
      if (outcome.kind === 'unknown') {
        this.log.warn({ jobId: s.jobId, network: this.network.name, nonce: s.sent.nonce, reason: outcome.message }, 'broadcast failed; the tracker will send it again');
        return;
      }
      await this.onRefused(s, outcome.message);
      return;
    }
  }
}
