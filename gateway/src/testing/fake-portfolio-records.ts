import type { Visibility } from '@green-impact/proto/greenimpact/common/v1/common';
import type { Asset, ImpactRecord, Investor, Position } from '@green-impact/proto/greenimpact/portfolio/v1/portfolio';
import type { Caller } from '@green-impact/shared/caller';
import { InvalidArgumentError } from '@green-impact/shared/errors';
import type { FakeHolding } from './fake-portfolio-impacts.js';

/**
 * The records of the fake PortfolioService (fake-portfolio.ts) and how they show in its answers: pure
 * functions of the records, the caller and the decryption key.
 */

const MASK = '********';
const WRONG_KEY = 'The decryption key does not match the key the data was encrypted with.';

export interface FakeAsset {
  id: number;
  account: string;
  identifier: string;
  name: string;
  value: number | undefined;
  currency: string;
  issued: string | undefined;
  maturity: string | undefined;
  issuerIdentifier: string;
  issuerName: string;
  frameworkIdentifier: string;
  frameworkName: string;
  frameworkId: number;
  visibility: Visibility;
}
export interface FakeInvestor {
  id: number;
  account: string;
  identifier: string;
  name: string;
  email: string | undefined;
  currency: string;
  key: string | undefined;
}
export interface FakePosition {
  id: number;
  account: string;
  investor: FakeInvestor;
  asset: FakeAsset;
  amount: number;
  currency: string;
  days: number;
  startDate: string | undefined;
  impacts: Map<number, ImpactRecord[]>;
}
export interface FakePortfolioRecord {
  id: number;
  account: string;
  identifier: string;
  investor: FakeInvestor;
  positionIds: number[];
}

export const q = (identifier: string) => `"${identifier}"`;


export const assetMsg = (a: FakeAsset, c: Caller): Asset => ({
  assetId: a.id,
  assetIdentifier: a.identifier,
  assetName: a.name,
  assetValueOutstanding: a.value,
  assetCurrencyCode: a.currency,
  assetDateIssued: a.issued,
  assetDateMaturity: a.maturity,
  issuerIdentifier: a.issuerIdentifier,
  issuerName: a.issuerName,
  frameworkIdentifier: a.frameworkIdentifier,
  frameworkName: a.frameworkName,
  assetVisibility: a.visibility,
  frameworkId: a.frameworkId,
  owned: a.account === c.accountId,
});

/** Refuses a key that opens none of the encrypted investors read; answers how each one shows. */
export const opener = (read: FakeInvestor[], key: string | undefined) => {
  const encrypted = read.filter((i) => i.key !== undefined);
  if (key !== undefined && encrypted.length > 0 && !encrypted.some((i) => i.key === key)) throw new InvalidArgumentError(WRONG_KEY);
  return (i: FakeInvestor) => {
    const masked = i.key !== undefined && i.key !== key;
    return { name: masked ? MASK : i.name, email: i.email === undefined ? undefined : masked ? MASK : i.email, masked };
  };
};

export const investorMsgs = (list: FakeInvestor[], key: string | undefined): Investor[] => {
  const open = opener(list, key);
  return list.map((i) => {
    const pii = open(i);
    return {
      investorId: i.id,
      investorIdentifier: i.identifier,
      investorName: pii.name,
      investorCurrencyCode: i.currency,
      investorEmail: pii.email,
      encrypted: i.key !== undefined,
      masked: pii.masked,
    };
  });
};

export const positionMsgs = (list: FakePosition[], key: string | undefined): Position[] => {
  const open = opener([...new Set(list.map((p) => p.investor))], key);
  return list.map((p) => {
    const pii = open(p.investor);
    return {
      positionId: p.id,
      positionAmount: p.amount,
      positionCurrencyCode: p.currency,
      positionDays: p.days,
      positionStartDate: p.startDate,
      investorIdentifier: p.investor.identifier,
      investorName: pii.name,
      assetIdentifier: p.asset.identifier,
      assetName: p.asset.name,
      issuerIdentifier: p.asset.issuerIdentifier,
      issuerName: p.asset.issuerName,
      masked: pii.masked,
      impactYears: [...p.impacts.keys()].sort(),
    };
  });
};

export const holding = (p: FakePosition): FakeHolding => ({
  positionId: p.id,
  investorIdentifier: p.investor.identifier,
  assetIdentifier: p.asset.identifier,
  amount: p.amount,
  currencyCode: p.currency,
  days: p.days,
  startDate: p.startDate,
});
