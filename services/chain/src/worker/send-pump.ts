import type { Logger } from '@green-impact/shared/logger';
import type { ChainNetwork } from '../networks/chain-network.js';
import { WakeableLoop } from './wakeable-loop.js';

/**
 * Drives a network's sender: a round as soon as a job message arrives (wake), back to back while rounds
 * move jobs, every poll interval while jobs stay queued (a replica waiting for a signer's lease), and with
 * none queued only every `idlePollMs` (jobs whose message was lost): an idle pump wakes on messages, not
 * on a timer. A failing round (the node or the database is down) is retried with doubling waits up to 10 s.
 */
export class SendPump {
  private readonly loop: WakeableLoop;

  constructor(
    network: ChainNetwork,
    round: (network: ChainNetwork) => Promise<number>,
    /** Whether jobs are still queued on the network after the rounds. */
    queued: (network: ChainNetwork) => Promise<boolean>,
    idlePollMs: number,
    log: Logger,
  ) {
    this.loop = new WakeableLoop(
      async () => {
        while ((await round(network)) > 0);
        return queued(network);
      },
      { pollIntervalMs: network.tuning.pollIntervalMs, idlePollMs: Math.max(idlePollMs, network.tuning.pollIntervalMs), firstBackoffMs: network.tuning.pollIntervalMs * 2, maxBackoffMs: 10_000 },
      (err, failures) => log.warn({ err, network: network.name, failures }, 'sending queued jobs failed; retrying'),
    );
  }

  start(): void {
    this.loop.start();
  }

  wake(): void {
    this.loop.wake();
  }

  stop(): Promise<void> {
    return this.loop.stop();
  }
}
