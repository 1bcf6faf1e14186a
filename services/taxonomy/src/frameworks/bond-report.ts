import { InvalidArgumentError } from '@green-impact/shared/errors';
import { MAX_NAME_LENGTH, truncate } from '../validation.js';

/**
 * The bond's report fields the EU Green Bond Standard's annexes ask for (Regulation (EU) 2023/2631, Annexes
 * I–III, section 1; issue 37): the issuer's LEI, the external reviewer, the competent authority that approved
 * the prospectus, the reporting period's first and last dates, and where unallocated proceeds are placed.
 * All optional. The service owns the rules and texts, each naming its field. Pure.
 */

export const MAX_PLACEMENT_LENGTH = 1000;
const CONTROL = /[\u0000-\u001f\u007f]/;
const CONTROL_EXCEPT_LINES = /[\u0000-\u0009\u000b\u000c\u000e-\u001f\u007f]/;

/**
 * ISO 17442 LEI: 18 upper-case letters or digits and 2 check digits, valid when the 20 characters read as a
 * number (A = 10 … Z = 35) leave 1 modulo 97 (ISO 7064 MOD 97-10, as IBAN). Any case; absent or "" = not given.
 */
export function lei(field: string, value: string | undefined): string | undefined {
  if (value === undefined || value.trim() === '') return undefined;
  const code = value.trim().toUpperCase();
  if (!/^[A-Z0-9]{18}[0-9]{2}$/.test(code)) {
    throw new InvalidArgumentError(`${field} must be a 20-character LEI (ISO 17442), got "${truncate(value)}".`, { field });
  }
  let remainder = 0;
  for (const ch of code) {
    const digits = /[0-9]/.test(ch) ? ch : String(ch.charCodeAt(0) - 55);
    for (const d of digits) remainder = (remainder * 10 + Number(d)) % 97;
  }
  if (remainder !== 1) throw new InvalidArgumentError(`${field} has wrong check digits (ISO 17442), got "${truncate(code)}".`, { field });
  return code;
}

/** A name such as the external reviewer's or the approving authority's: at most 255 characters on one line. */
export function optionalLine(field: string, value: string | undefined): string | undefined {
  if (value === undefined || value.trim() === '') return undefined;
  const trimmed = value.trim();
  if ([...trimmed].length > MAX_NAME_LENGTH || CONTROL.test(trimmed)) {
    throw new InvalidArgumentError(`${field} must be at most ${MAX_NAME_LENGTH} characters on one line.`, { field });
  }
  return trimmed;
}

/** Free text such as where unallocated proceeds are placed: at most 1 000 characters, line breaks allowed. */
export function optionalText(field: string, value: string | undefined): string | undefined {
  if (value === undefined || value.trim() === '') return undefined;
  const trimmed = value.trim();
  if ([...trimmed].length > MAX_PLACEMENT_LENGTH || CONTROL_EXCEPT_LINES.test(trimmed)) {
    throw new InvalidArgumentError(`${field} must be at most ${MAX_PLACEMENT_LENGTH} characters.`, { field });
  }
  return trimmed;
}

/** A date YYYY-MM-DD that exists in the calendar. */
export function date(field: string, value: string): string {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value.trim());
  const d = m ? new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]))) : undefined;
  if (!m || !d || d.toISOString().slice(0, 10) !== value.trim()) {
    throw new InvalidArgumentError(`${field} must be a date YYYY-MM-DD, got "${truncate(value)}".`, { field });
  }
  return value.trim();
}

/** The reporting period's first and last dates (Annex II §1): given together, the first not after the last. */
export function reportingPeriod(start: string | undefined, end: string | undefined): { start: string; end: string } | undefined {
  const s = start?.trim() ? date('reporting_period_start', start) : undefined;
  const e = end?.trim() ? date('reporting_period_end', end) : undefined;
  if (s === undefined && e === undefined) return undefined;
  if (s === undefined) throw new InvalidArgumentError('reporting_period_start is required with reporting_period_end.', { field: 'reporting_period_start' });
  if (e === undefined) throw new InvalidArgumentError('reporting_period_end is required with reporting_period_start.', { field: 'reporting_period_end' });
  if (e < s) throw new InvalidArgumentError(`reporting_period_end must not be before reporting_period_start (${s}).`, { field: 'reporting_period_end' });
  return { start: s, end: e };
}
