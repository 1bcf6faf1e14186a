import { assetOperations } from '../catalogue/portfolio/assets.js';
import { investorOperations } from '../catalogue/portfolio/investors.js';
import { portfolioOperations } from '../catalogue/portfolio/portfolios.js';
import { positionOperations } from '../catalogue/portfolio/positions.js';
import { orderTypesSdl, rootFieldsSdl } from '../catalogue/sdl.js';
import { connectionType, PAGE_ARGS } from './pagination.js';

/**
 * SDL of assets, investors, positions, portfolios and their impacts (spec §4.8–§4.10): the camelCase
 * counterpart of the /v1/call reads, served by PortfolioService. Appended to schema.ts's typeDefs; the
 * changes are in portfolio-mutations-schema.ts. Nested fields are batched per request
 * (portfolio-reads.ts), so a portfolio of a thousand positions costs a handful of calls.
 */
export const portfolioTypeDefs = /* GraphQL */ `
  extend type Query {${rootFieldsSdl('Query', [...assetOperations, ...investorOperations, ...positionOperations, ...portfolioOperations])}
  }
${orderTypesSdl([...assetOperations, ...investorOperations, ...positionOperations, ...portfolioOperations])}
  "A financial asset (a bond, for example) whose proceeds finance a green framework (spec asset)."
  type Asset implements Node {
    "Globally unique, opaque id for node(id:) and nodes(ids:) (Relay's Node); id is unchanged."
    nodeId: ID!
    "Asset id (spec asset_id)."
    id: ID!
    "The owner's identifier for it, e.g. an ISIN, unique per account (spec asset_identifier)."
    identifier: String!
    "Name (spec asset_name)."
    name: String!
    "Value outstanding, in currencyCode; null when not given (spec asset_value_outstanding)."
    valueOutstanding: Decimal
    "Currency of valueOutstanding, 3 letters (spec asset_currency_code)."
    currencyCode: String!
    "Date of issue, YYYY-MM-DD; null when not given (spec asset_date_issued)."
    dateIssued: Date
    "Date of maturity, YYYY-MM-DD; null when not given (spec asset_date_maturity)."
    dateMaturity: Date
    "Who issued it (spec issuer_identifier, issuer_name)."
    issuer: Issuer!
    "Identifier of the framework it finances, as it was linked (spec framework_identifier)."
    frameworkIdentifier: String!
    "Name of that framework (spec framework_name)."
    frameworkName: String!
    """
    The framework it finances, with its figures of the year. Null when that framework is no longer visible to the
    caller, or when the caller's own framework of the same identifier hides it.
    """
    framework("Reporting year of the framework's figures, rows and projects, 4 digits." year: Int!): Framework
    "Who sees it (spec asset_visibility). Only its owner changes it."
    visibility: Visibility!
    "True when the caller's account owns it."
    owned: Boolean!
    """
    The framework's rows of the year attributed to the asset's share, in the asset's currency
    (spec getAssetFrameworkDetails). Null, with an error, when the share cannot be computed (no value outstanding,
    no year specifics, no FX rate).
    """
    frameworkDetails(
      "Reporting year, 4 digits."
      year: Int!
      "Language of the taxonomy names, one of languages; default: each name's original language."
      languageCode: String
    ): AssetFrameworkDetails
  }

  "The issuer of an asset."
  type Issuer {
    "The issuer's identifier (spec issuer_identifier)."
    identifier: String!
    "The issuer's name (spec issuer_name)."
    name: String!
  }

  "A framework's rows of a year attributed to an asset: share = asset value in framework currency ÷ D."
  type AssetFrameworkDetails {
    "Reporting year."
    year: Int!
    "The asset's currency: every row's volume is in it."
    currencyCode: String!
    "Currency of the framework."
    frameworkCurrencyCode: String!
    "Asset value outstanding converted to the framework currency ÷ D; not capped at 1."
    share: Decimal!
    "D: the framework's value outstanding when valueOutstandingFramework, else max(allocated amount, value outstanding)."
    denominator: Decimal!
    "Rate used to convert framework-currency volumes to the asset's currency (asset currency per framework unit)."
    fxRate: Decimal!
    "The framework's (sub category, indicator) rows scaled by share: volume in currencyCode, value in the indicator's unit."
    rows: [FrameworkRow!]!
  }

  "An investor of the caller's account (spec investor). Name and e-mail are PII."
  type Investor implements Node {
    "Globally unique, opaque id for node(id:) and nodes(ids:) (Relay's Node); id is unchanged."
    nodeId: ID!
    "Investor id (spec investor_id)."
    id: ID!
    "The account's identifier for the investor (spec investor_identifier); use generateInvestorIdentifier for a non-PII one."
    identifier: String!
    "Name; masked when stored encrypted and no matching decryptionKey was given (spec investor_name)."
    name: String!
    "E-mail address, masked as name; null when never given (spec investor_email)."
    email: String
    "Currency given on addInvestor; stored, not used (spec investor_currency_code)."
    currencyCode: String!
    "True when name and e-mail are stored encrypted."
    encrypted: Boolean!
    "True when name and e-mail are returned masked."
    masked: Boolean!
    "The investor's positions."
    positions: [Position!]!
    "The investor's portfolios."
    portfolios: [Portfolio!]!
    "Impacts of all the investor's positions for a year, totalled per indicator and unit."
    impacts(
      "Reporting year, 4 digits."
      year: Int!
      "Compute and store the impacts of positions that have none for the year first; default false."
      computeMissing: Boolean = false
    ): ImpactSummary!
  }

  "An investment of an investor in an asset (spec position)."
  type Position implements Node {
    "Globally unique, opaque id for node(id:) and nodes(ids:) (Relay's Node); id is unchanged."
    nodeId: ID!
    "Position id (spec position_id)."
    id: ID!
    "Amount invested, in currencyCode (spec position_amount)."
    amount: Decimal!
    "Currency of amount, 3 letters (spec position_currency_code)."
    currencyCode: String!
    "Term in days from startDate (spec position_days, default 365)."
    days: Int!
    "Start of the holding, YYYY-MM-DD; null when not given: impacts then assume 1 January of the reporting year."
    startDate: Date
    "Identifier of the investor (spec investor_identifier)."
    investorIdentifier: String!
    "The investor holding it."
    investor: Investor!
    "Identifier of the asset (spec asset_identifier)."
    assetIdentifier: String!
    "The asset; null when it is no longer visible to the caller."
    asset: Asset
    "Reporting years with stored impacts."
    impactYears: [Int!]!
    "Stored impacts of the year, one per (sub category, indicator) of the asset's framework; empty when none are stored (see computePositionImpacts)."
    impacts("Reporting year, 4 digits." year: Int!): [PositionImpact!]!
  }

  "A named set of one investor's positions (spec portfolio)."
  type Portfolio implements Node {
    "Globally unique, opaque id for node(id:) and nodes(ids:) (Relay's Node); id is unchanged."
    nodeId: ID!
    "Portfolio id (spec portfolio_id)."
    id: ID!
    "The account's identifier for it, unique in the account (spec portfolio_identifier)."
    identifier: String!
    "Identifier of its investor (spec investor_identifier)."
    investorIdentifier: String!
    "Its investor."
    investor: Investor!
    "Its positions."
    positions: [Position!]!
    "The distinct assets of its positions (spec assets), as far as they are visible to the caller."
    assets: [Asset!]!
    "Impacts of its positions for a year, totalled per indicator and unit."
    impacts(
      "Reporting year, 4 digits."
      year: Int!
      "Compute and store the impacts of positions that have none for the year first; default false."
      computeMissing: Boolean = false
    ): ImpactSummary!
  }

  "A taxonomy item as an impact names it: its id and its name when the impact was computed."
  type ImpactItem {
    "Id of the item in the reporting year's taxonomy."
    id: ID!
    "Name in the original language."
    name: String!
  }

  """
  The impact of one position on one indicator for a year: value = tau · (P_f ÷ D) · x and
  attributedVolume = tau · (P_f ÷ D) · s, with every input in inputs.
  """
  type PositionImpact {
    "Id of the stored record."
    id: ID!
    "The position."
    positionId: ID!
    "Reporting year."
    year: Int!
    "Identifier of the asset's framework."
    frameworkIdentifier: String!
    "The taxonomy category of the framework row."
    category: ImpactItem!
    "The sub category of the framework row (its volume is attributed)."
    subCategory: ImpactItem!
    "The super indicator the indicator belongs to."
    superIndicator: ImpactItem!
    "The indicator whose value is attributed."
    indicator: ImpactItem!
    "The indicator's unit; value is in it."
    unit: ImpactItem!
    "The position's share of the indicator's value, in unit."
    value: Decimal!
    "The position's share of the sub category's volume, in currencyCode."
    attributedVolume: Decimal!
    "Currency of attributedVolume: the framework's."
    currencyCode: String!
    "Time of computation, RFC 3339."
    computedAt: DateTime!
    "True when a framework or FX change made the figure stale; a recompute job is on its way."
    stale: Boolean!
    "The inputs of the formula, so the figure can be audited."
    inputs: ImpactInputs!
  }

  "The inputs of an impact figure."
  type ImpactInputs {
    "Position amount as held."
    positionAmount: Decimal!
    "Currency of positionAmount."
    positionCurrencyCode: String!
    "Framework currency per unit of the position currency for the year (1 when they match)."
    fxRate: Decimal!
    "P_f: the position amount in the framework currency."
    amountInFrameworkCurrency: Decimal!
    "D: valueOutstanding when valueOutstandingFramework, else max(allocatedAmount, valueOutstanding)."
    denominator: Decimal!
    "V: the framework's value outstanding in the year."
    frameworkValueOutstanding: Decimal!
    "L: the framework's allocated amount in the year."
    frameworkAllocatedAmount: Decimal!
    "The framework's value_outstanding_framework flag."
    valueOutstandingFramework: Boolean!
    "tau: holdingDaysInYear ÷ daysInYear."
    tau: Decimal!
    "Days of the holding that fall in the year."
    holdingDaysInYear: Int!
    "Days in the year (365 or 366)."
    daysInYear: Int!
    "x: the framework's indicator value."
    indicatorValue: Decimal!
    "s: the framework's sub category volume."
    subCategoryVolume: Decimal!
  }

  "Impacts of several positions for a year, totalled."
  type ImpactSummary {
    "Reporting year."
    year: Int!
    "Sums per (indicator, unit)."
    totals: [ImpactTotal!]!
    "Attributed volumes per (sub category, framework currency), each position's sub category counted once."
    volumeTotals: [VolumeTotal!]!
    "The records the totals are made of, all at once (for many positions, read recordConnection)."
    records: [PositionImpact!]!
    "The records the totals are made of, a page at a time in (position, sub category, indicator) order: for portfolios of any size."
    recordConnection(${PAGE_ARGS}
    ): PositionImpactConnection!
    "Positions without stored impacts for the year (empty with computeMissing)."
    positionIdsWithoutImpacts: [ID!]!
    "Positions whose impacts of the year are stale (the totals hold them as stored until recomputed)."
    stalePositions: Int!
  }

  "The total of one indicator in one unit."
  type ImpactTotal {
    "The indicator summed."
    indicator: ImpactItem!
    "The super indicator it belongs to."
    superIndicator: ImpactItem!
    "The unit of value."
    unit: ImpactItem!
    "Sum of the positions' values, in unit."
    value: Decimal!
    "Number of positions contributing."
    positionCount: Int!
  }

  "The total attributed volume of one sub category in one currency."
  type VolumeTotal {
    "The sub category whose volume is summed."
    subCategory: ImpactItem!
    "The frameworks' currency."
    currencyCode: String!
    "Sum of the attributed volumes."
    attributedVolume: Decimal!
  }
${connectionType('Asset', 'assets')}${connectionType('Investor', 'investors')}${connectionType('Position', 'positions')}${connectionType('Portfolio', 'portfolios')}${connectionType('PositionImpact', 'impact records')}`;
