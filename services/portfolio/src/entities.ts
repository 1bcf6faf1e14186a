import { EntitySchema } from 'typeorm';
import { SCHEMA } from './schema.js';

/**
 * Entities of the portfolio schema (tables: migrations/). Joined reads are written in SQL in the stores,
 * which name the schema in full; these schemas serve the simple row reads and writes.
 */
export type VisibilityName = 'private' | 'public';

export interface AssetRow {
  id: number;
  accountId: string;
  assetIdentifier: string;
  assetName: string;
  issuerIdentifier: string;
  issuerName: string;
  frameworkId: number;
  frameworkIdentifier: string;
  /** The framework's name when the asset was last added or updated; reads show the current one. */
  frameworkName: string;
  valueOutstanding: number | null;
  currencyCode: string;
  /** YYYY-MM-DD. */
  dateIssued: string | null;
  dateMaturity: string | null;
  visibility: VisibilityName;
  createdAt: Date;
  updatedAt: Date;
}

export interface InvestorRow {
  id: number;
  accountId: string;
  investorIdentifier: string;
  /** Plain, or an AES-256-GCM ciphertext when keyFingerprint is set. */
  investorName: string;
  investorEmail: string | null;
  currencyCode: string;
  /** HMAC fingerprint of the key the PII fields are encrypted with; null when stored in clear. */
  keyFingerprint: string | null;
  createdAt: Date;
  updatedAt: Date;
}

export interface PositionRow {
  id: number;
  accountId: string;
  investorId: number;
  assetId: number;
  amount: number;
  currencyCode: string;
  days: number;
  /** YYYY-MM-DD; null when not given (impacts assume 1 January of the reporting year). */
  startDate: string | null;
  createdAt: Date;
}

export interface PortfolioRow {
  id: number;
  accountId: string;
  investorId: number;
  portfolioIdentifier: string;
  createdAt: Date;
  updatedAt: Date;
}

export interface PortfolioPositionRow {
  portfolioId: number;
  positionId: number;
  addedAt: Date;
}

export interface ImpactComputationRow {
  id: number;
  positionId: number;
  reportingYear: number;
  frameworkId: number;
  frameworkIdentifier: string;
  frameworkName: string;
  frameworkCurrencyCode: string;
  positionAmount: number;
  positionCurrencyCode: string;
  fxRate: number;
  positionAmountFramework: number;
  valueOutstanding: number;
  allocatedAmount: number;
  valueOutstandingFramework: boolean;
  denominator: number;
  holdingStart: string;
  positionDays: number;
  holdingDaysInYear: number;
  daysInYear: number;
  tau: number;
  /** τ · P_f ÷ D: every impact row of the computation is factor · x(k,i) and factor · s(k). */
  factor: number;
  /** Digest of the framework rows the impact rows were made of: equal digests, equal rows. */
  rowSet: string;
  computedAt: Date;
  /** Set when a framework or FX change made the figures stale; cleared by the recompute. */
  staleAt?: Date | null;
}

export interface ImpactRow {
  id: number;
  computationId: number;
  categoryId: number;
  categoryName: string;
  subCategoryId: number;
  subCategoryName: string;
  superIndicatorId: number;
  superIndicatorName: string;
  indicatorId: number;
  indicatorName: string;
  unitId: number;
  unitName: string;
  indicatorValue: number;
  subCategoryVolume: number;
  value: number;
  attributedVolume: number;
}

const id = { type: 'int', primary: true, generated: 'increment' } as const;
const account = { name: 'account_id', type: 'uuid' } as const;
const createdAt = { name: 'created_at', type: 'timestamptz', createDate: true } as const;
const updatedAt = { name: 'updated_at', type: 'timestamptz', updateDate: true } as const;
const text = (name: string) => ({ name, type: 'varchar', length: 255 }) as const;
const double = (name: string) => ({ name, type: 'double precision' }) as const;
const int = (name: string) => ({ name, type: 'int' }) as const;
const currency = (name: string) => ({ name, type: 'char', length: 3 }) as const;

export const AssetEntity = new EntitySchema<AssetRow>({
  name: 'Asset',
  tableName: 'assets',
  schema: SCHEMA,
  columns: {
    id,
    accountId: account,
    assetIdentifier: text('asset_identifier'),
    assetName: text('asset_name'),
    issuerIdentifier: text('issuer_identifier'),
    issuerName: text('issuer_name'),
    frameworkId: int('framework_id'),
    frameworkIdentifier: text('framework_identifier'),
    frameworkName: text('framework_name'),
    valueOutstanding: { ...double('value_outstanding'), nullable: true },
    currencyCode: currency('currency_code'),
    dateIssued: { name: 'date_issued', type: 'date', nullable: true },
    dateMaturity: { name: 'date_maturity', type: 'date', nullable: true },
    visibility: { type: 'varchar', length: 8 },
    createdAt,
    updatedAt,
  },
});

