import { InvalidArgumentError } from '@green-impact/shared/errors';
import { MSG } from './messages.js';

/**
 * The identity service's rules on what it is given (docs/decisions.md, "One owner per rule"): lengths of
 * identifiers, names, groups and ids, and the e-mail address's format and length. Each refusal names the
 * parameter by its /v1/call name, first in the text and as `field`, so the gateway can relabel it for
 * GraphQL (`input.email` for `user_email`). Keys are checked where they are parsed (shared/pii.ts: 64
 * hexadecimal characters). Control characters never arrive: the gateway's type check refuses them.
 */

/** Identifiers, names, groups and ids: at most this many characters (UTF-16 code units, as stored). */
export const MAX_TEXT = 255;
/** An e-mail address: at most this many characters (RFC 5321's path limit, with room). */
export const MAX_EMAIL = 320;
/** local@domain.tld: no whitespace, one @, a domain of at least two labels. */
const EMAIL = /^[^\s@]+@[^\s@.]+(\.[^\s@.]+)+$/;

const refuse = (field: string, message: string) => new InvalidArgumentError(`${field} ${message}`, { field });

/** A value, when given, of at most `max` characters. */
export function checkLength(field: string, value: string | undefined, max = MAX_TEXT): void {
  if (value !== undefined && value.length > max) throw refuse(field, `must be at most ${max} characters.`);
}

/** A user identifier a change names: present (the spec's text) and at most 255 characters. */
export function checkUserIdentifier(value: string): void {
  if (value.trim() === '') throw new InvalidArgumentError(MSG.userIdentifierMissing, { field: 'user_identifier' });
  checkLength('user_identifier', value);
}

/** An e-mail address, when given: at most 320 characters, of the form local@domain.tld. */
export function checkEmail(field: string, value: string | undefined): void {
  if (value === undefined || value === '') return;
  checkLength(field, value, MAX_EMAIL);
  if (!EMAIL.test(value)) throw refuse(field, 'must be an e-mail address.');
}

/** An account's display name: 1 to 255 characters once trimmed (GraphQL's createAccount input.name). */
export function accountName(name: string): string {
  const trimmed = name.trim();
  if (trimmed === '' || trimmed.length > MAX_TEXT) throw new InvalidArgumentError(`name must be 1 to ${MAX_TEXT} characters.`, { field: 'name' });
  return trimmed;
}
