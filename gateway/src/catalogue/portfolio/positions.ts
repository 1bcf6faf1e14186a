import type { Position } from '@green-impact/proto/greenimpact/portfolio/v1/portfolio';
import { servicePageOf } from '../../graphql/pagination.js';
import { messageResult } from '../../graphql/mappers.js';
import { removalPayload } from '../../graphql/payloads.js';
import { keyed } from '../../graphql/portfolio-reads.js';
import { listed } from '../../v1/truncation.js';
import { int, number, text } from '../fields.js';
import { declare, type CallContext } from '../operation.js';
import { ESG } from '../renders.js';
import {
  assetIdentifier,
  currencyCode,
  decryptionKey,
  investorIdentifier,
  issuerIdentifier,
  positionId,
  reportingYear,
  SERVICE_ID,
  userIdentifier,
  portfolioChange,
} from './fields.js';
import { listingRequest, type Listing } from './investor-filter.js';
import { positionRow } from '../../generated/portfolio.js';

/**
 * Positions (spec §4.10), served by PortfolioService. `user_identifier` limits a listing to the investors
 * identity gave that user (investor-filter.ts). The service owns every rule: a positive amount up to its
 * maximum, the currency code, position_days (1 to MAX_POSITION_DAYS), the start date, the year.
 */

const listingInput = {
  assetIdentifier: assetIdentifier.with({ doc: 'Only positions in this asset.' }).optional(),
  issuerIdentifier: issuerIdentifier.with({ doc: 'Only positions in assets of this issuer.' }).optional(),
  userIdentifier: userIdentifier.optional(),
  decryptionKey: decryptionKey.optional(),
};

/** GetPositions of a listing: the shared listing, and the issuer. */
const positionsRequest = async (i: Listing & { issuerIdentifier?: string | undefined }, ctx: CallContext) => ({
  ...(await listingRequest(i, ctx)),
  issuerIdentifier: i.issuerIdentifier,
});

export const getPositions = declare({
  solution: ESG,
  operation: 'getPositions',
  summary: "An investor's positions, filtered.",
  input: { investorIdentifier, ...listingInput },
  service: 'portfolio',
  method: 'getPositions',
  request: positionsRequest,
  v1: (res, _i, ctx) => listed(ctx, res, res.positions.map(positionRow)),
});

export const positions = declare({
  solution: ESG,
  summary: "The account's positions, filtered: every investor's unless one is named.",
  input: { investorIdentifier: investorIdentifier.with({ doc: "Only this investor's positions; default every investor of the account." }).optional(), ...listingInput },
  service: 'portfolio',
  method: 'getPositions',
  request: positionsRequest,
  graphql: {
    root: 'Query',
    field: 'positions',
    returns: 'PositionConnection!',
    nested: false,
    paged: {
      idOf: (p: Position) => p.positionId,
      idPattern: SERVICE_ID,
      backward: true,
      orderBy: {
        type: 'Position',
        plural: 'positions',
        fields: {
          AMOUNT: 'The amount as a number, whatever its currency.',
          CURRENCY_CODE: 'The currency code of the amount.',
          DAYS: 'The term in days.',
          START_DATE: 'The start date; positions without one last going up.',
          INVESTOR_IDENTIFIER: "The investor's identifier, as text.",
          ASSET_IDENTIFIER: "The asset's identifier, as text.",
        },
      },
    },
    render: async (call, i) => {
      const res = await call();
      return servicePageOf(res.positions.map((p) => keyed(p, i.decryptionKey)), res);
    },
  },
});

// Always a new position; the message ends with its id (spec). With reporting_year the service computes
// and stores the year's impacts in the same transaction, or adds nothing.
export const addPosition = declare({
  ...portfolioChange('addPosition', "Adds a position of an investor in an asset; with a year, the year's impacts are computed and stored with it."),
  input: {
    investorIdentifier,
    assetIdentifier,
    amount: number('position_amount', { doc: 'The amount held; positive.' }),
    currencyCode: currencyCode('position_currency_code'),
    /** When given, the impacts of this year are computed and stored with the position. */
    year: reportingYear.with({ doc: 'When given, the impacts of this reporting year are computed and stored with the position.' }).optional(),
    /** Default 365 (the service's). */
    days: int('position_days', { doc: 'The term in days; default 365.' }).optional(),
    startDate: text('position_start_date', { doc: 'YYYY-MM-DD.', graphql: 'Date' }).optional(),
  },
  request: (i) => ({
    investorIdentifier: i.investorIdentifier,
    assetIdentifier: i.assetIdentifier,
    positionAmount: i.amount,
    positionCurrencyCode: i.currencyCode,
    reportingYear: i.year,
    positionDays: i.days,
    positionStartDate: i.startDate,
  }),
  graphql: {
    root: 'Mutation',
    field: 'addPosition',
    returns: 'PositionImpactsPayload!',
    nested: true,
    render: async (call) => {
      const res = await call();
      return { ...messageResult(res), impacts: res.impacts };
    },
  },
});

export const removePosition = declare({
  solution: ESG,
  operation: 'removePosition',
  summary: 'Removes a position of an investor with its impacts and portfolio memberships.',
  input: { investorIdentifier, positionId },
  service: 'portfolio',
  method: 'removePosition',
  request: (i) => ({ investorIdentifier: i.investorIdentifier, positionId: i.positionId }),
  // The spec's confirmation object: the success text as the key, the position id as the value.
  v1: (res, i) => ({ [res.message]: res.id ?? i.positionId }),
  graphql: { root: 'Mutation', field: 'removePosition', returns: 'RemovalPayload!', nested: false, render: (call, i, ctx, info) => removalPayload(ctx, info, i.positionId, call) },
});

export const positionOperations = [getPositions, positions, addPosition, removePosition];
