import { userParams } from './identity.js';

/**
 * The parameter specs blockchain-params.ts still takes from the portfolio domain, whose operations are
 * declared in catalogue/portfolio/ (with their rules in the portfolio service). This goes when the chain
 * domain moves into the catalogue.
 */
export const portfolioParams = {
  /** The spec's table misspells investor_identifier as investor_identfier; every operation accepts both. */
  investorIdentifier: { type: 'identifier', required: true, aliases: ['investor_identfier'] },
  /** decryption_key, with the spec's misspelling depryption_key accepted everywhere. */
  decryptionKey: userParams.decryptionKey,
} as const;
