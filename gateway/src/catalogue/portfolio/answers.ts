import { z } from 'zod';
import { frameworkSummaryAnswer } from '../../generated/taxonomy.js';
import { assetAnswer, assetFrameworkRowAnswer, investorAnswer, portfolioAnswer, portfolioPositionAnswer, positionAnswer } from '../../generated/portfolio.js';
import {
  answer,
  changed,
  confirmation,
  currencyCode,
  exampleIndicator,
  examplePath,
  exampleRowFields,
  exampleSummary,
  id,
  indicatorFields,
  shared,
  taxonomyPathFields,
  timestamp,
  year,
  yesNo,
  type Answers,
} from '../answer-shapes.js';

/** A report page's link (catalogue/portfolio/reports.ts), under the one key that names it. */
const reportLink = (text: string) =>
  z.strictObject({ [text]: z.url().meta({ description: '{base}/reports/…/<year>.html?acct=…&exp=…&sig=…: opens without a key until it expires.' }) });
const EXAMPLE_SIG = 'Qm9yZGVyLXNpZ25lZC1saW5rLWV4YW1wbGUtc2lnbmF0dXJl';

/**
 * 200 answers of the portfolio operations: assets (§4.8), investors (§4.9), positions and portfolios
 * (§4.10) in the spec's shapes (§2.5–§2.7), optional values null; impacts and recompute jobs (not spec
 * operations) in the proto's fields, snake_case. removeInvestor and removePosition answer the spec's
 * confirmation object: the service's success text as the one key.
 */

/** The asset's framework: the framework summary of the year and its rows attributed to the asset. */
const assetFrameworkDetail = z.strictObject({
  ...frameworkSummaryAnswer.shape,
  framework: z.array(assetFrameworkRowAnswer),
});

/** One stored impact with every input of the formula, so a report can be audited. */
const impactRecord = shared(
  'ImpactRecord',
  z.strictObject({
    impact_id: id(),
    position_id: id(),
    reporting_year: year(),
    investor_identifier: z.string(),
    asset_identifier: z.string(),
    framework_identifier: z.string(),
    ...taxonomyPathFields,
    value: z.number(),
    attributed_volume: z.number(),
    framework_currency_code: currencyCode(),
    position_amount: z.number(),
    position_currency_code: currencyCode(),
    fx_rate: z.number(),
    position_amount_framework_currency: z.number(),
    framework_value_outstanding: z.number(),
    framework_allocated_amount: z.number(),
    value_outstanding_framework: yesNo(),
    attribution_denominator: z.number(),
    holding_days_in_year: z.int().min(0),
    days_in_year: z.int().min(365).max(366),
    tau: z.number().min(0).max(1),
    indicator_value: z.number(),
    sub_category_volume: z.number(),
    computed_at: timestamp(),
    stale: yesNo().meta({ description: 'yes: a framework or FX change made it stale; a recompute job is on its way.' }),
  }),
);
const impactTotal = z.strictObject({
  ...indicatorFields,
  value: z.number(),
  position_count: z.int().min(0),
});
const volumeTotal = z.strictObject({
  sub_category_id: id(),
  sub_category_name: z.string(),
  currency_code: currencyCode(),
  attributed_volume: z.number(),
});
/** Totals of a year's positions with the records they are made of (left out with include_records=no). */
const impactSummaryFields = {
  reporting_year: year(),
  totals: z.array(impactTotal),
  volume_totals: z.array(volumeTotal),
  impacts: z.array(impactRecord).optional(),
  position_ids_without_impacts: z.array(id()),
  stale_positions: z.int().min(0),
};

const recomputeJob = shared(
  'ImpactRecomputeJob',
  z.strictObject({
    job_id: z.string().min(1),
    scope: z.enum(['investor', 'portfolio', 'account', 'stale', 'unknown']),
    scope_identifier: z.string(),
    reporting_year: year().optional(),
    status: z.enum(['queued', 'running', 'completed', 'failed', 'unknown']),
    done: z.int().min(0),
    total: z.int().min(0),
    error: z.string(),
    reason: z.string(),
    attempts: z.int().min(0),
    created_at: timestamp(),
    started_at: timestamp().optional(),
    finished_at: timestamp().optional(),
  }),
);

const INVESTOR = 'inv_k3q7f2mzx4a5bn6c7d2e';
const record = {
  impact_id: 301,
  position_id: 77,
  reporting_year: 2024,
  investor_identifier: INVESTOR,
  asset_identifier: 'DE000A3E5XK9',
  framework_identifier: 'GF-2024',
  ...examplePath,
  value: 17,
  attributed_volume: 24_000,
  framework_currency_code: 'EUR',
  position_amount: 100_000,
  position_currency_code: 'EUR',
  fx_rate: 1,
  position_amount_framework_currency: 100_000,
  framework_value_outstanding: 500_000_000,
  framework_allocated_amount: 420_000_000,
  value_outstanding_framework: 'yes' as const,
  attribution_denominator: 500_000_000,
  holding_days_in_year: 366,
  days_in_year: 366,
  tau: 1,
  indicator_value: 85_000,
  sub_category_volume: 120_000_000,
  computed_at: '2025-01-15T09:30:00.000Z',
  stale: 'no' as const,
};
const totals = {
  reporting_year: 2024,
  totals: [{ ...exampleIndicator, value: 17, position_count: 1 }],
  volume_totals: [{ sub_category_id: 12, sub_category_name: 'Solar power', currency_code: 'EUR', attributed_volume: 24_000 }],
  impacts: [record],
  position_ids_without_impacts: [],
  stale_positions: 0,
};
const job = {
  job_id: '0b8f3c52-6a1e-4d7b-9f2c-1e5a7d3b9c40',
  scope: 'investor' as const,
  scope_identifier: INVESTOR,
  reporting_year: 2024,
  status: 'completed' as const,
  done: 3,
  total: 3,
  error: '',
  reason: 'requested',
  attempts: 1,
  created_at: '2025-01-15T09:30:00.000Z',
  started_at: '2025-01-15T09:30:00.120Z',
  finished_at: '2025-01-15T09:30:01.480Z',
};
const { started_at: _started, finished_at: _finished, ...created } = job;
const queued = { ...created, status: 'queued' as const, done: 0, total: 0, attempts: 0 };

