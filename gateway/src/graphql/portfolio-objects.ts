import type {
  Asset,
  AssetFrameworkDetail,
  ImpactRecomputeJob,
  ImpactRecord,
  ImpactTotal,
  Investor,
  Portfolio,
  Position,
  VolumeTotal,
} from '@green-impact/proto/greenimpact/portfolio/v1/portfolio';
import { NotFoundError } from '@green-impact/shared/errors';
import { withLabels } from '../catalogue/graphql.js';
import { scopeNameOf, statusNameOf } from '../catalogue/portfolio/rows.js';
import { arg, nodeId, objectType } from '../catalogue/objects.js';
import type { GraphqlContext } from './context.js';
import { frameworkReads, toGqlVisibility, toRow } from './framework-reads.js';
import { PAGE_ARGS, servicePaged, type PageRequest } from './pagination.js';
import { IMPACT_KEY, impactKeyOf, portfolioReads, type ImpactSummary, type Keyed } from './portfolio-reads.js';
import { selectsField } from './selects-field.js';

/**
 * The object types of assets, investors, positions, portfolios and their impacts (spec §4.8–§4.10),
 * declared once (catalogue/objects.ts) and resolved from PortfolioService's messages as it answers them.
 * Investors, positions and portfolios read with a decryption key carry it (`Keyed`), so their nested
 * investors and positions are read with the same key. Nested fields resolve through the request's batched
 * reads (portfolio-reads.ts) and start their loads without awaiting anything first, so the siblings of a
 * list join one batch. The services own the rules of their arguments (a 4-digit year, a language); a
 * refusal names the argument as the field does (`year`, `languageCode`).
 */

const YEAR = { reporting_year: 'year' };
const yearArg = arg('Int!', 'Reporting year, 4 digits.');
const impactArgs = {
  year: yearArg,
  computeMissing: arg('Boolean', 'Compute and store the impacts of positions that have none for the year first; default false.', false),
};

/** The position's or portfolio's investor; it always exists (removing an investor removes both). */
async function investorOf(holder: Keyed<{ investorIdentifier: string }>, ctx: GraphqlContext): Promise<Keyed<Investor>> {
  const found = await portfolioReads(ctx).investor(holder.investorIdentifier, holder.decryptionKey);
  if (!found) throw new NotFoundError('No such investor.');
  return found;
}

const present = <T>(items: (T | undefined)[]): T[] => items.filter((i): i is T => i !== undefined);

const assetType = objectType<Asset>('Asset', 'A financial asset (a bond, for example) whose proceeds finance a green framework (spec asset).', (field) => ({
  nodeId: nodeId(),
  id: field('ID!', 'Asset id (spec asset_id).', 'assetId'),
  identifier: field('String!', "The owner's identifier for it, e.g. an ISIN, unique per account (spec asset_identifier).", 'assetIdentifier'),
  name: field('String!', 'Name (spec asset_name).', 'assetName'),
  valueOutstanding: field('Decimal', 'Value outstanding, in currencyCode; null when not given (spec asset_value_outstanding).', 'assetValueOutstanding'),
  currencyCode: field('String!', 'Currency of valueOutstanding, 3 letters (spec asset_currency_code).', 'assetCurrencyCode'),
  dateIssued: field('Date', 'Date of issue, YYYY-MM-DD; null when not given (spec asset_date_issued).', 'assetDateIssued'),
  dateMaturity: field('Date', 'Date of maturity, YYYY-MM-DD; null when not given (spec asset_date_maturity).', 'assetDateMaturity'),
  // The asset carries its issuer's fields (issuerType).
  issuer: field('Issuer!', 'Who issued it (spec issuer_identifier, issuer_name).', (a) => a),
  frameworkIdentifier: field('String!', 'Identifier of the framework it finances, as it was linked (spec framework_identifier).', 'frameworkIdentifier'),
  frameworkName: field('String!', 'Name of that framework (spec framework_name).', 'frameworkName'),
  framework: field(
    'Framework',
    'The framework it finances, with its figures of the year. Null when that framework is no longer visible to the\ncaller, or when the caller\'s own framework of the same identifier hides it.',
    { year: arg('Int!', "Reporting year of the framework's figures, rows and projects, 4 digits.") },
    // Read by identifier as the caller; only the framework the asset was linked to (same id) is answered.
    async (a, args, ctx) => {
      const found = await withLabels(frameworkReads(ctx).frameworkByIdentifier(a.frameworkIdentifier, args.year), YEAR);
      return found && found.frameworkId === a.frameworkId ? found : null;
    },
  ),
  visibility: field('Visibility!', 'Who sees it (spec asset_visibility). Only its owner changes it.', (a) => toGqlVisibility(a.assetVisibility)),
  owned: field('Boolean!', "True when the caller's account owns it.", 'owned'),
  frameworkDetails: field(
    'AssetFrameworkDetails',
    "The framework's rows of the year attributed to the asset's share, in the asset's currency\n(spec getAssetFrameworkDetails). Null, with an error, when the share cannot be computed (no value outstanding,\nno year specifics, no FX rate).",
    { year: yearArg, languageCode: arg('String', "Language of the taxonomy names, one of languages; default: each name's original language.") },
    async (a, args, ctx) => {
      const languageCode = args.languageCode ?? undefined;
      const read = portfolioReads(ctx).assetFrameworkDetails(a.assetIdentifier, args.year, languageCode);
      const detail = await withLabels(read, { ...YEAR, language_code: 'languageCode' });
      return detail ? { ...detail, year: args.year, languageCode } : null;
    },
  ),
}), { implements: 'Node' });

