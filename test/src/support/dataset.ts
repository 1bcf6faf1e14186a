import assert from 'node:assert/strict';
import { ok, v1Client } from './system.js';

/**
 * A small but complete dataset for the adversarial suites (fuzz, isolation): the operator's taxonomy,
 * currencies and FX rate, and per account one of everything the account owns. Every name, e-mail and
 * value an account stores carries that account's canary, so a leak is found by searching another
 * account's answers for it, whatever the shape of the answer.
 */
export const ESG = 'SVC.ESG.Credits';
export const HASH = 'SVC.Blockchain.Hash';
export const YEAR = 2024;

export type V1 = ReturnType<typeof v1Client>;

export const idOf = (message: string): number => Number(/(\d+)\.$/.exec(message)?.[1]);

export interface Taxonomy {
  category: number;
  subCategory: number;
  unit: number;
  superIndicator: number;
  indicator: number;
}

/** The operator's reference data of YEAR: one taxonomy branch, SEK and the SEK/EUR rate. */
export async function seedReferenceData(op: V1): Promise<Taxonomy> {
  const id = async (operation: string, params: Record<string, unknown>) =>
    idOf((await ok(op(ESG, operation, { reporting_year: YEAR, language_code: 'en', ...params }), operation)).message);
  const category = await id('addCategory', { category_name: 'Renewable energy' });
  const subCategory = await id('addSubCategory', { sub_category_name: 'Solar power', category_id: category });
  const unit = await id('addUnit', { unit_name: 'MWh' });
  const superIndicator = await id('addSuperIndicator', { super_indicator_name: 'Energy', category_id: category });
  const indicator = await id('addIndicator', { indicator_name: 'Energy generated', super_indicator_id: superIndicator, unit_id: unit });
  await ok(op(ESG, 'addCurrency', { currency_code: 'SEK' }), 'addCurrency');
  await ok(op(ESG, 'addFXrate', { currency_code_numerator: 'SEK', currency_code_denominator: 'EUR', currency_code_quota: 11.5, reporting_year: YEAR }), 'addFXrate');
  return { category, subCategory, unit, superIndicator, indicator };
}

/** What one account owns; identifiers are `<KIND>-<tag>`, secrets carry `canary`. */
export interface AccountData {
  tag: string;
  /** In every private name, e-mail and value of the account. */
  canary: string;
  /** In the name of its public framework, which every account may read. */
  publicCanary: string;
  encryptionKey: string;
  framework: string; // private
  publicFramework: string;
  project: string; // private
  asset: string; // private
  investor: string; // encrypted
  plainInvestor: string; // not encrypted: its name is in clear for its owner
  positionId: number;
  portfolio: string;
  user: string; // encrypted PII, a group and both investors
}

/** Creates one of everything for the account behind `client` (reference data must exist). */
export async function seedAccount(client: V1, tag: string, tax: Taxonomy): Promise<AccountData> {
  const canary = `CANARY${tag}x${Math.random().toString(36).slice(2, 8)}`;
  const d = {
    tag,
    canary,
    publicCanary: `PUBLIC${tag}x${Math.random().toString(36).slice(2, 8)}`,
    framework: `FW-${tag}`,
    publicFramework: `FWP-${tag}`,
    project: `PR-${tag}`,
    asset: `AS-${tag}`,
    investor: `INV-${tag}`,
    plainInvestor: `INVP-${tag}`,
    portfolio: `PF-${tag}`,
    user: `U-${tag}`,
  };
  const encryptionKey = (await ok(client(ESG, 'generateEncryptionKey'), 'generateEncryptionKey')).message as string;
  for (const [fw, visibility, marker] of [[d.framework, 'private', canary], [d.publicFramework, 'public', d.publicCanary]] as const) {
    await ok(client(ESG, 'addFramework', { framework_identifier: fw, framework_name: `Framework ${marker}`, framework_currency_code: 'EUR', framework_visibility: visibility }), 'addFramework');
    await ok(client(ESG, 'addYearSpecificsToFramework', { framework_identifier: fw, value_outstanding: 1_000_000, allocated_amount: 800_000, value_outstanding_framework: 'yes', reporting_year: YEAR }), 'specifics');
    await ok(client(ESG, 'addCategoryIndicatorToFramework', { framework_identifier: fw, sub_category_id: tax.subCategory, sub_category_volume: 500_000, indicator_id: tax.indicator, indicator_value: 1234.5, reporting_year: YEAR }), 'row');
  }
  await ok(client(ESG, 'addProject', { project_identifier: d.project, project_name: `Project ${canary}`, project_currency_code: 'EUR', framework_identifier: d.framework }), 'addProject');
  await ok(client(ESG, 'addYearSpecificsToProject', { project_identifier: d.project, allocated_amount: 300_000, reporting_year: YEAR }), 'project specifics');
  await ok(client(ESG, 'addCategoryIndicatorToProject', { project_identifier: d.project, sub_category_id: tax.subCategory, sub_category_volume: 300_000, indicator_id: tax.indicator, indicator_value: 77, reporting_year: YEAR }), 'project row');
  await ok(
    client(ESG, 'addAsset', { asset_identifier: d.asset, asset_name: `Asset ${canary}`, issuer_identifier: `ISS-${tag}`, issuer_name: `Issuer ${canary}`, framework_identifier: d.publicFramework, asset_currency_code: 'SEK', asset_value_outstanding: 2_000_000 }),
    'addAsset',
  );
  await ok(client(ESG, 'addInvestor', { investor_identifier: d.investor, investor_name: `Investor ${canary}`, investor_currency_code: 'EUR', investor_email: `${canary.toLowerCase()}@example.org`, encryption_key: encryptionKey }), 'addInvestor');
  await ok(client(ESG, 'addInvestor', { investor_identifier: d.plainInvestor, investor_name: `Plain ${canary}`, investor_currency_code: 'SEK' }), 'addInvestor plain');
  const positionId = idOf(
    (await ok(client(ESG, 'addPosition', { investor_identifier: d.investor, asset_identifier: d.asset, position_amount: 115_000, position_currency_code: 'SEK', reporting_year: YEAR }), 'addPosition')).message,
  );
  assert.ok(positionId > 0);
  await ok(client(ESG, 'addPortfolio', { investor_identifier: d.investor, portfolio_identifier: d.portfolio }), 'addPortfolio');
  await ok(client(ESG, 'addPositionToPortfolio', { investor_identifier: d.investor, portfolio_identifier: d.portfolio, position_id: positionId }), 'addPositionToPortfolio');
  await ok(client(ESG, 'addUser', { user_identifier: d.user, user_first_name: `First ${canary}`, user_last_name: `Last ${canary}`, user_email: `user.${canary.toLowerCase()}@example.org`, user_role: 'admin', encryption_key: encryptionKey }), 'addUser');
  await ok(client(ESG, 'addGroupToUser', { user_identifier: d.user, group: 'investors' }), 'addGroupToUser');
  await ok(client(ESG, 'addInvestorToUser', { user_identifier: d.user, investor_identifier: d.investor }), 'addInvestorToUser');
  await ok(client(ESG, 'addInvestorToUser', { user_identifier: d.user, investor_identifier: d.plainInvestor }), 'addInvestorToUser plain');
  return { ...d, encryptionKey, positionId };
}

