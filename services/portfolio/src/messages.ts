/**
 * Message texts of the portfolio service. Those marked §7 are the interface spec's, verbatim: legacy
 * clients match on them. Where the spec shows none, messages are short sentences; an add that creates a
 * position ends with its id (spec §4.10).
 */
import { truncate } from './validation.js';

/** Identifiers are quoted (they may hold spaces) and cut short when long, as the taxonomy service does. */
const q = (identifier: string) => `"${truncate(identifier, 60)}"`;

export const MSG = {
  // ---- assets ----
  assetAdded: (id: number) => `Asset added with id ${id}.`,
  assetUpdated: 'Asset updated.',
  assetRemoved: 'Asset removed.',
  noSuchAsset: (identifier: string) => `No such asset ${q(identifier)}.`,
  noSuchFramework: (identifier: string) => `No such framework ${q(identifier)}.`,
  assetHeld: (identifier: string, ownPositionIds: number[], othersHold: boolean) =>
    `Asset ${q(identifier)} is still held by ${heldBy(ownPositionIds, othersHold)}; remove them first.`,
  assetKeyFieldsHeld: (identifier: string, framework: string, currency: string) =>
    `Asset ${q(identifier)} is held by other accounts' positions: its framework (${q(framework)}) and currency (${currency}) stay as they are. Add an asset under a new identifier instead.`,
  assetHeldConcurrently: (identifier: string) => `Asset ${q(identifier)} is still held by positions; remove them first.`,
  assetWithoutValue: (identifier: string) =>
    `Asset ${q(identifier)} has no asset_value_outstanding; its share of the framework cannot be computed.`,
  frameworkGone: (frameworkIdentifier: string, assetIdentifier: string) =>
    `Framework ${q(frameworkIdentifier)} of asset ${q(assetIdentifier)} no longer exists.`,
  datesReversed: 'date_maturity must not be before date_issued.',

  // ---- investors ----
  investorAdded: 'Investor added.',
  investorUpdated: 'Investor updated.',
  investorRemoved: 'Investor removed.',
  noSuchInvestor: 'No such investor.', // §7
  encryptedNeedsKey:
    "This investor's personal data is encrypted; pass the same encryption_key to change it, or give investor_name and investor_email anew.",

  // ---- positions ----
  positionAdded: (id: number) => `Position added with id ${id}.`,
  positionRemoved: 'Position removed.',
  noSuchPosition: (id: number) => `No such position ${id}.`,
  noSuchPositionOfInvestor: (id: number, investorIdentifier: string) => `No position ${id} of investor ${q(investorIdentifier)}.`,

  // ---- portfolios ----
  portfolioAdded: (id: number) => `Portfolio added with id ${id}.`,
  portfolioExists: (id: number) => `Portfolio already exists with id ${id}.`,
  portfolioChanged: 'Portfolio changed.',
  portfolioRemoved: 'Portfolio removed.',
  noSuchPortfolio: (identifier: string) => `No such portfolio ${q(identifier)}.`,
  noSuchPortfolioOfInvestor: (identifier: string, investorIdentifier: string) =>
    `No portfolio ${q(identifier)} of investor ${q(investorIdentifier)}.`,
  portfolioTaken: (identifier: string) => `A portfolio ${q(identifier)} already exists.`,
  positionAddedToPortfolio: 'Position added to portfolio.',
  positionAlreadyInPortfolio: (positionId: number, identifier: string) => `Position ${positionId} is already in portfolio ${q(identifier)}.`,
  positionRemovedFromPortfolio: 'Position removed from portfolio.',
  positionNotInPortfolio: (positionId: number, identifier: string) => `Position ${positionId} is not in portfolio ${q(identifier)}.`,

  // ---- impacts and documents ----
  impactsComputed: (positionId: number, year: number, count: number) =>
    `Impacts of position ${positionId} for ${year} computed: ${count} ${count === 1 ? 'record' : 'records'}.`,
  documentFormat: 'format must be JSON or HTML.',
  decimals: (max: number, got: number) => `decimals must be an integer from 0 to ${max}, got ${got}.`, // as the taxonomy's documents
  investorPiiNeedsKey:
    "The investor's personal data is encrypted; pass its decryption_key to write it to the blockchain, or set write_investor_to_blockchain to no.",
} as const;

function heldBy(ownPositionIds: number[], othersHold: boolean): string {
  const parts: string[] = [];
  if (ownPositionIds.length) {
    const shown = ownPositionIds.slice(0, 5).join(', ');
    const more = ownPositionIds.length > 5 ? ` and ${ownPositionIds.length - 5} more` : '';
    parts.push(`${ownPositionIds.length === 1 ? 'position' : 'positions'} ${shown}${more}`);
  }
  if (othersHold) parts.push('positions of other accounts');
  return parts.join(' and ');
}
