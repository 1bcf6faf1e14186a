import { InvalidArgumentError, truncate } from '@green-impact/shared/errors';

/**
 * The rules of the service's inputs and their texts, which both gateway faces answer as they are: the gateway
 * checks only what a field is (present, a string, a number), never its bounds (docs/decisions.md, "One owner
 * per rule"). Pure functions that
 * return the normalized value or throw INVALID_ARGUMENT with a message naming the parameter.
 */

import { MAX_YEAR, MIN_YEAR } from '@green-impact/proto/rules';

export { MAX_YEAR, MIN_YEAR };
export const MAX_IDENTIFIER_LENGTH = 255;
/** The largest amount the service takes (a position's amount, an asset's value outstanding): beyond it a value is a typo. */
export const MAX_AMOUNT = 1e15;
/** A recompute job's id is a UUID; a longer one names no job. */
export const MAX_JOB_ID_LENGTH = 64;
/** Encryption and decryption keys (generateEncryptionKey's are far shorter). */
export const MAX_KEY_LENGTH = 255;
/** Control characters: none in identifiers and keys. */
const ANY_CONTROL = /[\u0000-\u001f\u007f]/;
/** Names may hold tabs and line breaks, no other control character. */
const CONTROL_EXCEPT_WHITESPACE = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/;

function noControlCharacters(field: string, value: string, forbidden = ANY_CONTROL): void {
  if (forbidden.test(value)) throw new InvalidArgumentError(`${field} must not contain control characters.`, { field });
}
/** A term of up to a century: beyond that a position_days value is a typo, not a holding. */
export const MAX_POSITION_DAYS = 36_525;

export function reportingYear(value: number, field = 'reporting_year'): number {
  if (!Number.isInteger(value) || value < MIN_YEAR || value > MAX_YEAR) {
    throw new InvalidArgumentError(`${field} must be a 4-digit year from ${MIN_YEAR} to ${MAX_YEAR}, got ${value}.`, { field });
  }
  return value;
}

/** An identifier: trimmed, 1 to `max` characters, no control characters. */
export function text(field: string, value: string | undefined, max = MAX_IDENTIFIER_LENGTH): string {
  const trimmed = (value ?? '').trim();
  if (trimmed === '' || [...trimmed].length > max) {
    throw new InvalidArgumentError(`${field} must be 1 to ${max} characters.`, { field });
  }
  noControlCharacters(field, trimmed);
  return trimmed;
}

/** Optional identifier: absent or blank means not given, as legacy clients send "". */
export function optionalText(field: string, value: string | undefined): string | undefined {
  return value === undefined || value.trim() === '' ? undefined : text(field, value);
}

/** A name (free text): trimmed, 1 to 255 characters; tabs and line breaks allowed, no other control character. */
export function name(field: string, value: string | undefined): string {
  const trimmed = (value ?? '').trim();
  if (trimmed === '' || [...trimmed].length > MAX_IDENTIFIER_LENGTH) {
    throw new InvalidArgumentError(`${field} must be 1 to ${MAX_IDENTIFIER_LENGTH} characters.`, { field });
  }
  noControlCharacters(field, trimmed, CONTROL_EXCEPT_WHITESPACE);
  return trimmed;
}

export function optionalName(field: string, value: string | undefined): string | undefined {
  return value === undefined || value.trim() === '' ? undefined : name(field, value);
}

/** An encryption or decryption key, kept as given: at most 255 characters, no control characters but whitespace. */
export function optionalKey(field: string, value: string | undefined): string | undefined {
  if (value === undefined || value === '') return undefined;
  if ([...value].length > MAX_KEY_LENGTH) throw new InvalidArgumentError(`${field} must be at most ${MAX_KEY_LENGTH} characters.`, { field });
  noControlCharacters(field, value, CONTROL_EXCEPT_WHITESPACE);
  return value;
}

export function id(field: string, value: number): number {
  if (!Number.isSafeInteger(value) || value <= 0) throw new InvalidArgumentError(`${field} must be a positive integer.`, { field });
  return value;
}

/** ISO 4217-style code: 3 letters, accepted in any case, returned upper case. */
export function currencyCode(field: string, value: string | undefined): string {
  const code = (value ?? '').trim().toUpperCase();
  if (!/^[A-Z]{3}$/.test(code)) {
    throw new InvalidArgumentError(`${field} must be a 3-letter currency code, got "${truncate(value ?? '')}".`, { field });
  }
  return code;
}

function notAboveMax(field: string, value: number): number {
  if (value > MAX_AMOUNT) throw new InvalidArgumentError(`${field} must be at most ${MAX_AMOUNT}.`, { field });
  return value;
}

export function positiveAmount(field: string, value: number): number {
  if (!Number.isFinite(value) || value <= 0) throw new InvalidArgumentError(`${field} must be a positive number.`, { field });
  return notAboveMax(field, value);
}

export function nonNegativeAmount(field: string, value: number): number {
  if (!Number.isFinite(value) || value < 0) throw new InvalidArgumentError(`${field} must be a number of at least 0.`, { field });
  return notAboveMax(field, value);
}

export function positionDays(value: number | undefined): number {
  if (value === undefined) return 365;
  if (!Number.isInteger(value) || value < 1 || value > MAX_POSITION_DAYS) {
    throw new InvalidArgumentError(`position_days must be a whole number of days from 1 to ${MAX_POSITION_DAYS}, got ${value}.`, { field: 'position_days' });
  }
  return value;
}

/** A calendar date YYYY-MM-DD that exists (2023-02-29 does not). */
export function isoDate(field: string, value: string): string {
  const v = value.trim();
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(v);
  if (m) {
    const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
    const date = new Date(Date.UTC(y, mo - 1, d));
    if (date.getUTCFullYear() === y && date.getUTCMonth() === mo - 1 && date.getUTCDate() === d && y >= MIN_YEAR && y <= MAX_YEAR) {
      return v;
    }
  }
  throw new InvalidArgumentError(`${field} must be a date YYYY-MM-DD, got "${truncate(value)}".`, { field });
}

export function optionalIsoDate(field: string, value: string | undefined): string | undefined {
  return value === undefined || value.trim() === '' ? undefined : isoDate(field, value);
}

/** A maturity before the issue date is refused; equal dates are allowed (YYYY-MM-DD compares as text). */
export function datesInOrder(issued: string | undefined, maturity: string | undefined): void {
  if (issued !== undefined && maturity !== undefined && maturity < issued) {
    throw new InvalidArgumentError('date_maturity must not be before date_issued.', { field: 'date_maturity' });
  }
}


export const MAX_EMAIL_LENGTH = 320;
/** A local part, @, and a domain of at least two labels. */
const EMAIL = /^[^\s@]+@[^\s@.]+(\.[^\s@.]+)+$/;

export function optionalEmail(field: string, value: string | undefined): string | undefined {
  if (value === undefined || value.trim() === '') return undefined;
  const v = value.trim();
  if (v.length > MAX_EMAIL_LENGTH || !EMAIL.test(v)) {
    // The value is PII: the message does not echo it.
    throw new InvalidArgumentError(`${field} must be an e-mail address of at most ${MAX_EMAIL_LENGTH} characters.`, { field });
  }
  return v;
}

/** At most this many identifiers or ids per batch read. */
export const MAX_BATCH = 1_000;

export function batch<T>(field: string, values: readonly T[]): T[] {
  if (values.length > MAX_BATCH) throw new InvalidArgumentError(`${field} may hold at most ${MAX_BATCH} entries.`, { field });
  return [...new Set(values)];
}

export { truncate };
