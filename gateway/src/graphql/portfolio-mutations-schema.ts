import { assetOperations } from '../catalogue/portfolio/assets.js';
import { impactOperations } from '../catalogue/portfolio/impacts.js';
import { portfolioDomainOperations } from '../catalogue/portfolio/index.js';
import { investorOperations } from '../catalogue/portfolio/investors.js';
import { portfolioOperations } from '../catalogue/portfolio/portfolios.js';
import { positionOperations } from '../catalogue/portfolio/positions.js';
import { inputTypesSdl, rootFieldsSdl } from '../catalogue/sdl.js';
import { payloadType } from './payloads.js';
import { USER_ERRORS_FIELD } from './user-errors.js';

/**
 * SDL of the changes to assets, investors, positions and portfolios (spec §4.8–§4.10), and the impact
 * computation; their root fields and input types are written from their declarations (catalogue/sdl.ts). Appended to schema.ts's typeDefs. Only an asset's owner changes it
 * (`Not authorized.`, PERMISSION_DENIED); investors, positions and portfolios are the account's own.
 */
const payloadTypeDefs =
  payloadType('AssetPayload', 'Answer of addAsset.', 'asset', 'Asset', 'The asset as asset(identifier) reads it for the caller after the change; null when the caller cannot read it.') +
  payloadType(
    'InvestorPayload',
    'Answer of addInvestor.',
    'investor',
    'Investor',
    "The investor as investor(identifier, decryptionKey) reads it after the change, with the change's encryptionKey as the key: name and e-mail in clear only with it, else masked when stored encrypted.",
  ) +
  payloadType(
    'PortfolioPayload',
    'Answer of addPortfolio, addPositionToPortfolio and removePositionFromPortfolio.',
    'portfolio',
    'Portfolio',
    "The portfolio (renamed: under its new identifier) as portfolio(identifier) reads it after the change, without a key: its investor's encrypted name and e-mail read masked.",
  );

export const portfolioMutationTypeDefs = /* GraphQL */ `
  extend type Mutation {${rootFieldsSdl('Mutation', [...assetOperations, ...investorOperations, ...positionOperations, ...impactOperations, ...portfolioOperations])}
  }

  "Answer of addPosition and computePositionImpacts: the service's message, the position's id and its impacts computed now."
  type PositionImpactsPayload {
    "The service's message, as /v1/call returns it."
    message: String!
    "The position's id."
    id: ID
    "Impacts computed by this call; empty when none were asked for."
    impacts: [PositionImpact!]!${USER_ERRORS_FIELD}
  }

  "Answer of generateInvestorIdentifier."
  type GenerateInvestorIdentifierPayload {
    "A new identifier, unused in the account and free of PII; give it to addInvestor. Null only with userErrors."
    investorIdentifier: String${USER_ERRORS_FIELD}
  }

${payloadTypeDefs}
${inputTypesSdl(portfolioDomainOperations)}`;
