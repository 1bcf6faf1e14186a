import type { Investor } from '@green-impact/proto/greenimpact/portfolio/v1/portfolio';
import { servicePageOf } from '../../graphql/pagination.js';
import { portfolioClient } from '../../clients.js';
import { callAs, type GraphqlContext } from '../../graphql/context.js';
import { changePayload, removalPayload } from '../../graphql/payloads.js';
import { keyed, portfolioReads, type Keyed } from '../../graphql/portfolio-reads.js';
import { listed } from '../../v1/truncation.js';
import { text } from '../fields.js';
import { withLabels } from '../graphql.js';
import { declare } from '../operation.js';
import { ESG } from '../renders.js';
import { currencyCode, decryptionKey, investorIdentifier, pageFields, portfolioChange, SERVICE_ID } from './fields.js';
import { investorRow } from '../../generated/portfolio.js';

/**
 * Investors (spec §4.9) served by PortfolioService (generateEncryptionKey is identity's). Investors are
 * private to the account; names and e-mails are PII, stored encrypted with `encryption_key` and returned
 * in clear only with the matching `decryption_key` (masked otherwise). The service owns every rule:
 * lengths, the currency code, the e-mail address, the keys.
 */

/**
 * The investor an identifier reads for the caller, through the request's batched reads (per key); null
 * when the account has none. For investor(identifier), the payloads of changes and node().
 */
export async function investorOf(ctx: GraphqlContext, identifier: string, key: string | undefined): Promise<Keyed<Investor> | null> {
  await callAs(ctx);
  portfolioClient(ctx.clients);
  return (await portfolioReads(ctx).investor(identifier, key)) ?? null;
}

export const getInvestors = declare({
  solution: ESG,
  operation: 'getInvestors',
  summary: "The account's investors; names and e-mails in clear with the decryption key, masked otherwise.",
  input: { decryptionKey: decryptionKey.optional() },
  service: 'portfolio',
  method: 'getInvestors',
  request: (i, ctx) => ({ decryptionKey: i.decryptionKey, ...pageFields(ctx.page) }),
  v1: (res, _i, ctx) => listed(ctx, res, res.investors.map(investorRow)),
  graphql: {
    root: 'Query',
    field: 'investors',
    returns: 'InvestorConnection!',
    nested: false,
    paged: {
      idOf: (i: Investor) => i.investorId,
      idPattern: SERVICE_ID,
      backward: true,
      // Only what is stored in clear: names and e-mails may be sealed.
      orderBy: {
        type: 'Investor',
        plural: 'investors',
        fields: {
          IDENTIFIER: 'The identifier, as text.',
          CURRENCY_CODE: 'The currency code.',
          CREATED_AT: 'When the investor was added.',
          UPDATED_AT: 'When the investor was last changed (added again under its identifier).',
        },
      },
    },
    render: async (call, i) => {
      const res = await call();
      return servicePageOf(res.investors.map((r) => keyed(r, i.decryptionKey)), res);
    },
  },
});

export const investor = declare({
  solution: ESG,
  summary: 'One investor of the account by identifier; null when there is none.',
  input: { identifier: investorIdentifier, decryptionKey: decryptionKey.optional() },
  service: 'portfolio',
  method: 'getInvestorsByIdentifiers',
  request: (i) => ({ investorIdentifiers: [i.identifier], decryptionKey: i.decryptionKey }),
  // Read through the request's batched loader, so the investor fields of one request share a call.
  graphql: {
    root: 'Query',
    field: 'investor',
    returns: 'Investor',
    nested: false,
    render: (_call, i, ctx) => withLabels(investorOf(ctx, i.identifier, i.decryptionKey), { investor_identifier: 'identifier', decryption_key: 'decryptionKey' }),
  },
});

export const generateInvestorIdentifier = declare({
  solution: ESG,
  operation: 'generateInvestorIdentifier',
  summary: 'A new investor identifier, unused in the account.',
  input: {},
  service: 'portfolio',
  method: 'generateInvestorIdentifier',
  request: () => ({}),
  v1: (res) => ({ investor_identifier: res.investorIdentifier }),
  graphql: {
    root: 'Mutation',
    field: 'generateInvestorIdentifier',
    returns: 'GenerateInvestorIdentifierPayload!',
    nested: false,
    render: async (call) => ({ investorIdentifier: (await call()).investorIdentifier }),
  },
});

export const addInvestor = declare({
  ...portfolioChange('addInvestor', 'Adds an investor, or replaces the one of that identifier; PII encrypted with the encryption key when given.'),
  input: {
    identifier: investorIdentifier,
    name: text('investor_name', { doc: "The investor's name (PII)." }),
    /** Accepted and stored, not used in any computation (spec). */
    currencyCode: currencyCode('investor_currency_code'),
    encryptionKey: text('encryption_key', { doc: 'Encrypts the name and e-mail (generateEncryptionKey).' }).optional(),
    email: text('investor_email', { doc: "The investor's e-mail address (PII)." }).optional(),
  },
  request: (i) => ({
    investorIdentifier: i.identifier,
    investorName: i.name,
    investorCurrencyCode: i.currencyCode,
    encryptionKey: i.encryptionKey,
    investorEmail: i.email,
  }),
  graphql: {
    root: 'Mutation',
    field: 'addInvestor',
    returns: 'InvestorPayload!',
    nested: true,
    order: ['identifier', 'name', 'currencyCode', 'email', 'encryptionKey'],
    // In clear only with the key the change was given, as investor(identifier, decryptionKey) shows it.
    render: async (call, i, ctx) => changePayload(ctx, await call(), 'investor', () => investorOf(ctx, i.identifier, i.encryptionKey)),
  },
});

export const removeInvestor = declare({
  solution: ESG,
  operation: 'removeInvestor',
  summary: 'Removes an investor with its positions and portfolios.',
  input: { identifier: investorIdentifier },
  service: 'portfolio',
  method: 'removeInvestor',
  request: (i) => ({ investorIdentifier: i.identifier }),
  // The spec's confirmation object: the success text as the key, the investor's identifier as the value.
  v1: (res, i) => ({ [res.message]: res.investorIdentifier || i.identifier }),
  graphql: {
    root: 'Mutation',
    field: 'removeInvestor',
    returns: 'RemovalPayload!',
    nested: false,
    // Its id read before the removal, without a key (only the id is used).
    render: (call, i, ctx, info) => removalPayload(ctx, info, async () => (await investorOf(ctx, i.identifier, undefined))?.investorId, call),
  },
});

export const investorOperations = [getInvestors, investor, generateInvestorIdentifier, addInvestor, removeInvestor];
