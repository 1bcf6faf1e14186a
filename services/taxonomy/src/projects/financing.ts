import { InvalidArgumentError } from '@green-impact/shared/errors';
import { MAX_AMOUNT, truncate } from '../validation.js';
import type { FinancingType } from './entities.js';

/**
 * A project's financing (issue 37, ICMA's impact table): its country, lifetime, financing or refinancing,
 * and per year the total project cost and the issuer's signed amount. The rules and their texts are the
 * service's; each names the parameter at fault (`field`). Pure.
 */

/** ISO 3166-1 alpha-2 officially assigned codes (249). User-assigned codes (AA, QM–QZ, XA–XZ, ZZ) are refused. */
const ISO_3166_ALPHA_2 = new Set(
  `AD AE AF AG AI AL AM AO AQ AR AS AT AU AW AX AZ BA BB BD BE BF BG BH BI BJ BL BM BN BO BQ BR BS BT BV BW BY BZ
   CA CC CD CF CG CH CI CK CL CM CN CO CR CU CV CW CX CY CZ DE DJ DK DM DO DZ EC EE EG EH ER ES ET FI FJ FK FM FO FR
   GA GB GD GE GF GG GH GI GL GM GN GP GQ GR GS GT GU GW GY HK HM HN HR HT HU ID IE IL IM IN IO IQ IR IS IT JE JM JO JP
   KE KG KH KI KM KN KP KR KW KY KZ LA LB LC LI LK LR LS LT LU LV LY MA MC MD ME MF MG MH MK ML MM MN MO MP MQ MR MS
   MT MU MV MW MX MY MZ NA NC NE NF NG NI NL NO NP NR NU NZ OM PA PE PF PG PH PK PL PM PN PR PS PT PW PY QA RE RO RS
   RU RW SA SB SC SD SE SG SH SI SJ SK SL SM SN SO SR SS ST SV SX SY SZ TC TD TF TG TH TJ TK TL TM TN TO TR TT TV TW
   TZ UA UG UM US UY UZ VA VC VE VG VI VN VU WF WS YE YT ZA ZM ZW`.split(/\s+/),
);

export const MAX_LIFETIME_YEARS = 200;
export const FINANCING_TYPES: readonly FinancingType[] = ['financing', 'refinancing'];

/** An optional ISO 3166-1 alpha-2 country: any case, returned upper case; absent or "" means not given. */
export function countryCode(field: string, value: string | undefined): string | undefined {
  if (value === undefined || value.trim() === '') return undefined;
  const code = value.trim().toUpperCase();
  if (!ISO_3166_ALPHA_2.has(code)) {
    throw new InvalidArgumentError(`${field} must be an ISO 3166-1 alpha-2 country code, got "${truncate(value)}".`, { field });
  }
  return code;
}

/** An optional lifetime in whole years, 1 to 200. */
export function lifetimeYears(field: string, value: number | undefined): number | undefined {
  if (value === undefined) return undefined;
  if (!Number.isInteger(value) || value < 1 || value > MAX_LIFETIME_YEARS) {
    throw new InvalidArgumentError(`${field} must be a whole number of years from 1 to ${MAX_LIFETIME_YEARS}, got ${value}.`, { field });
  }
  return value;
}

/** An optional "financing" or "refinancing", any case; absent or "" means not given. */
export function financingType(field: string, value: string | undefined): FinancingType | undefined {
  if (value === undefined || value.trim() === '') return undefined;
  const type = value.trim().toLowerCase();
  if (!(FINANCING_TYPES as readonly string[]).includes(type)) {
    throw new InvalidArgumentError(`${field} must be financing or refinancing, got "${truncate(value)}".`, { field });
  }
  return type as FinancingType;
}

/** An optional total project cost: finite, above 0 (it divides), at most MAX_AMOUNT. */
export function totalProjectCost(field: string, value: number | undefined): number | undefined {
  if (value === undefined) return undefined;
  if (!Number.isFinite(value) || value <= 0) throw new InvalidArgumentError(`${field} must be a finite number above 0.`, { field });
  if (value > MAX_AMOUNT) throw new InvalidArgumentError(`${field} must be at most ${MAX_AMOUNT}.`, { field });
  return value;
}

/**
 * The year's signed amount, checked against the total project cost it will be stored with (given now, else
 * stored before): the issuer cannot have signed more than the project costs.
 */
export function signedWithinCost(signed: number | undefined, cost: number | undefined | null): void {
  if (signed === undefined || cost === undefined || cost === null) return;
  if (signed > cost) {
    throw new InvalidArgumentError(`signed_amount must not exceed total_project_cost (${cost}), got ${signed}.`, { field: 'signed_amount' });
  }
}

/** total_project_cost given alone, below a signed amount stored before. */
export function costCoversSigned(cost: number | undefined, signed: number | null | undefined): void {
  if (cost === undefined || signed === undefined || signed === null) return;
  if (signed > cost) {
    throw new InvalidArgumentError(`total_project_cost must be at least signed_amount (${signed}), got ${cost}.`, { field: 'total_project_cost' });
  }
}

/**
 * The issuer's share of a project's financing (ICMA's "share of total project financing"): signed amount ÷
 * total project cost, when both are known; undefined otherwise (the build then counts the full values).
 */
export function financingShare(signedAmount: number | null | undefined, totalCost: number | null | undefined): number | undefined {
  if (signedAmount === null || signedAmount === undefined || totalCost === null || totalCost === undefined || totalCost <= 0) return undefined;
  return signedAmount / totalCost;
}