const issuerType = objectType<Asset>('Issuer', 'The issuer of an asset.', (field) => ({
  identifier: field('String!', "The issuer's identifier (spec issuer_identifier).", 'issuerIdentifier'),
  name: field('String!', "The issuer's name (spec issuer_name).", 'issuerName'),
}));

/** An asset's framework detail as Asset.frameworkDetails read it: of its year, names in its language. */
type AssetFrameworkDetails = AssetFrameworkDetail & { year: number; languageCode: string | undefined };

const assetFrameworkDetailsType = objectType<AssetFrameworkDetails>(
  'AssetFrameworkDetails',
  "A framework's rows of a year attributed to an asset: share = asset value in framework currency ÷ D.",
  (field) => ({
    year: field('Int!', 'Reporting year.', 'year'),
    currencyCode: field('String!', "The asset's currency: every row's volume is in it.", 'currencyCode'),
    frameworkCurrencyCode: field('String!', 'Currency of the framework.', 'frameworkCurrencyCode'),
    share: field('Decimal!', 'Asset value outstanding converted to the framework currency ÷ D; not capped at 1.', 'attributionShare'),
    denominator: field('Decimal!', "D: the framework's value outstanding when valueOutstandingFramework, else max(allocated amount, value outstanding).", 'attributionDenominator'),
    fxRate: field('Decimal!', "Rate used to convert framework-currency volumes to the asset's currency (asset currency per framework unit).", 'fxRate'),
    rows: field('[FrameworkRow!]!', "The framework's (sub category, indicator) rows scaled by share: volume in currencyCode, value in the indicator's unit.", (d) =>
      d.framework.map((r) => toRow(r, r.currencyCode, d.languageCode)),
    ),
  }),
);

const investorType = objectType<Keyed<Investor>>('Investor', "An investor of the caller's account (spec investor). Name and e-mail are PII.", (field) => ({
  nodeId: nodeId(),
  id: field('ID!', 'Investor id (spec investor_id).', 'investorId'),
  identifier: field('String!', "The account's identifier for the investor (spec investor_identifier); use generateInvestorIdentifier for a non-PII one.", 'investorIdentifier'),
  name: field('String!', 'Name; masked when stored encrypted and no matching decryptionKey was given (spec investor_name).', 'investorName'),
  email: field('String', 'E-mail address, masked as name; null when never given (spec investor_email).', 'investorEmail'),
  currencyCode: field('String!', 'Currency given on addInvestor; stored, not used (spec investor_currency_code).', 'investorCurrencyCode'),
  encrypted: field('Boolean!', 'True when name and e-mail are stored encrypted.', 'encrypted'),
  masked: field('Boolean!', 'True when name and e-mail are returned masked.', 'masked'),
  positions: field('[Position!]!', "The investor's positions.", (i, _, ctx) => portfolioReads(ctx).positionsOfInvestor(i.investorIdentifier, i.decryptionKey)),
  portfolios: field('[Portfolio!]!', "The investor's portfolios.", (i, _, ctx) => portfolioReads(ctx).portfoliosOfInvestor(i.investorIdentifier, i.decryptionKey)),
  impacts: field('ImpactSummary!', "Impacts of all the investor's positions for a year, totalled per indicator and unit.", impactArgs, (i, args, ctx, info) =>
    withLabels(portfolioReads(ctx).investorImpacts(i.investorIdentifier, args.year, args.computeMissing === true, selectsField(info, 'records')), YEAR),
  ),
}), { implements: 'Node' });