/**
 * Everything the account can read of what it owns, read as the owner: compared before and after
 * adversarial traffic, any difference is a change that traffic made. Listings keep only the account's
 * own items: other accounts may publish items of their own meanwhile.
 */
export async function accountSnapshot(client: V1, d: AccountData): Promise<Record<string, unknown>> {
  const reads: Record<string, [string, Record<string, unknown>]> = {
    users: ['getUsers', { decryption_key: d.encryptionKey }],
    investorsOfUser: ['getInvestorsOfUser', { decryption_key: d.encryptionKey }],
    frameworks: ['getFrameworks', { reporting_year: YEAR }],
    frameworkDetails: ['getFrameworkDetails', { framework_identifier: d.framework, reporting_year: YEAR }],
    publicFrameworkDetails: ['getFrameworkDetails', { framework_identifier: d.publicFramework, reporting_year: YEAR }],
    projects: ['getProjects', { reporting_year: YEAR }],
    projectDetails: ['getProjectDetails', { project_identifier: d.project, reporting_year: YEAR }],
    assets: ['getAssets', {}],
    investors: ['getInvestors', { decryption_key: d.encryptionKey }],
    positions: ['getPositions', { investor_identifier: d.investor, decryption_key: d.encryptionKey }],
    plainPositions: ['getPositions', { investor_identifier: d.plainInvestor }],
    portfolios: ['getPortfolios', { investor_identifier: d.investor, decryption_key: d.encryptionKey }],
    portfolioPositions: ['getPortfolioPositions', { portfolio_identifier: d.portfolio }],
    impacts: ['getPositionImpacts', { investor_identifier: d.investor, position_id: d.positionId }],
  };
  const out: Record<string, unknown> = {};
  await Promise.all(
    Object.entries(reads).map(async ([name, [operation, params]]) => {
      out[name] = await ok(client(ESG, operation, params), `snapshot ${name}`);
    }),
  );
  for (const listing of ['frameworks', 'projects', 'assets']) {
    out[listing] = (out[listing] as unknown[]).filter((x) => JSON.stringify(x).includes(d.canary) || JSON.stringify(x).includes(d.publicCanary));
  }
  return out;
}

/** The shared reference data, read by anyone. */
export async function referenceSnapshot(client: V1): Promise<Record<string, unknown>> {
  const reads: Record<string, [string, Record<string, unknown>?]> = {
    taxonomy: ['getTaxonomy', { reporting_year: YEAR }],
    categories: ['getCategories', { reporting_year: YEAR }],
    subCategories: ['getSubCategories', { reporting_year: YEAR }],
    superIndicators: ['getSuperIndicators', { reporting_year: YEAR }],
    indicators: ['getIndicators', { reporting_year: YEAR }],
    units: ['getUnits', { reporting_year: YEAR }],
    currencies: ['getCurrencies'],
    fxRates: ['getFXrates', { reporting_year: YEAR }],
    languages: ['getLanguages'],
    groups: ['getGroups'],
  };
  const out: Record<string, unknown> = {};
  await Promise.all(
    Object.entries(reads).map(async ([name, [operation, params]]) => {
      out[name] = await ok(client(ESG, operation, params), `reference ${name}`);
    }),
  );
  return out;
}
