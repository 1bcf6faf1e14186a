import { CloseCode } from 'graphql-ws';

/** Close code of a socket whose key was revoked (graphql-ws clients do not retry it). */
export const CLOSE_KEY_REVOKED = CloseCode.Unauthorized;
/** Close code of a socket whose account changed (role, deletion): a client retries and is authenticated anew. */
export const CLOSE_ACCOUNT_CHANGED = CloseCode.Forbidden;
/** Close code of a socket that reached GRAPHQL_WS_MAX_LIFETIME_MS: not one graphql-ws treats as fatal, so clients reconnect. */
export const CLOSE_MAX_LIFETIME = 4000;
/** Close code of a socket whose bearer token expired: not fatal for graphql-ws, so a client reconnects with a fresh token. */
export const CLOSE_TOKEN_EXPIRED = 4001;

/** One authenticated socket: who it rests on, and how to end it. */
export interface OpenSocket {
  keyId: string;
  accountId: string;
  close(code: number, reason: string): void;
}

/**
 * The authenticated sockets of one gateway, by the key and account they were authenticated with, so that
 * identity's change events end the streams resting on them (cache-invalidation.ts). A socket is
 * authenticated once, at connection_init; without this a stream would outlive the key it was opened with.
 * Same method names as the AuthCache, which follows the same events.
 */
export class OpenSockets {
  private readonly sockets = new Set<OpenSocket>();
  private changes = 0;

  /** Moves with every event, so a socket authenticated across one can be checked again. */
  get epoch(): number {
    return this.changes;
  }

  add(socket: OpenSocket): void {
    this.sockets.add(socket);
  }

  remove(socket: OpenSocket): void {
    this.sockets.delete(socket);
  }

  /** The sockets the account holds open on this gateway (GRAPHQL_WS_MAX_CONNECTIONS_PER_ACCOUNT). */
  countOf(accountId: string): number {
    let n = 0;
    for (const s of this.sockets) if (s.accountId === accountId) n++;
    return n;
  }

  forgetKeys(keyIds: readonly string[]): void {
    const ids = new Set(keyIds);
    this.end((s) => ids.has(s.keyId), CLOSE_KEY_REVOKED, 'The API key was revoked.');
  }

  forgetAccount(accountId: string): void {
    this.end((s) => s.accountId === accountId, CLOSE_ACCOUNT_CHANGED, 'The account changed; reconnect to authenticate again.');
  }

  /** An identity event this version does not know: every socket authenticates again. */
  clear(): void {
    this.end(() => true, CLOSE_ACCOUNT_CHANGED, 'Authentication changed; reconnect to authenticate again.');
  }

  private end(which: (s: OpenSocket) => boolean, code: number, reason: string): void {
    this.changes++;
    for (const s of [...this.sockets].filter(which)) {
      this.sockets.delete(s);
      s.close(code, reason);
    }
  }
}
