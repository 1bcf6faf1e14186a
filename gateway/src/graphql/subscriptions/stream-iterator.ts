import { status, type ClientReadableStream, type ServiceError } from '@grpc/grpc-js';
import { DomainError, UnavailableError } from '@green-impact/shared/errors';
import { grpcErrorToDomain } from '@green-impact/shared/grpc/status-map';

/** Messages a subscriber may fall behind by before its stream is ended with RESOURCE_EXHAUSTED. */
export const MAX_BUFFERED = 1_000;

/**
 * Pulls a gRPC server stream as an async iterator, the shape graphql-js subscriptions consume.
 * `return()` (the subscriber completed or disconnected) cancels the call at once, even while a `next()`
 * is waiting. Errors arrive as DomainErrors, so they are shaped like every other GraphQL error.
 */
export function streamIterator<T>(stream: ClientReadableStream<T>, maxBuffered = MAX_BUFFERED): AsyncIterableIterator<T> {
  const buffered: T[] = [];
  let waiting: { resolve: (r: IteratorResult<T>) => void; reject: (e: unknown) => void } | undefined;
  let failure: unknown;
  let done = false;
  let cancelled = false;

  const settle = () => {
    if (!waiting) return;
    const w = waiting;
    if (buffered.length > 0) {
      waiting = undefined;
      w.resolve({ value: buffered.shift()!, done: false });
    } else if (failure !== undefined) {
      waiting = undefined;
      const f = failure;
      failure = undefined;
      w.reject(f);
    } else if (done) {
      waiting = undefined;
      w.resolve({ value: undefined, done: true });
    }
  };
  const finish = (err?: unknown) => {
    if (done) return;
    done = true;
    if (err !== undefined) failure = err;
    settle();
  };

  stream.on('data', (value: T) => {
    if (done) return;
    if (buffered.length >= maxBuffered) {
      cancelled = true;
      stream.cancel();
      finish(new DomainError('RESOURCE_EXHAUSTED', `The subscriber fell more than ${maxBuffered} updates behind; subscribe again.`));
      return;
    }
    buffered.push(value);
    settle();
  });
  stream.on('error', (err: ServiceError) => {
    if (err.code === status.CANCELLED && cancelled) return finish();
    // Cancelled by the other side (a server shutting down cancels its open streams): the updates stop,
    // and the subscriber should know to subscribe again.
    if (err.code === status.CANCELLED) return finish(new UnavailableError('The update stream was ended by the service; please subscribe again.'));
    return finish(grpcErrorToDomain(err));
  });
  stream.on('end', () => finish());

  const iterator: AsyncIterableIterator<T> = {
    next() {
      if (waiting) return Promise.reject(new Error('streamIterator: next() called while another is pending.'));
      return new Promise<IteratorResult<T>>((resolve, reject) => {
        waiting = { resolve, reject };
        settle();
      });
    },
    return() {
      buffered.length = 0;
      failure = undefined;
      if (!done) {
        cancelled = true;
        stream.cancel();
      }
      finish();
      return Promise.resolve({ value: undefined, done: true });
    },
    [Symbol.asyncIterator]() {
      return iterator;
    },
  };
  return iterator;
}

/**
 * Maps (and filters: `undefined` drops a value) an async iterator without an async generator, whose
 * `return()` would wait for a pending `next()`; here `return()` goes straight to the source. `first`
 * values are yielded before the source's. With `onError`, a failure of the source becomes one last value
 * (the subscription's resolver turns it into a GraphQL error for that event) and the stream then ends:
 * thrown from the iterator, graphql-ws would close the whole socket, every other subscription with it.
 */
export function mapIterator<T, U>(
  source: AsyncIterableIterator<T>,
  map: (value: T) => Promise<U | undefined> | U | undefined,
  first: U[] = [],
  onError?: (err: unknown) => U,
): AsyncIterableIterator<U> {
  const pending = [...first];
  let failed = false;
  const iterator: AsyncIterableIterator<U> = {
    async next() {
      if (pending.length > 0) return { value: pending.shift()!, done: false };
      if (failed) return { value: undefined, done: true };
      try {
        for (;;) {
          const r = await source.next();
          if (r.done) return { value: undefined, done: true };
          const mapped = await map(r.value);
          if (mapped !== undefined) return { value: mapped, done: false };
        }
      } catch (err) {
        if (!onError) throw err;
        failed = true;
        await source.return?.();
        return { value: onError(err), done: false };
      }
    },
    async return() {
      pending.length = 0;
      await source.return?.();
      return { value: undefined, done: true };
    },
    [Symbol.asyncIterator]() {
      return iterator;
    },
  };
  return iterator;
}
