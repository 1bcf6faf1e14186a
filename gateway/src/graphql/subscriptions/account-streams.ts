/**
 * The subscriptions each account holds on this gateway, over all its sockets: each is a WatchJobs stream
 * to the chain service that no per-request bulkhead (backend-calls.ts) counts, so without this bound one
 * account could hold them by the thousand (GRAPHQL_WS_MAX_SUBSCRIPTIONS_PER_ACCOUNT).
 */
export class AccountStreams {
  private readonly open = new Map<string, number>();

  constructor(readonly max: number) {}

  /** Takes a place for the account; false when it holds `max` already. */
  take(accountId: string): boolean {
    const held = this.open.get(accountId) ?? 0;
    if (held >= this.max) return false;
    this.open.set(accountId, held + 1);
    return true;
  }

  release(accountId: string, count = 1): void {
    const left = (this.open.get(accountId) ?? 0) - count;
    if (left > 0) this.open.set(accountId, left);
    else this.open.delete(accountId);
  }
}
