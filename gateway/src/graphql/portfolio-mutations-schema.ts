import { payloadType } from './payloads.js';
import { USER_ERRORS_FIELD } from './user-errors.js';

/**
 * SDL of the changes to assets, investors, positions and portfolios (spec §4.8–§4.10), and the impact
 * computation, with their input types. Appended to schema.ts's typeDefs. Only an asset's owner changes it
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
  extend type Mutation {
    "Adds an asset to the caller's account, or updates the caller's one with this identifier (spec addAsset)."
    addAsset("The fields of the change, each described on AddAssetInput." input: AddAssetInput!): AssetPayload!
    "Removes an asset; refused while positions hold it (spec removeAsset)."
    removeAsset("The asset's identifier." identifier: String!): RemovalPayload!
    "A random investor identifier, not yet used in the account and free of PII (spec generateInvestorIdentifier)."
    generateInvestorIdentifier: String!
    "Adds an investor, or updates the one with this identifier (spec addInvestor)."
    addInvestor("The fields of the change, each described on AddInvestorInput." input: AddInvestorInput!): InvestorPayload!
    "Removes an investor with its positions, their impacts and its portfolios (spec removeInvestor)."
    removeInvestor("The investor's identifier." identifier: String!): RemovalPayload!
    "Adds a position; with year, its impacts of that year are computed and stored with it, or nothing is added (spec addPosition)."
    addPosition("The fields of the change, each described on AddPositionInput." input: AddPositionInput!): PositionImpactsPayload!
    "Removes a position with its impacts and portfolio memberships (spec removePosition)."
    removePosition(
      "Identifier of the position's investor."
      investorIdentifier: String!
      "The position's id."
      positionId: ID!
    ): RemovalPayload!
    "Computes a position's impacts of a year and replaces the stored ones."
    computePositionImpacts(
      "The position's id."
      positionId: ID!
      "Reporting year, 4 digits; the framework needs year specifics and the currencies an FX rate for it."
      year: Int!
    ): PositionImpactsPayload!
    "Adds a portfolio to an investor, or renames it with newIdentifier (spec addPortfolio)."
    addPortfolio(
      "Identifier of the investor."
      investorIdentifier: String!
      "The portfolio's identifier, unique in the account."
      identifier: String!
      "New identifier when renaming (spec portfolio_identifier_changed)."
      newIdentifier: String
    ): PortfolioPayload!
    "Removes a portfolio; its positions stay (spec removePortfolio)."
    removePortfolio("Identifier of the investor." investorIdentifier: String!, "The portfolio's identifier." identifier: String!): RemovalPayload!
    "Puts one of the investor's positions in the investor's portfolio (spec addPositionToPortfolio)."
    addPositionToPortfolio(
      "Identifier of the investor."
      investorIdentifier: String!
      "The portfolio's identifier."
      portfolioIdentifier: String!
      "The position's id."
      positionId: ID!
    ): PortfolioPayload!
    "Takes a position out of a portfolio (spec removePositionFromPortfolio)."
    removePositionFromPortfolio(
      "Identifier of the investor."
      investorIdentifier: String!
      "The portfolio's identifier."
      portfolioIdentifier: String!
      "The position's id."
      positionId: ID!
    ): PortfolioPayload!
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

${payloadTypeDefs}
  "Input of addAsset."
  input AddAssetInput {
    "The caller's identifier for the asset, e.g. an ISIN; at most 255 characters on one line."
    identifier: String!
    "Name, at most 255 characters."
    name: String!
    "Identifier of the issuer."
    issuerIdentifier: String!
    "Name of the issuer; default: the name already known for that issuer in the account, else its identifier."
    issuerName: String
    "Identifier of the framework it finances: the caller's own, else another account's public one."
    frameworkIdentifier: String!
    "Value outstanding in currencyCode, 0 to 10^15; needed for frameworkDetails."
    valueOutstanding: Float
    "Currency, 3 letters."
    currencyCode: String!
    "Date of issue, YYYY-MM-DD."
    dateIssued: String
    "Date of maturity, YYYY-MM-DD, not before dateIssued."
    dateMaturity: String
    "Who sees it; default private on add, unchanged on update."
    visibility: Visibility
  }

  "Input of addInvestor."
  input AddInvestorInput {
    "The account's identifier for the investor (see generateInvestorIdentifier)."
    identifier: String!
    "Name (PII), at most 255 characters."
    name: String!
    "Currency, 3 letters; stored, not used."
    currencyCode: String!
    "E-mail address (PII)."
    email: String
    "Key from generateEncryptionKey; name and e-mail are then stored encrypted with it."
    encryptionKey: String
  }

  "Input of addPosition."
  input AddPositionInput {
    "Identifier of the investor."
    investorIdentifier: String!
    "Identifier of the asset: the caller's own, else a public one."
    assetIdentifier: String!
    "Amount invested, above 0 and at most 10^15."
    amount: Float!
    "Currency of amount, 3 letters."
    currencyCode: String!
    "When given, the impacts of this reporting year are computed and stored with the position."
    year: Int
    "Term in days, 1 to 36525; default 365."
    days: Int
    "Start of the holding, YYYY-MM-DD."
    startDate: String
  }
`;
