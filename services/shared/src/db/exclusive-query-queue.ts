import type { PGlite } from '@electric-sql/pglite';

interface QueuedMessage {
  handlerId: number;
  message: Uint8Array;
  onData: (data: Uint8Array) => void;
  resolve: (bytes: number) => void;
  reject: (err: unknown) => void;
}

/** Frontend messages that end a unit of work in the PostgreSQL protocol: Sync and a simple Query. */
const SYNC = 0x53; // 'S'
const QUERY = 0x51; // 'Q'
const TERMINATE = 0x58; // 'X'

/**
 * The queue that pglite-socket's handlers put each frontend message on, replacing its own.
 *
 * PGlite has one session, so connections take turns. pglite-socket's queue only keeps a connection's
 * messages together inside a transaction; outside one, an extended-protocol exchange (Parse, Bind,
 * Describe, Execute … Sync) from one connection could be interleaved with another's, and the unnamed
 * statement of one would be bound with the other's parameters. Here a connection owns the session from
 * its first message until its Sync or Query, and for as long as that leaves a transaction open; other
 * connections' messages wait their turn.
 */
export class ExclusiveQueryQueue {
  private queue: QueuedMessage[] = [];
  private processing = false;
  private owner: number | null = null;

  constructor(private readonly db: PGlite) {}

  enqueue(handlerId: number, message: Uint8Array, onData: (data: Uint8Array) => void): Promise<number> {
    return new Promise((resolve, reject) => {
      this.queue.push({ handlerId, message, onData, resolve, reject });
      void this.process();
    });
  }

  getQueueLength(): number {
    return this.queue.length;
  }

  clearQueueForHandler(handlerId: number): void {
    this.queue = this.queue.filter((item) => {
      if (item.handlerId !== handlerId) return true;
      item.reject(new Error('Handler disconnected'));
      return false;
    });
  }

  /** A connection went away: roll back what it left open and hand the session on. */
  async clearTransactionIfNeeded(handlerId: number): Promise<void> {
    if (this.owner !== handlerId) return;
    if (this.db.isInTransaction()) await this.db.exec('ROLLBACK');
    this.owner = null;
    await this.process();
  }

  private next(): QueuedMessage | undefined {
    if (this.owner === null) return this.queue.shift();
    const i = this.queue.findIndex((item) => item.handlerId === this.owner);
    return i === -1 ? undefined : this.queue.splice(i, 1)[0];
  }

  private async process(): Promise<void> {
    if (this.processing) return;
    this.processing = true;
    try {
      for (let item = this.next(); item; item = this.next()) {
        if (item.message[0] === TERMINATE) {
          // The client is leaving; PGlite's one session must not end with it, but what it left open must.
          if (this.owner === item.handlerId && this.db.isInTransaction()) await this.db.exec('ROLLBACK');
          if (this.owner === item.handlerId) this.owner = null;
          item.resolve(0);
          continue;
        }
        let bytes = 0;
        try {
          await this.db.runExclusive(() =>
            this.db.execProtocolRawStream(item!.message, {
              onRawData: (data: Uint8Array) => {
                bytes += data.length;
                item!.onData(data);
              },
            }),
          );
        } catch (err) {
          this.owner = null;
          item.reject(err);
          continue;
        }
        this.owner = this.ownerAfter(item);
        item.resolve(bytes);
      }
    } finally {
      this.processing = false;
    }
  }

  private ownerAfter(item: QueuedMessage): number | null {
    const type = item.message[0];
    if (type === SYNC || type === QUERY || !isMessageType(type)) {
      // A finished exchange (or the startup packet, which has no type byte) frees the session unless it
      // left a transaction open.
      return this.db.isInTransaction() ? item.handlerId : null;
    }
    return item.handlerId; // mid-exchange: Parse, Bind, Describe, Execute, Close, Flush …
  }
}

function isMessageType(byte: number | undefined): boolean {
  return byte !== undefined && byte >= 0x41 && byte <= 0x7a; // an ASCII letter
}
