/**
 * A pass that runs at every poll interval, at once when woken (a second wake during a pass runs another
 * pass right after it), and after a failure with doubling waits up to a ceiling. One pass at a time; stop
 * waits for the pass in progress. The chain worker's send pumps and trackers and the outbox relay run on it.
 */
export class WakeableLoop {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private again = false;
  private stopped = true;
  private failures = 0;

  constructor(
    /** Throws to count a failure (the loop waits longer before the next pass). */
    private readonly pass: () => Promise<void>,
    private readonly timing: { pollIntervalMs: number; firstBackoffMs: number; maxBackoffMs: number },
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
        () => void (this.failures = 0),
        (err: unknown) => this.onFailure(err, ++this.failures),
      )
      .finally(() => {
        this.running = undefined;
        if (this.stopped) return;
        const { pollIntervalMs, firstBackoffMs, maxBackoffMs } = this.timing;
        const delay = this.failures ? Math.min(maxBackoffMs, firstBackoffMs * 2 ** (this.failures - 1)) : this.again ? 0 : pollIntervalMs;
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
