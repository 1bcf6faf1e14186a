import { AlreadyExistsError, DomainError, InternalError, InvalidArgumentError, UnavailableError } from '../errors.js';

const CONNECTION_ERRNOS = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'ENOTFOUND']);
/**
 * node-postgres reports a lost or unobtainable connection with these texts and no code: a connection cut
 * mid-query, a connect that timed out, a pool whose checkout timed out (every connection busy or hanging:
 * pg-pool's "timeout exceeded when trying to connect"), a client used after its connection broke.
 */
const DRIVER_CONNECTION_MESSAGES =
  /Connection terminated|connection timeout|timeout exceeded when trying to connect|Cannot use a pool after calling end|Client has encountered a connection error|Client was closed and is not queryable/i;

/**
 * Classifies an error that is not a DomainError: database connection failures become UNAVAILABLE
 * (the client may retry), everything else INTERNAL with a generic message. The original is kept as
 * `cause` for the log, never shown to the client.
 */
export function toDomainError(err: unknown): DomainError {
  if (err instanceof DomainError) return err;
  const e = err as { code?: unknown; driverError?: { code?: unknown }; message?: unknown };
  const code = typeof e?.code === 'string' ? e.code : typeof e?.driverError?.code === 'string' ? e.driverError.code : '';
  const message = typeof e?.message === 'string' ? e.message : '';
  if (
    CONNECTION_ERRNOS.has(code) ||
    code.startsWith('08') || // connection exception class
    code === '57P01' || code === '57P02' || code === '57P03' || // admin shutdown, crash shutdown, cannot connect now
    DRIVER_CONNECTION_MESSAGES.test(message)
  ) {
    return new UnavailableError('The database is temporarily unavailable; please retry.', { cause: err });
  }
  // A value the database cannot hold (a number beyond its column, text that is not a number): the
  // client's input, not a fault, whichever path let it through.
  if (code === '22003') return new InvalidArgumentError('A number in the request is out of range.');
  if (code === '22P02' || code === '22007' || code === '22008') return new InvalidArgumentError('A value in the request is not valid for its field.');
  // A unique constraint lost a race between two concurrent writes of the same item.
  if (code === '23505') return new AlreadyExistsError('The item already exists.');
  return new InternalError('Internal error.', { cause: err });
}
