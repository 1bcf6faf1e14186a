/**
 * A pass that runs at once when woken (a second wake during a pass runs another pass right after it), at
 * every poll interval while it has work in hand, only at the slow idle interval once a pass answered
 * `false` (nothing pending: the next work arrives with a wake), and after a failure with doubling waits up
 * to a ceiling. One pass at a time; stop waits for the pass in progress. The chain worker's send pumps and
 * trackers and the outbox relay run on it; the idle interval is their safety net for a lost wake-up (a
 * message lost, work left by another replica), so an idle service does next to nothing.
 */
export class WakeableLoop {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private again = false;
  private stopped = true;
  private failures = 0;
  private idle = false;

  constructor(
    /** Throws to count a failure (the loop waits longer before the next pass); answers false when nothing is pending. */
    private readonly pass: () => Promise<boolean | void>,
    /** idlePollMs: the wait after a pass that answered false (default pollIntervalMs). */
    private readonly timing: { pollIntervalMs: number; idlePollMs?: number; firstBackoffMs: number; maxBackoffMs: number },
    /** Told about each failed pass, with how many failed in a row. */
    private readonly onFailure: (err: unknown, failures: number) => void,
  ) {}

  start(): void {
    this.stopped = false;
    this.wake();
  }

  /** Runs a pass now, or right after the one in progress. */
  wake(): void {
    if (this.stopped) return;
    if (this.running) {
      this.again = true;
      return;
    }
    clearTimeout(this.timer);
    this.running = this.pass()
      .then(
        (pending) => {
          this.failures = 0;
          this.idle = pending === false;
        },
        (err: unknown) => this.onFailure(err, ++this.failures),
      )
      .finally(() => {
        this.running = undefined;
        if (this.stopped) return;
        const { pollIntervalMs, idlePollMs = pollIntervalMs, firstBackoffMs, maxBackoffMs } = this.timing;
        const delay = this.failures
          ? Math.min(maxBackoffMs, firstBackoffMs * 2 ** (this.failures - 1))
          : this.again
            ? 0
            : this.idle
              ? idlePollMs
              : pollIntervalMs;
        this.again = false;
        this.timer = setTimeout(() => this.wake(), delay);
        this.timer.unref();
      });
  }

  /** The pass in progress, if any. */
  current(): Promise<void> | undefined {
    return this.running;
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.running;
  }
}
