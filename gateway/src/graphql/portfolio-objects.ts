import type {
  Asset,
  AssetFrameworkDetail,
  ImpactRecord,
  ImpactTotal,
  Investor,
  Portfolio,
  Position,
  VolumeTotal,
} from '@green-impact/proto/greenimpact/portfolio/v1/portfolio';
import { toGqlVisibility, toRow, type GqlRow, type GqlVisibility } from './framework-reads.js';

/**
 * proto messages of PortfolioService → the GraphQL objects of portfolio-schema.ts. Objects read with a
 * decryption key carry it, so their nested investors and positions are read with the same key.
 */

type Key = string | undefined;

export interface GqlAsset {
  id: number;
  identifier: string;
  name: string;
  valueOutstanding: number | null;
  currencyCode: string;
  dateIssued: string | null;
  dateMaturity: string | null;
  issuer: { identifier: string; name: string };
  frameworkIdentifier: string;
  frameworkName: string;
  /** The framework the asset was linked to (taxonomy id); Asset.framework must be this one. */
  frameworkId: number;
  visibility: GqlVisibility;
  owned: boolean;
}

export interface GqlInvestor {
  id: number;
  identifier: string;
  name: string;
  email: string | null;
  currencyCode: string;
  encrypted: boolean;
  masked: boolean;
  decryptionKey: Key;
}

export interface GqlPosition {
  id: number;
  amount: number;
  currencyCode: string;
  days: number;
  startDate: string | null;
  investorIdentifier: string;
  assetIdentifier: string;
  impactYears: number[];
  decryptionKey: Key;
}

export interface GqlPortfolio {
  id: number;
  identifier: string;
  investorIdentifier: string;
  positionIds: number[];
  assetIdentifiers: string[];
  decryptionKey: Key;
}

export interface GqlImpactItem {
  id: number;
  name: string;
}

export interface GqlImpact {
  id: number;
  positionId: number;
  year: number;
  frameworkIdentifier: string;
  category: GqlImpactItem;
  subCategory: GqlImpactItem;
  superIndicator: GqlImpactItem;
  indicator: GqlImpactItem;
  unit: GqlImpactItem;
  value: number;
  attributedVolume: number;
  currencyCode: string;
  computedAt: string;
  stale: boolean;
  inputs: {
    positionAmount: number;
    positionCurrencyCode: string;
    fxRate: number;
    amountInFrameworkCurrency: number;
    denominator: number;
    frameworkValueOutstanding: number;
    frameworkAllocatedAmount: number;
    valueOutstandingFramework: boolean;
    tau: number;
    holdingDaysInYear: number;
    daysInYear: number;
    indicatorValue: number;
    subCategoryVolume: number;
  };
}

export interface GqlImpactSummary {
  year: number;
  totals: { indicator: GqlImpactItem; superIndicator: GqlImpactItem; unit: GqlImpactItem; value: number; positionCount: number }[];
  volumeTotals: { subCategory: GqlImpactItem; currencyCode: string; attributedVolume: number }[];
  records: GqlImpact[];
  positionIdsWithoutImpacts: number[];
  stalePositions: number;
  /** Whose records they are (not a schema field): recordConnection streams them from the service. */
  scope?: ImpactScope | undefined;
}

/** An investor's or a portfolio's positions, as StreamImpactRecords names them. */
export type ImpactScope = { investorIdentifier: string } | { portfolioIdentifier: string };

/** A record's key in its scope and year (position, sub category, indicator): a recordConnection cursor's id. */
export const impactKeyOf = (r: GqlImpact) => `${r.positionId}.${r.subCategory.id}.${r.indicator.id}`;
export const IMPACT_KEY = /^[1-9][0-9]{0,14}\.[0-9]{1,15}\.[0-9]{1,15}$/;

export interface GqlAssetFrameworkDetails {
  year: number;
  currencyCode: string;
  frameworkCurrencyCode: string;
  share: number;
  denominator: number;
  fxRate: number;
  rows: GqlRow[];
}

export function toAsset(a: Asset): GqlAsset {
  return {
    id: a.assetId,
    identifier: a.assetIdentifier,
    name: a.assetName,
    valueOutstanding: a.assetValueOutstanding ?? null,
    currencyCode: a.assetCurrencyCode,
    dateIssued: a.assetDateIssued ?? null,
    dateMaturity: a.assetDateMaturity ?? null,
    issuer: { identifier: a.issuerIdentifier, name: a.issuerName },
    frameworkIdentifier: a.frameworkIdentifier,
    frameworkName: a.frameworkName,
    frameworkId: a.frameworkId,
    visibility: toGqlVisibility(a.assetVisibility),
    owned: a.owned,
  };
}