const positionType = objectType<Keyed<Position>>('Position', 'An investment of an investor in an asset (spec position).', (field) => ({
  nodeId: nodeId(),
  id: field('ID!', 'Position id (spec position_id).', 'positionId'),
  amount: field('Decimal!', 'Amount invested, in currencyCode (spec position_amount).', 'positionAmount'),
  currencyCode: field('String!', 'Currency of amount, 3 letters (spec position_currency_code).', 'positionCurrencyCode'),
  days: field('Int!', 'Term in days from startDate (spec position_days, default 365).', 'positionDays'),
  startDate: field('Date', 'Start of the holding, YYYY-MM-DD; null when not given: impacts then assume 1 January of the reporting year.', 'positionStartDate'),
  investorIdentifier: field('String!', 'Identifier of the investor (spec investor_identifier).', 'investorIdentifier'),
  investor: field('Investor!', 'The investor holding it.', (p, _, ctx) => investorOf(p, ctx)),
  assetIdentifier: field('String!', 'Identifier of the asset (spec asset_identifier).', 'assetIdentifier'),
  asset: field('Asset', 'The asset; null when it is no longer visible to the caller.', async (p, _, ctx) => (await portfolioReads(ctx).asset(p.assetIdentifier)) ?? null),
  impactYears: field('[Int!]!', 'Reporting years with stored impacts.', 'impactYears'),
  impacts: field(
    '[PositionImpact!]!',
    "Stored impacts of the year, one per (sub category, indicator) of the asset's framework; empty when none are stored (see computePositionImpacts).",
    { year: yearArg },
    (p, args, ctx) => withLabels(portfolioReads(ctx).positionImpacts(p, args.year), YEAR),
  ),
}), { implements: 'Node' });

const portfolioType = objectType<Keyed<Portfolio>>('Portfolio', "A named set of one investor's positions (spec portfolio).", (field) => ({
  nodeId: nodeId(),
  id: field('ID!', 'Portfolio id (spec portfolio_id).', 'portfolioId'),
  identifier: field('String!', "The account's identifier for it, unique in the account (spec portfolio_identifier).", 'portfolioIdentifier'),
  investorIdentifier: field('String!', 'Identifier of its investor (spec investor_identifier).', 'investorIdentifier'),
  investor: field('Investor!', 'Its investor.', (p, _, ctx) => investorOf(p, ctx)),
  positions: field('[Position!]!', 'Its positions.', async (p, _, ctx) => present(await Promise.all(p.positionIds.map((id) => portfolioReads(ctx).position(id, p.decryptionKey))))),
  assets: field('[Asset!]!', 'The distinct assets of its positions (spec assets), as far as they are visible to the caller.', async (p, _, ctx) =>
    present(await Promise.all(p.assets.map((a) => portfolioReads(ctx).asset(a.assetIdentifier)))),
  ),
  impacts: field('ImpactSummary!', 'Impacts of its positions for a year, totalled per indicator and unit.', impactArgs, (p, args, ctx, info) =>
    withLabels(portfolioReads(ctx).portfolioImpacts(p.portfolioIdentifier, args.year, args.computeMissing === true, selectsField(info, 'records')), YEAR),
  ),
}), { implements: 'Node' });

/** A taxonomy item as a record or a total names it (ImpactItem): its id and name of the time. */
const item = (id: number, name: string) => ({ id, name });

const impactItemType = objectType<{ id: number; name: string }>('ImpactItem', 'A taxonomy item as an impact names it: its id and its name when the impact was computed.', (field) => ({
  id: field('ID!', "Id of the item in the reporting year's taxonomy.", 'id'),
  name: field('String!', 'Name in the original language.', 'name'),
}));

