import { InvalidArgumentError } from '@green-impact/shared/errors';

/**
 * The rules of the service's inputs and their texts, which both gateway faces answer as they are: the gateway
 * checks only what a field is (present, a string, a number), never its bounds (docs/decisions.md, "One owner
 * per rule"). Pure functions that
 * return the normalized value or throw INVALID_ARGUMENT with a message naming the parameter.
 */

export const MIN_YEAR = 1900;
export const MAX_YEAR = 2200;
export const MAX_IDENTIFIER_LENGTH = 255;
/** A term of up to a century: beyond that a position_days value is a typo, not a holding. */
export const MAX_POSITION_DAYS = 36_525;

export function reportingYear(value: number, field = 'reporting_year'): number {
  if (!Number.isInteger(value) || value < MIN_YEAR || value > MAX_YEAR) {
    throw new InvalidArgumentError(`${field} must be a 4-digit year from ${MIN_YEAR} to ${MAX_YEAR}, got ${value}.`, { field });
  }
  return value;
}

/** An identifier or a name: trimmed, 1 to 255 characters. */
export function text(field: string, value: string | undefined): string {
  const trimmed = (value ?? '').trim();
  if (trimmed === '' || [...trimmed].length > MAX_IDENTIFIER_LENGTH) {
    throw new InvalidArgumentError(`${field} must be 1 to ${MAX_IDENTIFIER_LENGTH} characters.`, { field });
  }
  return trimmed;
}

/** Optional text: absent or blank means not given, as legacy clients send "". */
export function optionalText(field: string, value: string | undefined): string | undefined {
  return value === undefined || value.trim() === '' ? undefined : text(field, value);
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

export function positiveAmount(field: string, value: number): number {
  if (!Number.isFinite(value) || value <= 0) throw new InvalidArgumentError(`${field} must be a positive number.`, { field });
  return value;
}

export function nonNegativeAmount(field: string, value: number): number {
  if (!Number.isFinite(value) || value < 0) throw new InvalidArgumentError(`${field} must be a number of at least 0.`, { field });
  return value;
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

export const MAX_EMAIL_LENGTH = 320;

export function optionalEmail(field: string, value: string | undefined): string | undefined {
  if (value === undefined || value.trim() === '') return undefined;
  const v = value.trim();
  if (v.length > MAX_EMAIL_LENGTH || !/^[^\s@]+@[^\s@]+$/.test(v)) {
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

/** Echoed input is cut short: a message must stay readable whatever a client sends. */
export function truncate(value: string, max = 40): string {
  return value.length > max ? `${value.slice(0, max)}…` : value;
}