export function toInvestor(i: Investor, decryptionKey: Key): GqlInvestor {
  return {
    id: i.investorId,
    identifier: i.investorIdentifier,
    name: i.investorName,
    email: i.investorEmail ?? null,
    currencyCode: i.investorCurrencyCode,
    encrypted: i.encrypted,
    masked: i.masked,
    decryptionKey,
  };
}

export function toPosition(p: Position, decryptionKey: Key): GqlPosition {
  return {
    id: p.positionId,
    amount: p.positionAmount,
    currencyCode: p.positionCurrencyCode,
    days: p.positionDays,
    startDate: p.positionStartDate ?? null,
    investorIdentifier: p.investorIdentifier,
    assetIdentifier: p.assetIdentifier,
    impactYears: p.impactYears,
    decryptionKey,
  };
}

export function toPortfolio(p: Portfolio, decryptionKey: Key): GqlPortfolio {
  return {
    id: p.portfolioId,
    identifier: p.portfolioIdentifier,
    investorIdentifier: p.investorIdentifier,
    positionIds: p.positionIds,
    assetIdentifiers: p.assets.map((a) => a.assetIdentifier),
    decryptionKey,
  };
}

const item = (id: number, name: string): GqlImpactItem => ({ id, name });

export function toImpact(r: ImpactRecord): GqlImpact {
  return {
    id: r.id,
    positionId: r.positionId,
    year: r.reportingYear,
    frameworkIdentifier: r.frameworkIdentifier,
    category: item(r.categoryId, r.categoryName),
    subCategory: item(r.subCategoryId, r.subCategoryName),
    superIndicator: item(r.superIndicatorId, r.superIndicatorName),
    indicator: item(r.indicatorId, r.indicatorName),
    unit: item(r.unitId, r.unitName),
    value: r.value,
    attributedVolume: r.attributedVolume,
    currencyCode: r.frameworkCurrencyCode,
    computedAt: r.computedAt,
    stale: r.stale,
    inputs: {
      positionAmount: r.positionAmount,
      positionCurrencyCode: r.positionCurrencyCode,
      fxRate: r.fxRate,
      amountInFrameworkCurrency: r.positionAmountFrameworkCurrency,
      denominator: r.attributionDenominator,
      frameworkValueOutstanding: r.frameworkValueOutstanding,
      frameworkAllocatedAmount: r.frameworkAllocatedAmount,
      valueOutstandingFramework: r.valueOutstandingFramework,
      tau: r.tau,
      holdingDaysInYear: r.holdingDaysInYear,
      daysInYear: r.daysInYear,
      indicatorValue: r.indicatorValue,
      subCategoryVolume: r.subCategoryVolume,
    },
  };
}

export function toImpactSummary(s: {
  reportingYear: number;
  totals: ImpactTotal[];
  volumeTotals: VolumeTotal[];
  impacts: ImpactRecord[];
  positionIdsWithoutImpacts: number[];
  stalePositions: number;
}): GqlImpactSummary {
  return {
    year: s.reportingYear,
    totals: s.totals.map((t) => ({
      indicator: item(t.indicatorId, t.indicatorName),
      superIndicator: item(t.superIndicatorId, t.superIndicatorName),
      unit: item(t.unitId, t.unitName),
      value: t.value,
      positionCount: t.positionCount,
    })),
    volumeTotals: s.volumeTotals.map((v) => ({
      subCategory: item(v.subCategoryId, v.subCategoryName),
      currencyCode: v.currencyCode,
      attributedVolume: v.attributedVolume,
    })),
    records: s.impacts.map(toImpact),
    positionIdsWithoutImpacts: s.positionIdsWithoutImpacts,
    stalePositions: s.stalePositions,
  };
}

export function toAssetFrameworkDetails(d: AssetFrameworkDetail, year: number, languageCode: string | undefined): GqlAssetFrameworkDetails {
  return {
    year,
    currencyCode: d.currencyCode,
    frameworkCurrencyCode: d.frameworkCurrencyCode,
    share: d.attributionShare,
    denominator: d.attributionDenominator,
    fxRate: d.fxRate,
    rows: d.framework.map((r) => toRow(r, r.currencyCode, languageCode)),
  };
}
