import { UUID } from '@green-impact/proto/rules';
import { Visibility } from '@green-impact/proto/greenimpact/common/v1/common';
import { identifier, int, oneOf, text } from '../fields.js';
import { messageChange } from '../renders.js';

/**
 * The fields the portfolio domain's operations share (spec §4.8–§4.10 and the impact and recompute reads
 * the gateway adds). Types only: PortfolioService owns every bound, length, format and their texts
 * (services/portfolio/src/validation.ts).
 */

/**
 * The spec's table misspells investor_identifier as investor_identfier (addPositionToPortfolio,
 * removePositionFromPortfolio); every operation that takes it accepts both, as with project_identifer.
 */
export const investorIdentifier = identifier('investor_identifier', { aliases: ['investor_identfier'], doc: "The investor's identifier." });
export const assetIdentifier = identifier('asset_identifier', { doc: "The asset's identifier, e.g. an ISIN." });
export const portfolioIdentifier = identifier('portfolio_identifier', { doc: "The portfolio's identifier (unique per account)." });
export const issuerIdentifier = identifier('issuer_identifier', { doc: "The issuer's identifier." });
export const frameworkIdentifier = identifier('framework_identifier', { doc: "The framework's identifier." });
export const positionId = int('position_id', { doc: "The position's id.", graphql: 'ID' });
export const reportingYear = int('reporting_year', { doc: 'Reporting year, 4 digits.' });
export const currencyCode = (v1: string) => identifier(v1, { doc: '3-letter currency code, e.g. EUR.' });
/** decryption_key, with the spec's misspelling depryption_key accepted everywhere. */
export const decryptionKey = text('decryption_key', { aliases: ['depryption_key'], doc: 'Opens the encrypted investor names and e-mails.' });
export const userIdentifier = identifier('user_identifier', { doc: 'Only the investors this user may access (see addInvestorToUser).' });
export const visibility = (v1: string) => oneOf(v1, ['public', 'private'], { doc: 'public or private.', graphql: 'Visibility' });
export const yesNo = (v1: string, doc: string) => oneOf(v1, ['yes', 'no'], { doc });

/** public | private → the proto's Visibility (absent stays absent). */
export function toVisibility(value: 'public' | 'private' | undefined): Visibility | undefined {
  if (value === undefined) return undefined;
  return value === 'public' ? Visibility.VISIBILITY_PUBLIC : Visibility.VISIBILITY_PRIVATE;
}

export { pageFields, SERVICE_ID } from '../../graphql/pagination.js';
/** Recompute job ids (lower-case UUIDs, as the portfolio service answers them). */
export const JOB_ID = UUID;

/** A change of PortfolioService (renders.ts, messageChange). */
export const portfolioChange = <M extends string>(method: M, summary: string) => messageChange('portfolio', method, summary);