const positionImpactType = objectType<ImpactRecord>(
  'PositionImpact',
  'The impact of one position on one indicator for a year: value = tau · (P_f ÷ D) · x and\nattributedVolume = tau · (P_f ÷ D) · s, with every input in inputs.',
  (field) => ({
    id: field('ID!', 'Id of the stored record.', 'id'),
    positionId: field('ID!', 'The position.', 'positionId'),
    year: field('Int!', 'Reporting year.', 'reportingYear'),
    frameworkIdentifier: field('String!', "Identifier of the asset's framework.", 'frameworkIdentifier'),
    category: field('ImpactItem!', 'The taxonomy category of the framework row.', (r) => item(r.categoryId, r.categoryName)),
    subCategory: field('ImpactItem!', 'The sub category of the framework row (its volume is attributed).', (r) => item(r.subCategoryId, r.subCategoryName)),
    superIndicator: field('ImpactItem!', 'The super indicator the indicator belongs to.', (r) => item(r.superIndicatorId, r.superIndicatorName)),
    indicator: field('ImpactItem!', 'The indicator whose value is attributed.', (r) => item(r.indicatorId, r.indicatorName)),
    unit: field('ImpactItem!', "The indicator's unit; value is in it.", (r) => item(r.unitId, r.unitName)),
    value: field('Decimal!', "The position's share of the indicator's value, in unit.", 'value'),
    attributedVolume: field('Decimal!', "The position's share of the sub category's volume, in currencyCode.", 'attributedVolume'),
    currencyCode: field('String!', "Currency of attributedVolume: the framework's.", 'frameworkCurrencyCode'),
    computedAt: field('DateTime!', 'Time of computation, RFC 3339.', 'computedAt'),
    stale: field('Boolean!', 'True when a framework or FX change made the figure stale; a recompute job is on its way.', 'stale'),
    // The record carries its inputs' fields (impactInputsType).
    inputs: field('ImpactInputs!', 'The inputs of the formula, so the figure can be audited.', (r) => r),
  }),
);

const impactInputsType = objectType<ImpactRecord>('ImpactInputs', 'The inputs of an impact figure.', (field) => ({
  positionAmount: field('Decimal!', 'Position amount as held.', 'positionAmount'),
  positionCurrencyCode: field('String!', 'Currency of positionAmount.', 'positionCurrencyCode'),
  fxRate: field('Decimal!', 'Framework currency per unit of the position currency for the year (1 when they match).', 'fxRate'),
  amountInFrameworkCurrency: field('Decimal!', 'P_f: the position amount in the framework currency.', 'positionAmountFrameworkCurrency'),
  denominator: field('Decimal!', 'D: valueOutstanding when valueOutstandingFramework, else max(allocatedAmount, valueOutstanding).', 'attributionDenominator'),
  frameworkValueOutstanding: field('Decimal!', "V: the framework's value outstanding in the year.", 'frameworkValueOutstanding'),
  frameworkAllocatedAmount: field('Decimal!', "L: the framework's allocated amount in the year.", 'frameworkAllocatedAmount'),
  valueOutstandingFramework: field('Boolean!', "The framework's value_outstanding_framework flag.", 'valueOutstandingFramework'),
  tau: field('Decimal!', 'tau: holdingDaysInYear ÷ daysInYear.', 'tau'),
  holdingDaysInYear: field('Int!', 'Days of the holding that fall in the year.', 'holdingDaysInYear'),
  daysInYear: field('Int!', 'Days in the year (365 or 366).', 'daysInYear'),
  indicatorValue: field('Decimal!', "x: the framework's indicator value.", 'indicatorValue'),
  subCategoryVolume: field('Decimal!', "s: the framework's sub category volume.", 'subCategoryVolume'),
}));

