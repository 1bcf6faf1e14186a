import { Visibility } from '@green-impact/proto/greenimpact/common/v1/common';
import { taxonomyParams } from './taxonomy-params.js';

/**
 * The parameter specs the portfolio rows of v1/operations/ still take from the frameworks domain, whose
 * operations are declared in catalogue/frameworks/ (their rules in the taxonomy service). This goes when
 * the portfolio domain moves into the catalogue.
 */

/** Largest amount, volume or value the portfolio rows accept (the taxonomy service has its own, validation.ts). */
export const MAX_AMOUNT = 1e15;

export const frameworkParams = {
  reportingYear: taxonomyParams.reportingYear,
  languageCode: taxonomyParams.languageCode,
  id: taxonomyParams.id,
  /** framework_identifier: a lookup key, as the service trims and compares it. */
  identifier: { type: 'identifier', required: true },
  name: { type: 'string', required: true, maxLength: 255 },
  currencyCode: taxonomyParams.currencyCode,
  visibility: { type: 'visibility' },
  amount: { type: 'number', required: true, min: 0, max: MAX_AMOUNT },
} as const;

/** `public` / `private` (already validated) → the proto enum; absent stays absent ("not given"). */
export function toVisibility(value: string | undefined): Visibility | undefined {
  if (value === undefined) return undefined;
  return value === 'public' ? Visibility.VISIBILITY_PUBLIC : Visibility.VISIBILITY_PRIVATE;
}