export const portfolioAnswers = {
  getAssets: answer(z.array(assetAnswer), [
    {
      asset_id: 31,
      asset_identifier: 'DE000A3E5XK9',
      asset_name: 'Green bond 2031',
      asset_value_outstanding: 500_000_000,
      asset_currency_code: 'EUR',
      asset_date_issued: '2024-03-01',
      asset_date_maturity: '2031-03-01',
      issuer_identifier: 'NORDBANK',
      issuer_name: 'Nordbank AG',
      framework_identifier: 'GF-2024',
      framework_name: 'Green bond framework 2024',
      asset_visibility: 'public',
    },
  ]),
  getAssetFrameworkDetails: answer(z.array(assetFrameworkDetail), [
    { ...exampleSummary, framework: [{ ...exampleRowFields, currency_code: 'EUR' }] },
  ]),
  addAsset: changed('Asset added with id 31.'),
  removeAsset: changed('Asset removed.'),

  getInvestors: answer(z.array(investorAnswer), [
    { investor_id: 11, investor_identifier: INVESTOR, investor_name: 'Nordic Pension Fund', investor_currency_code: 'EUR', investor_email: null },
  ]),
  generateInvestorIdentifier: answer(z.strictObject({ investor_identifier: z.string().regex(/^inv_[a-z2-7]{20}$/) }), {
    investor_identifier: INVESTOR,
  }),
  addInvestor: changed('Investor added.'),
  removeInvestor: answer(confirmation(z.string(), 'The service\'s success text → the removed investor\'s identifier.'), {
    'Investor removed.': INVESTOR,
  }),

  getPositions: answer(z.array(positionAnswer), [
    {
      position_id: 77,
      position_amount: 100_000,
      position_currency_code: 'EUR',
      position_days: 366,
      position_start_date: '2024-01-01',
      investor_identifier: INVESTOR,
      investor_name: 'Nordic Pension Fund',
      asset_identifier: 'DE000A3E5XK9',
      asset_name: 'Green bond 2031',
      issuer_identifier: 'NORDBANK',
      issuer_name: 'Nordbank AG',
    },
  ]),
  addPosition: changed('Position added with id 77.'),
  removePosition: answer(confirmation(id(), 'The service\'s success text → the removed position\'s id.'), { 'Position removed.': 77 }),

  getPortfolios: answer(z.array(portfolioAnswer), [
    {
      portfolio_id: 6,
      portfolio_identifier: 'CORE-GREEN',
      investor_identifier: INVESTOR,
      investor_name: 'Nordic Pension Fund',
      assets: [{ asset_identifier: 'DE000A3E5XK9', asset_name: 'Green bond 2031' }],
    },
  ]),
  getPortfolioPositions: answer(z.array(portfolioPositionAnswer), [
    {
      position_id: 77,
      position_amount: 100_000,
      position_currency_code: 'EUR',
      position_days: 366,
      asset_identifier: 'DE000A3E5XK9',
      asset_name: 'Green bond 2031',
      issuer_identifier: 'NORDBANK',
      issuer_name: 'Nordbank AG',
    },
  ]),
  addPortfolio: changed('Portfolio added with id 6.'),
  addPositionToPortfolio: changed('Position added to portfolio.'),
  removePositionFromPortfolio: changed('Position removed from portfolio.'),
  removePortfolio: changed('Portfolio removed.'),

  computePositionImpacts: answer(z.strictObject({ message: z.string().min(1), impacts: z.array(impactRecord) }), {
    message: 'Impacts of position 77 for 2024 computed: 1 record.',
    impacts: [record],
  }),
  getPositionImpacts: answer(z.array(impactRecord), [record]),
  getPortfolioImpacts: answer(
    z.strictObject({ portfolio_identifier: z.string(), investor_identifier: z.string(), ...impactSummaryFields }),
    { portfolio_identifier: 'CORE-GREEN', investor_identifier: INVESTOR, ...totals },
  ),
  getInvestorImpacts: answer(z.strictObject({ investor_identifier: z.string(), ...impactSummaryFields }), {
    investor_identifier: INVESTOR,
    ...totals,
  }),
  getHtmlPortfolioImpactReport: answer(reportLink('Portfolio impact report'), {
    'Portfolio impact report': `https://impact.example.org/reports/portfolios/CORE-GREEN/2024.html?acct=acc-1&exp=1767225600&sig=${EXAMPLE_SIG}`,
  }),
  getHtmlInvestorImpactReport: answer(reportLink('Investor impact report'), {
    'Investor impact report': `https://impact.example.org/reports/investors/${INVESTOR}/2024.html?acct=acc-1&exp=1767225600&sig=${EXAMPLE_SIG}`,
  }),

  startImpactRecompute: answer(
    z.strictObject({ message: z.string().min(1), job_id: z.string().min(1), created: yesNo(), job: recomputeJob }),
    { message: `Recompute job queued with id ${job.job_id}.`, job_id: job.job_id, created: 'yes', job: queued },
  ),
  getImpactRecomputeJob: answer(recomputeJob, job),
  getImpactRecomputeJobs: answer(z.array(recomputeJob), [job]),
} satisfies Answers;
