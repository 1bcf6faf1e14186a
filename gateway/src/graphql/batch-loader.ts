import DataLoader from 'dataloader';

/**
 * A per-request DataLoader over a `loadMany` that answers a Map: keys asked for while one batch of resolvers
 * runs are loaded with one call (at most `maxBatch` keys each), keys left out of the Map resolve to
 * undefined, and every key's answer is kept for the rest of the request.
 */
export class BatchLoader<K, V> extends DataLoader<K, V | undefined> {
  /**
   * @param loadMany answers the values found for the keys given (at most `maxBatch` of them), each
   *   under its key; keys left out resolve to undefined.
   */
  constructor(loadMany: (keys: K[]) => Promise<Map<K, V>>, maxBatch = 1_000) {
    super(
      async (keys) => {
        const found = await loadMany([...keys]);
        return keys.map((key) => found.get(key));
      },
      { maxBatchSize: maxBatch },
    );
  }
}
