import { Counter } from 'prom-client';
import { DomainError, UnavailableError } from './errors.js';
import { metricsRegistry } from './metrics.js';

const refusals = new Counter({
  name: 'bulkhead_refused_total',
  help: 'Calls refused 503 by a full bulkhead (db_pool_share: an account\'s share of the database pool; backend_per_caller: an account\'s backend calls at the gateway; pdf_renderer; backend_per_request).',
  labelNames: ['bulkhead'] as const,
  registers: [metricsRegistry],
});

/** How many may run at once, and how many may wait, for how long, when that many run. */
export interface BulkheadSettings {
  /** Holders at once. */
  limit: number;
  /** Waiters beyond `limit`; one more is refused at once. */
  maxQueue: number;
  /** How long a waiter waits for a free place before it is refused; Infinity: until its signal aborts. */
  maxWaitMs: number;
}

/** Told to the client: a full bulkhead frees up within moments, so one second is the honest hint. */
const RETRY_AFTER_SECONDS = 1;

interface Waiter {
  grant(): void;
  fail(err: unknown): void;
}

/**
 * A counting semaphore with a bounded, time-limited queue: the bulkhead that keeps one caller (or one
 * request) to its share of something scarce (a database pool, the gateway's backend calls). Beyond the
 * share a call waits briefly in turn, then is refused with 503 UNAVAILABLE and Retry-After, so the
 * others' latency stays bounded instead of queueing behind the greedy one.
 */
export class Bulkhead {
  private active = 0;
  private readonly queue: Waiter[] = [];

  /** @param refusal the message a refused call gets; it names the limit. @param name its label on bulkhead_refused_total. */
  constructor(
    private readonly settings: BulkheadSettings,
    private readonly refusal: string,
    private readonly name = 'other',
  ) {}

  /** Nothing runs and nothing waits: a keyed set may forget this one. */
  get idle(): boolean {
    return this.active === 0 && this.queue.length === 0;
  }

  /** Runs `fn` once a place is free; `signal` (the request's) stops the wait. */
  run<T>(fn: () => Promise<T>, signal?: AbortSignal): Promise<T> {
    return holding(this.acquire(signal), fn);
  }

  /** Takes a place once one is free; the answer gives it back (once, however often it is called). */
  async acquire(signal?: AbortSignal): Promise<() => void> {
    await this.enter(signal);
    let held = true;
    return () => {
      if (held) this.release();
      held = false;
    };
  }

  private enter(signal: AbortSignal | undefined): Promise<void> {
    if (this.active < this.settings.limit) {
      this.active++;
      return Promise.resolve();
    }
    if (this.queue.length >= this.settings.maxQueue || this.settings.maxWaitMs <= 0) return Promise.reject(this.refused());
    return new Promise<void>((resolve, reject) => {
      const leave = () => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', aborted);
        const at = this.queue.indexOf(waiter);
        if (at >= 0) this.queue.splice(at, 1);
      };
      const waiter: Waiter = {
        grant: () => (leave(), resolve()),
        fail: (err) => (leave(), reject(err)),
      };
      const aborted = () => waiter.fail(signal?.reason instanceof DomainError ? signal.reason : this.refused());
      // An unbounded wait (Infinity) has no timer: setTimeout would take it for 1 ms.
      const timer = Number.isFinite(this.settings.maxWaitMs) ? setTimeout(() => waiter.fail(this.refused()), this.settings.maxWaitMs) : undefined;
      signal?.addEventListener('abort', aborted, { once: true });
      this.queue.push(waiter);
    });
  }

  private release(): void {
    // The place passes straight to the first waiter: `active` stays as it is.
    const next = this.queue[0];
    if (next) next.grant();
    else this.active--;
  }

  private refused(): UnavailableError {
    refusals.inc({ bulkhead: this.name });
    return new UnavailableError(this.refusal, { retryAfterSeconds: RETRY_AFTER_SECONDS });
  }
}

/** Runs `fn` while holding the place `acquired` takes, and gives it back however `fn` ends. */
async function holding<T>(acquired: Promise<() => void>, fn: () => Promise<T>): Promise<T> {
  const release = await acquired;
  try {
    return await fn();
  } finally {
    release();
  }
}

/** One bulkhead per key (an account), made on first use and forgotten when idle, so idle keys cost nothing. */
export class KeyedBulkheads {
  private readonly byKey = new Map<string, Bulkhead>();

  constructor(
    private readonly settings: BulkheadSettings,
    private readonly refusal: string,
    private readonly name = 'other',
  ) {}

  run<T>(key: string, fn: () => Promise<T>, signal?: AbortSignal): Promise<T> {
    return holding(this.acquire(key, signal), fn);
  }

  /** Takes a place of `key`'s bulkhead; the answer gives it back. */
  async acquire(key: string, signal?: AbortSignal): Promise<() => void> {
    let bulkhead = this.byKey.get(key);
    if (!bulkhead) {
      bulkhead = new Bulkhead(this.settings, this.refusal, this.name);
      this.byKey.set(key, bulkhead);
    }
    const forget = (b: Bulkhead) => {
      if (b.idle && this.byKey.get(key) === b) this.byKey.delete(key);
    };
    let release: () => void;
    try {
      release = await bulkhead.acquire(signal);
    } catch (err) {
      forget(bulkhead);
      throw err;
    }
    const held = bulkhead;
    return () => {
      release();
      forget(held);
    };
  }

  /** Keys holding or waiting for a place (for tests and metrics). */
  get size(): number {
    return this.byKey.size;
  }
}
