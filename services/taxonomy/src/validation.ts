import { InvalidArgumentError, truncate } from '@green-impact/shared/errors';

/**
 * The rules of the service's inputs and their texts, which both gateway faces answer as they are: the gateway
 * checks only what a field is (present, a string, a number), never its bounds (docs/decisions.md, "One owner
 * per rule"). Pure functions that
 * return the normalized value or throw INVALID_ARGUMENT with a message naming the parameter.
 */

import { MAX_YEAR, MIN_YEAR } from '@green-impact/proto/rules';

export { MAX_YEAR, MIN_YEAR };
export const MAX_NAME_LENGTH = 255;
/**
 * Largest amount, volume or indicator value of a framework or project: 10^15 (a thousand trillion) is
 * beyond any bond or project, and below 2^53, so whole amounts stay exact and sums of many projects stay
 * meaningful.
 */
export const MAX_AMOUNT = 1e15;

export function reportingYear(value: number, field = 'reporting_year'): number {
  if (!Number.isInteger(value) || value < MIN_YEAR || value > MAX_YEAR) {
    throw new InvalidArgumentError(`${field} must be a 4-digit year from ${MIN_YEAR} to ${MAX_YEAR}, got ${value}.`, { field });
  }
  return value;
}

/** A name or translation: trimmed, 1 to 255 characters. */
export function name(field: string, value: string | undefined): string {
  const trimmed = (value ?? '').trim();
  if (trimmed === '' || [...trimmed].length > MAX_NAME_LENGTH) {
    throw new InvalidArgumentError(`${field} must be 1 to ${MAX_NAME_LENGTH} characters.`, { field });
  }
  return trimmed;
}

/** An optional new name (`*_changed`): absent or blank means not given, as legacy clients send "". */
export function optionalName(field: string, value: string | undefined): string | undefined {
  return value === undefined || value.trim() === '' ? undefined : name(field, value);
}

export function id(field: string, value: number): number {
  if (!Number.isSafeInteger(value) || value <= 0) throw new InvalidArgumentError(`${field} must be a positive integer.`, { field });
  return value;
}

export function optionalId(field: string, value: number | undefined): number | undefined {
  return value === undefined ? undefined : id(field, value);
}

/** ISO 4217-style code: 3 letters, accepted in any case, returned upper case. */
export function currencyCode(field: string, value: string): string {
  const code = (value ?? '').trim().toUpperCase();
  if (!/^[A-Z]{3}$/.test(code)) {
    throw new InvalidArgumentError(`${field} must be a 3-letter currency code, got "${truncate(value ?? '')}".`, { field });
  }
  return code;
}

export function positiveRate(field: string, value: number): number {
  if (!Number.isFinite(value) || value <= 0) throw new InvalidArgumentError(`${field} must be a positive number.`, { field });
  return value;
}

export function finiteAmount(field: string, value: number): number {
  if (!Number.isFinite(value)) throw new InvalidArgumentError(`${field} must be a finite number.`, { field });
  return value;
}

export { truncate };
