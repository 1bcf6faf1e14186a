import { Visibility } from '@green-impact/proto/greenimpact/common/v1/common';
import { InvalidArgumentError } from '@green-impact/shared/errors';
import { MAX_AMOUNT, MAX_NAME_LENGTH } from '../validation.js';
import type { VisibilityValue } from './entities.js';

/**
 * Input checks of frameworks, projects and their documents: the service owns these rules (the gateway
 * checks only types). Pure; each returns the normalized value or throws INVALID_ARGUMENT whose text
 * starts with the parameter's /v1/call name, set as its `field` so GraphQL names it as its caller did.
 */

// Control characters would corrupt messages, documents and logs that echo an identifier.
const CONTROL = /[\u0000-\u001f\u007f]/;

/** An identifier (framework_identifier, project_identifier): trimmed, 1 to 255 characters, one line. */
export function identifier(field: string, value: string | undefined): string {
  const trimmed = (value ?? '').trim();
  if (trimmed === '' || [...trimmed].length > MAX_NAME_LENGTH || CONTROL.test(trimmed)) {
    throw new InvalidArgumentError(`${field} must be 1 to ${MAX_NAME_LENGTH} characters on one line.`, { field });
  }
  return trimmed;
}

/** An amount, volume or indicator value: a finite number from 0 to MAX_AMOUNT. */
export function amount(field: string, value: number): number {
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) {
    throw new InvalidArgumentError(`${field} must be a finite number of at least 0.`, { field });
  }
  if (value > MAX_AMOUNT) throw new InvalidArgumentError(`${field} must be at most ${MAX_AMOUNT}.`, { field });
  return value === 0 ? 0 : value; // no -0
}

/** An optional visibility: absent or UNSPECIFIED means "not given". */
export function visibility(field: string, value: Visibility | undefined): VisibilityValue | undefined {
  if (value === undefined || value === Visibility.VISIBILITY_UNSPECIFIED) return undefined;
  if (value === Visibility.VISIBILITY_PUBLIC) return 'public';
  if (value === Visibility.VISIBILITY_PRIVATE) return 'private';
  throw new InvalidArgumentError(`${field} must be public or private.`, { field });
}

export function toVisibility(value: VisibilityValue): Visibility {
  return value === 'public' ? Visibility.VISIBILITY_PUBLIC : Visibility.VISIBILITY_PRIVATE;
}

export const DEFAULT_DECIMALS = 2;
export const MAX_DECIMALS = 10;

/** Decimals of a rendered document: default 2, 0 to 10. */
export function decimals(value: number | undefined): number {
  if (value === undefined) return DEFAULT_DECIMALS;
  if (!Number.isInteger(value) || value < 0 || value > MAX_DECIMALS) {
    throw new InvalidArgumentError(`decimals must be an integer from 0 to ${MAX_DECIMALS}, got ${value}.`, { field: 'decimals' });
  }
  return value;
}
