import { hexlify, keccak256, toUtf8Bytes, zeroPadBytes } from 'ethers';
import { InvalidArgumentError } from '@green-impact/shared/errors';

/** Spec §4.12 / §8: keys of at most 32 characters. */
export const MAX_KEY_CHARS = 32;
/** Spec §8: insertBytes32 values of at most 32 characters, 32 bytes. */
export const MAX_BYTES32_BYTES = 32;

const chars = (s: string) => [...s].length;
const utf8Bytes = (s: string) => Buffer.byteLength(s, 'utf8');

export function validKey(key: string): string {
  if (key === '') throw new InvalidArgumentError('key is required.', { field: 'key' });
  if (chars(key) > MAX_KEY_CHARS) throw new InvalidArgumentError(`key must be at most ${MAX_KEY_CHARS} characters, got ${chars(key)}.`, { field: 'key' });
  // A key is a name, shown in fetch answers and job lists: no line breaks, tabs or other control characters.
  if (/[\u0000-\u001f\u007f-\u009f]/.test(key)) throw new InvalidArgumentError('key must not contain control characters.', { field: 'key' });
  return key;
}

/** The value of insertBytes32 as the 32 bytes written: UTF-8, right-padded with zero bytes. */
export function bytes32Value(value: string): string {
  if (chars(value) > MAX_BYTES32_BYTES || utf8Bytes(value) > MAX_BYTES32_BYTES) {
    throw new InvalidArgumentError(
      `value must be at most ${MAX_BYTES32_BYTES} characters and ${MAX_BYTES32_BYTES} bytes (UTF-8) for insertBytes32, got ${chars(value)} characters, ${utf8Bytes(value)} bytes.`,
      { field: 'value' },
    );
  }
  return hexlify(zeroPadBytes(toUtf8Bytes(value), 32));
}

/** insertString values: limited per network (spec §8 "set by the selected network"). */
export function validStringValue(value: string, network: string, maxBytes: number): string {
  if (utf8Bytes(value) > maxBytes) {
    throw new InvalidArgumentError(`value is too large for network ${network}: at most ${maxBytes} bytes (UTF-8), got ${utf8Bytes(value)}.`, { field: 'value' });
  }
  return value;
}

/**
 * The caller's namespace on the key-value contract: accounts never read or overwrite each other's keys.
 * A hash, so the chain shows no account id.
 */
export function accountNamespace(accountId: string): string {
  return keccak256(toUtf8Bytes(`greenimpact:account:${accountId}`));
}
