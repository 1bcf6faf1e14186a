/**
 * Reads of one GraphQL request, memoised by their arguments: the first field that needs a read starts it,
 * every other field with the same arguments shares its promise. A failed read stays failed for the rest of
 * the request, so every field that needs it reports the same error. Nothing outlives the request.
 */
export class RequestMemo {
  private readonly pending = new Map<string, Promise<unknown>>();

  /** `parts` name the read and its arguments; identifiers are free text, so a JSON array keeps them apart. */
  once<T>(parts: readonly unknown[], load: () => Promise<T>): Promise<T> {
    const key = JSON.stringify(parts.map((p) => p ?? null));
    let found = this.pending.get(key) as Promise<T> | undefined;
    if (!found) {
      found = load();
      this.pending.set(key, found);
    }
    return found;
  }
}
