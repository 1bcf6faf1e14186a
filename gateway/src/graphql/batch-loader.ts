/**
 * A minimal per-request DataLoader: keys asked for while one batch of resolvers runs are loaded with one
 * call, and every key's answer is kept for the rest of the request. The batch is dispatched on the next
 * tick after the current promise jobs, as DataLoader does, so sibling resolvers of a list join it.
 */
export class BatchLoader<K, V> {
  private readonly cache = new Map<K, Promise<V | undefined>>();
  private queue: { key: K; resolve(v: V | undefined): void; reject(e: unknown): void }[] = [];

  /**
   * @param loadMany answers the values found for the keys given (at most `maxBatch` of them), each
   *   under its key; keys left out resolve to undefined.
   */
  constructor(
    private readonly loadMany: (keys: K[]) => Promise<Map<K, V>>,
    private readonly maxBatch = 1_000,
  ) {}

  load(key: K): Promise<V | undefined> {
    let pending = this.cache.get(key);
    if (!pending) {
      pending = new Promise<V | undefined>((resolve, reject) => {
        if (this.queue.length === 0) void Promise.resolve().then(() => process.nextTick(() => this.dispatch()));
        this.queue.push({ key, resolve, reject });
      });
      this.cache.set(key, pending);
    }
    return pending;
  }

  private dispatch(): void {
    const queued = this.queue;
    this.queue = [];
    for (let i = 0; i < queued.length; i += this.maxBatch) {
      const chunk = queued.slice(i, i + this.maxBatch);
      this.loadMany(chunk.map((q) => q.key)).then(
        (found) => chunk.forEach((q) => q.resolve(found.get(q.key))),
        (err: unknown) => chunk.forEach((q) => q.reject(err)),
      );
    }
  }
}
