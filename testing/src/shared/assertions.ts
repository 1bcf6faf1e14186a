import assert from 'node:assert/strict';
import { DomainError, InvalidArgumentError } from '@green-impact/shared/errors';

/** Awaits `p` and asserts it failed with a DomainError of `code` (and `message`, exactly or matching). */
export async function rejectsWith(p: Promise<unknown>, code: string, message?: string | RegExp): Promise<void> {
  await assert.rejects(p, (err: unknown) => {
    assert.ok(err instanceof DomainError, `expected DomainError, got ${String(err)}`);
    assert.equal(err.code, code, `code of "${err.message}"`);
    if (typeof message === 'string') assert.equal(err.message, message);
    else if (message) assert.match(err.message, message);
    return true;
  });
}

/** Awaits `p` and asserts it failed INVALID_ARGUMENT with `message`, naming `field` (the x-error-field trailer over gRPC). */
export async function refusedNaming(p: Promise<unknown>, field: string, message: string): Promise<void> {
  await assert.rejects(p, (err: unknown) => {
    assert.ok(err instanceof InvalidArgumentError, `expected InvalidArgumentError, got ${String(err)}`);
    assert.deepEqual([err.message, err.field], [message, field]);
    return true;
  });
}
