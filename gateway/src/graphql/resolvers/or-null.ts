import { DomainError } from '@green-impact/shared/errors';

/**
 * A read of one thing by id or identifier: null when the service answers NOT_FOUND (another account's
 * private record is NOT_FOUND as an unknown one, so null either way); other errors go on.
 */
export async function orNull<T>(read: Promise<T>): Promise<T | null> {
  try {
    return await read;
  } catch (err) {
    if (err instanceof DomainError && err.code === 'NOT_FOUND') return null;
    throw err;
  }
}
