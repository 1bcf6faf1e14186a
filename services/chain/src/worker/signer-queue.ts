/**
 * One serialized queue per signer (network:address): nonce assignment, signing and broadcasting of a
 * signer's transactions never interleave, while receipts are awaited elsewhere, concurrently.
 */
export class SignerQueues {
  private readonly tails = new Map<string, Promise<unknown>>();

  run<T>(signerKey: string, task: () => Promise<T>): Promise<T> {
    const previous = this.tails.get(signerKey) ?? Promise.resolve();
    const next = previous.then(task, task);
    const tail = next.catch(() => undefined);
    this.tails.set(signerKey, tail);
    void tail.then(() => {
      if (this.tails.get(signerKey) === tail) this.tails.delete(signerKey);
    });
    return next;
  }

  /** Resolves once every queued task has finished. */
  async idle(): Promise<void> {
    while (this.tails.size > 0) await Promise.all(this.tails.values());
  }
}
