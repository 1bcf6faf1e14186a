import type { Logger } from '@green-impact/shared/logger';
import type { ChainNetwork } from '../networks/chain-network.js';
import type { SentTransaction } from '../jobs/job-types.js';
import type { JobTraces } from './job-traces.js';
import { broadcast } from './transactions.js';

/** A job's signed transaction, committed as SUBMITTED, waiting to be broadcast. */
export interface Signed {
  jobId: string;
  sent: SentTransaction;
}

/** Batches signed ahead of the one being broadcast; the sender waits for room before preparing more. */
const MAX_WAITING_BATCHES = 1;

/**
 * One signer's broadcasts, one batch after the other while the sender prepares the next batch. A batch
 * goes out at once (over HTTP, ethers puts concurrent calls in one JSON-RPC batch, in nonce order; a node
 * keeps a later nonce waiting in its pool until the earlier one arrives), and the answers are handled in
 * nonce order: an unanswered broadcast stays SUBMITTED with its raw transaction for the tracker to send
 * again, a nonce used outside the service sends its job back to the queue, a refused transaction fails
 * its job and its nonce is filled or handed back (`onRefused`), so the later ones are mined.
 */
export class Broadcaster {
  private tail: Promise<void> = Promise.resolve();
  private waiting = 0;
  private readonly pending = new Set<string>();

  constructor(
    private readonly network: ChainNetwork,
    private readonly log: Logger,
    private readonly onRefused: (refused: Signed, reason: string) => Promise<void>,
    private readonly onNonceUsed: (s: Signed) => Promise<void>,
    /** After each batch (the tracker looks for the receipts now). */
    private readonly onBatchDone: () => void = () => {},
    /** The traces of the jobs' messages, which their broadcasts continue. */
    private readonly traces?: JobTraces,
  ) {}

  has(jobId: string): boolean {
    return this.pending.has(jobId);
  }

  enqueue(batch: Signed[]): void {
    if (batch.length === 0) return;
    for (const s of batch) this.pending.add(s.jobId);
    this.waiting++;
    this.tail = this.tail.then(async () => {
      this.waiting--;
      try {
        const send = () => this.send(batch);
        await (this.traces ? this.traces.inTraceOf(batch.map((s) => s.jobId), `broadcast ${this.network.name}`, send) : send());
      } catch (err) {
        this.log.warn({ err, network: this.network.name }, 'broadcast failed; the tracker sends the batch again');
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
    const t0 = performance.now();
    const outcomes = await Promise.all(batch.map((s) => broadcast(this.network, s.sent.raw)));
    // A node may take a batch's calls out of order and refuse a later nonce that arrived first ("nonce
    // too high": Hardhat queues nothing while automining); those go again one by one, in nonce order.
    for (const [i, s] of batch.entries()) {
      const outcome = outcomes[i]!;
      if (outcome.kind !== 'unknown' || !/nonce too high/i.test(outcome.message)) continue;
      outcomes[i] = await broadcast(this.network, s.sent.raw);
      if (outcomes[i]!.kind !== 'sent') break;
    }
    this.log.debug({ network: this.network.name, jobs: batch.length, broadcastMs: Math.round(performance.now() - t0) }, 'batch broadcast');
    let unanswered = 0;
    const refused: { s: Signed; reason: string }[] = [];
    for (const [i, s] of batch.entries()) {
      const outcome = outcomes[i]!;
      if (outcome.kind === 'sent') continue;
      if (outcome.kind === 'unknown') unanswered++;
      else if (outcome.kind === 'nonce-used') await this.onNonceUsed(s);
      else refused.push({ s, reason: outcome.message });
    }
    // Highest nonce first: where no filler goes through, each hands its nonce back in turn.
    for (const { s, reason } of refused.reverse()) await this.onRefused(s, reason);
    if (unanswered > 0) {
      this.log.warn({ network: this.network.name, unanswered, reason: outcomes.find((o) => o.kind === 'unknown') }, 'broadcast not answered; the tracker will send it again');
    }
  }
}