const impactSummaryType = objectType<ImpactSummary>('ImpactSummary', 'Impacts of several positions for a year, totalled.', (field) => ({
  year: field('Int!', 'Reporting year.', 'reportingYear'),
  totals: field('[ImpactTotal!]!', 'Sums per (indicator, unit).', 'totals'),
  volumeTotals: field('[VolumeTotal!]!', "Attributed volumes per (sub category, framework currency), each position's sub category counted once.", 'volumeTotals'),
  records: field('[PositionImpact!]!', 'The records the totals are made of, all at once (for many positions, read recordConnection).', 'impacts'),
  recordConnection: field(
    'PositionImpactConnection!',
    'The records the totals are made of, a page at a time in (position, sub category, indicator) order: for portfolios of any size.',
    PAGE_ARGS,
    // Streamed by the service whatever their number (records holds them all).
    servicePaged(
      (summary: ImpactSummary, _args: unknown, ctx: GraphqlContext, page: PageRequest) =>
        withLabels(portfolioReads(ctx).impactRecordPage(summary.scope, summary.reportingYear, page), YEAR),
      impactKeyOf,
      IMPACT_KEY,
    ),
  ),
  positionIdsWithoutImpacts: field('[ID!]!', 'Positions without stored impacts for the year (empty with computeMissing).', 'positionIdsWithoutImpacts'),
  stalePositions: field('Int!', 'Positions whose impacts of the year are stale (the totals hold them as stored until recomputed).', 'stalePositions'),
}));

const impactTotalType = objectType<ImpactTotal>('ImpactTotal', 'The total of one indicator in one unit.', (field) => ({
  indicator: field('ImpactItem!', 'The indicator summed.', (t) => item(t.indicatorId, t.indicatorName)),
  superIndicator: field('ImpactItem!', 'The super indicator it belongs to.', (t) => item(t.superIndicatorId, t.superIndicatorName)),
  unit: field('ImpactItem!', 'The unit of value.', (t) => item(t.unitId, t.unitName)),
  value: field('Decimal!', "Sum of the positions' values, in unit.", 'value'),
  positionCount: field('Int!', 'Number of positions contributing.', 'positionCount'),
}));

const volumeTotalType = objectType<VolumeTotal>('VolumeTotal', 'The total attributed volume of one sub category in one currency.', (field) => ({
  subCategory: field('ImpactItem!', 'The sub category whose volume is summed.', (v) => item(v.subCategoryId, v.subCategoryName)),
  currencyCode: field('String!', "The frameworks' currency.", 'currencyCode'),
  attributedVolume: field('Decimal!', 'Sum of the attributed volumes.', 'attributedVolume'),
}));

/** Written by recompute-schema.ts. */
export const recomputeJobType = objectType<ImpactRecomputeJob>(
  'ImpactRecomputeJob',
  "A recompute of many positions' impacts, run in batches by the portfolio service; its progress as stored.",
  (field) => ({
    nodeId: nodeId(),
    id: field('ID!', "The job's id (UUID).", 'jobId'),
    scope: field('RecomputeScope!', 'What it recomputes.', (j) => (scopeNameOf(j.scope) ?? 'unknown').toUpperCase()),
    scopeIdentifier: field('String', 'The investor or portfolio recomputed; null for ACCOUNT and STALE.', (j) => j.scopeIdentifier || null),
    year: field('Int', 'The year recomputed; null for STALE (each impact keeps its year).', 'reportingYear'),
    status: field('RecomputeStatus!', 'Where it is.', (j) => (statusNameOf(j.status) ?? 'unknown').toUpperCase()),
    done: field('Int!', 'Positions done (STALE: impacts), counted as batches commit.', 'done'),
    total: field('Int!', 'Positions to do, counted when the job starts running.', 'total'),
    error: field('String', 'Why it failed (e.g. a missing FX rate); null otherwise.', (j) => j.error || null),
    reason: field('String!', 'requested (a client started it) or taxonomy-change (a framework or FX change).', 'reason'),
    attempts: field('Int!', 'Times a replica took the job up (more than 1: taken over from one that stopped).', 'attempts'),
    createdAt: field('DateTime!', 'RFC 3339.', 'createdAt'),
    startedAt: field('DateTime', 'When a replica first took it up, RFC 3339; null while QUEUED.', 'startedAt'),
    finishedAt: field('DateTime', 'When it completed or failed, RFC 3339.', 'finishedAt'),
    actedBy: field(
      'ActingPerson',
      'Who asked for the recompute: set when a bearer token authenticated the request; null for an API key or the service itself.',
      'actedBy',
    ),
  }),
  { implements: 'Node' },
);

/** In the order of the printed schema. */
export const portfolioObjects = [
  assetType,
  issuerType,
  assetFrameworkDetailsType,
  investorType,
  positionType,
  portfolioType,
  impactItemType,
  positionImpactType,
  impactInputsType,
  impactSummaryType,
  impactTotalType,
  volumeTotalType,
];