export const InvestorEntity = new EntitySchema<InvestorRow>({
  name: 'Investor',
  tableName: 'investors',
  schema: SCHEMA,
  columns: {
    id,
    accountId: account,
    investorIdentifier: text('investor_identifier'),
    investorName: { name: 'investor_name', type: 'text' },
    investorEmail: { name: 'investor_email', type: 'text', nullable: true },
    currencyCode: currency('currency_code'),
    keyFingerprint: { name: 'key_fingerprint', type: 'char', length: 64, nullable: true },
    createdAt,
    updatedAt,
  },
});

export const PositionEntity = new EntitySchema<PositionRow>({
  name: 'Position',
  tableName: 'positions',
  schema: SCHEMA,
  columns: {
    id,
    accountId: account,
    investorId: int('investor_id'),
    assetId: int('asset_id'),
    amount: double('amount'),
    currencyCode: currency('currency_code'),
    days: { type: 'int' },
    startDate: { name: 'start_date', type: 'date', nullable: true },
    createdAt,
  },
});

export const PortfolioEntity = new EntitySchema<PortfolioRow>({
  name: 'Portfolio',
  tableName: 'portfolios',
  schema: SCHEMA,
  columns: {
    id,
    accountId: account,
    investorId: int('investor_id'),
    portfolioIdentifier: text('portfolio_identifier'),
    createdAt,
    updatedAt,
  },
});

export const PortfolioPositionEntity = new EntitySchema<PortfolioPositionRow>({
  name: 'PortfolioPosition',
  tableName: 'portfolio_positions',
  schema: SCHEMA,
  columns: {
    portfolioId: { name: 'portfolio_id', type: 'int', primary: true },
    positionId: { name: 'position_id', type: 'int', primary: true },
    addedAt: { name: 'added_at', type: 'timestamptz', createDate: true },
  },
});

export const ImpactComputationEntity = new EntitySchema<ImpactComputationRow>({
  name: 'ImpactComputation',
  tableName: 'impact_computations',
  schema: SCHEMA,
  columns: {
    id,
    positionId: int('position_id'),
    reportingYear: int('reporting_year'),
    frameworkId: int('framework_id'),
    frameworkIdentifier: text('framework_identifier'),
    frameworkName: text('framework_name'),
    frameworkCurrencyCode: currency('framework_currency_code'),
    positionAmount: double('position_amount'),
    positionCurrencyCode: currency('position_currency_code'),
    fxRate: double('fx_rate'),
    positionAmountFramework: double('position_amount_framework'),
    valueOutstanding: double('value_outstanding'),
    allocatedAmount: double('allocated_amount'),
    valueOutstandingFramework: { name: 'value_outstanding_framework', type: 'boolean' },
    denominator: double('denominator'),
    holdingStart: { name: 'holding_start', type: 'date' },
    positionDays: int('position_days'),
    holdingDaysInYear: int('holding_days_in_year'),
    daysInYear: int('days_in_year'),
    tau: double('tau'),
    factor: double('factor'),
    rowSet: { name: 'row_set', type: 'varchar', length: 64 },
    computedAt: { name: 'computed_at', type: 'timestamptz' },
    staleAt: { name: 'stale_at', type: 'timestamptz', nullable: true },
  },
});

export const ImpactEntity = new EntitySchema<ImpactRow>({
  name: 'Impact',
  tableName: 'impacts',
  schema: SCHEMA,
  columns: {
    id,
    computationId: int('computation_id'),
    categoryId: int('category_id'),
    categoryName: { name: 'category_name', type: 'text' },
    subCategoryId: int('sub_category_id'),
    subCategoryName: { name: 'sub_category_name', type: 'text' },
    superIndicatorId: int('super_indicator_id'),
    superIndicatorName: { name: 'super_indicator_name', type: 'text' },
    indicatorId: int('indicator_id'),
    indicatorName: { name: 'indicator_name', type: 'text' },
    unitId: int('unit_id'),
    unitName: { name: 'unit_name', type: 'text' },
    indicatorValue: double('indicator_value'),
    subCategoryVolume: double('sub_category_volume'),
    value: double('value'),
    attributedVolume: double('attributed_volume'),
  },
});

export const portfolioEntities = [
  AssetEntity,
  InvestorEntity,
  PositionEntity,
  PortfolioEntity,
  PortfolioPositionEntity,
  ImpactComputationEntity,
  ImpactEntity,
];
