import type { AddAssetRequest, AddInvestorRequest, AddPositionRequest } from '@green-impact/proto/greenimpact/portfolio/v1/portfolio';
import { InvalidArgumentError } from '@green-impact/shared/errors';
import type { ParamsOf } from '../parameters.js';
import { frameworkParams, MAX_AMOUNT, toVisibility } from './framework-params.js';
import { userParams } from './identity.js';

/**
 * Parameter specs of the assets, investors, positions, portfolios and impacts operations (spec §4.8–§4.10
 * and the impact reads the gateway adds), exported so GraphQL validates its arguments by the same rules.
 * The portfolio service checks again and alone knows whether an asset, investor, position or portfolio
 * exists, and who may see or change it.
 */

/** A term of up to a century, as the portfolio service allows: beyond that a position_days value is a typo. */
export const MAX_POSITION_DAYS = 36_525;

export const portfolioParams = {
  reportingYear: frameworkParams.reportingYear,
  optionalYear: { type: 'year' },
  languageCode: frameworkParams.languageCode,
  /** asset_identifier, issuer_identifier, framework_identifier, portfolio_identifier: lookup keys. */
  identifier: frameworkParams.identifier,
  optionalIdentifier: { type: 'identifier' },
  /**
   * The spec's table misspells investor_identifier as investor_identfier (addPositionToPortfolio,
   * removePositionFromPortfolio); every operation that takes it accepts both, as with project_identifer.
   */
  investorIdentifier: { type: 'identifier', required: true, aliases: ['investor_identfier'] },
  name: frameworkParams.name,
  optionalName: { type: 'string', maxLength: 255 },
  /** 3 letters, sent upper case; whether a rate exists is the taxonomy's call when impacts are computed. */
  currencyCode: frameworkParams.currencyCode,
  visibility: frameworkParams.visibility,
  /** Not negative, at most MAX_AMOUNT (the spec types asset_value_outstanding integer; any amount is accepted). */
  optionalAmount: { type: 'number', min: 0, max: MAX_AMOUNT },
  /** Finite, at most MAX_AMOUNT; above 0 is checked by {@link positiveAmount}, whose message says so. */
  positiveAmount: { type: 'number', required: true, max: MAX_AMOUNT },
  date: { type: 'date' },
  positionId: frameworkParams.id,
  positionDays: { type: 'int', min: 1, max: MAX_POSITION_DAYS },
  email: userParams.email,
  key: userParams.key,
  /** decryption_key, with the spec's misspelling depryption_key accepted everywhere. */
  decryptionKey: userParams.decryptionKey,
  userIdentifier: userParams.optionalUserIdentifier,
  yesNo: { type: 'yesno' },
} as const;

const p = portfolioParams;

// ---- §4.8 assets ----

export const getAssetsParams = {
  /** The asset's visibility (the spec names the filter issuer_visibility). */
  issuer_visibility: p.visibility,
  issuer_identifier: p.optionalIdentifier,
  framework_identifier: p.optionalIdentifier,
} as const;

export const getAssetFrameworkDetailsParams = {
  asset_identifier: p.identifier,
  reporting_year: p.reportingYear,
  language_code: p.languageCode,
} as const;

export const addAssetParams = {
  asset_identifier: p.identifier,
  asset_name: p.name,
  issuer_identifier: p.identifier,
  framework_identifier: p.identifier,
  asset_value_outstanding: p.optionalAmount,
  asset_currency_code: p.currencyCode,
  date_issued: p.date,
  date_maturity: p.date,
  asset_visibility: p.visibility,
  /** Not a spec parameter; the asset record has issuer_name (default: the issuer's known name, else its identifier). */
  issuer_name: p.optionalName,
} as const;

export const assetIdentifierParams = { asset_identifier: p.identifier } as const;

// ---- §4.9 investors ----

export const getInvestorsParams = { decryption_key: p.decryptionKey } as const;

export const addInvestorParams = {
  investor_identifier: p.investorIdentifier,
  investor_name: p.name,
  /** Accepted and stored, not used in any computation (spec). */
  investor_currency_code: p.currencyCode,
  encryption_key: p.key,
  investor_email: p.email,
} as const;

export const investorIdentifierParams = { investor_identifier: p.investorIdentifier } as const;

// ---- §4.10 positions ----

export const getPositionsParams = {
  investor_identifier: p.investorIdentifier,
  asset_identifier: p.optionalIdentifier,
  issuer_identifier: p.optionalIdentifier,
  user_identifier: p.userIdentifier,
  decryption_key: p.decryptionKey,
} as const;

export const addPositionParams = {
  investor_identifier: p.investorIdentifier,
  asset_identifier: p.identifier,
  position_amount: p.positiveAmount,
  position_currency_code: p.currencyCode,
  /** When given, the impacts of this year are computed and stored with the position. */
  reporting_year: p.optionalYear,
  /** Default 365 (the service's). */
  position_days: p.positionDays,
  position_start_date: p.date,
} as const;

export const positionOfInvestorParams = { investor_identifier: p.investorIdentifier, position_id: p.positionId } as const;

// ---- §4.10 portfolios ----

export const getPortfoliosParams = {
  investor_identifier: p.investorIdentifier,
  asset_identifier: p.optionalIdentifier,
  user_identifier: p.userIdentifier,
  decryption_key: p.decryptionKey,
} as const;

export const portfolioIdentifierParams = { portfolio_identifier: p.identifier } as const;

export const addPortfolioParams = {
  investor_identifier: p.investorIdentifier,
  portfolio_identifier: p.identifier,
  portfolio_identifier_changed: p.optionalIdentifier,
} as const;

export const portfolioPositionParams = {
  investor_identifier: p.investorIdentifier,
  portfolio_identifier: p.identifier,
  position_id: p.positionId,
} as const;

export const portfolioOfInvestorParams = { investor_identifier: p.investorIdentifier, portfolio_identifier: p.identifier } as const;

// ---- impacts (not spec operations) ----

export const computePositionImpactsParams = {
  investor_identifier: p.investorIdentifier,
  position_id: p.positionId,
  reporting_year: p.reportingYear,
} as const;

export const getPositionImpactsParams = {
  investor_identifier: p.investorIdentifier,
  position_id: p.positionId,
  /** Default: every year with stored records. */
  reporting_year: p.optionalYear,
  /** yes: compute and store the year's records when none are stored (needs reporting_year). */
  compute_missing: p.yesNo,
} as const;

export const getPortfolioImpactsParams = {
  portfolio_identifier: p.identifier,
  reporting_year: p.reportingYear,
  compute_missing: p.yesNo,
  /** no: the totals without the records they are made of (the quick answer for large portfolios). Default yes. */
  include_records: p.yesNo,
} as const;

export const getInvestorImpactsParams = {
  investor_identifier: p.investorIdentifier,
  reporting_year: p.reportingYear,
  compute_missing: p.yesNo,
  /** no: the totals without the records they are made of (the quick answer for large portfolios). Default yes. */
  include_records: p.yesNo,
} as const;

// ---- checks across parameters, and conversions to the proto's requests (both gateway faces) ----

/** Refuses an amount of 0 or less; the number spec already refused what is not a finite number. */
export function positiveAmount(label: string, value: number): number {
  if (!(value > 0)) throw new InvalidArgumentError(`${label} must be greater than 0.`);
  return value;
}

/** The names a face gives date_issued and date_maturity in its messages. */
export interface AssetDateLabels {
  date_issued: string;
  date_maturity: string;
}
const SPEC_DATE_LABELS: AssetDateLabels = { date_issued: 'date_issued', date_maturity: 'date_maturity' };

/** A maturity before the issue date is refused (on /v1/call in the service's words); equal dates are allowed. */
export function assetDatesInOrder(dateIssued: string | undefined, dateMaturity: string | undefined, labels: AssetDateLabels = SPEC_DATE_LABELS): void {
  // YYYY-MM-DD compares correctly as text.
  if (dateIssued !== undefined && dateMaturity !== undefined && dateMaturity < dateIssued) {
    throw new InvalidArgumentError(`${labels.date_maturity} must not be before ${labels.date_issued}.`);
  }
}

/** compute_missing yes → true; no or absent → false. */
export const computeMissing = (value: string | undefined): boolean => value === 'yes';

/** addAsset's request; refuses a maturity before the issue date. */
export function addAssetRequest(p: ParamsOf<typeof addAssetParams>, labels: AssetDateLabels = SPEC_DATE_LABELS): AddAssetRequest {
  assetDatesInOrder(p.date_issued, p.date_maturity, labels);
  return {
    assetIdentifier: p.asset_identifier,
    assetName: p.asset_name,
    issuerIdentifier: p.issuer_identifier,
    frameworkIdentifier: p.framework_identifier,
    assetValueOutstanding: p.asset_value_outstanding,
    assetCurrencyCode: p.asset_currency_code,
    dateIssued: p.date_issued,
    dateMaturity: p.date_maturity,
    assetVisibility: toVisibility(p.asset_visibility),
    issuerName: p.issuer_name,
  };
}

export function addInvestorRequest(p: ParamsOf<typeof addInvestorParams>): AddInvestorRequest {
  return {
    investorIdentifier: p.investor_identifier,
    investorName: p.investor_name,
    investorCurrencyCode: p.investor_currency_code,
    encryptionKey: p.encryption_key,
    investorEmail: p.investor_email,
  };
}

/** addPosition's request; refuses an amount of 0 or less, naming it `amountLabel` (GraphQL: input.amount). */
export function addPositionRequest(p: ParamsOf<typeof addPositionParams>, amountLabel = 'position_amount'): AddPositionRequest {
  return {
    investorIdentifier: p.investor_identifier,
    assetIdentifier: p.asset_identifier,
    positionAmount: positiveAmount(amountLabel, p.position_amount),
    positionCurrencyCode: p.position_currency_code,
    reportingYear: p.reporting_year,
    positionDays: p.position_days,
    positionStartDate: p.position_start_date,
  };
}
