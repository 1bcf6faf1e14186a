import { portfolioClient } from '../../clients.js';
import { defineOperation } from '../operation.js';
import { addInvestorParams, addInvestorRequest, getInvestorsParams, investorIdentifierParams } from './portfolio-params.js';
import { investorRow } from './portfolio-shapes.js';
import { call, messageOnly } from './taxonomy.js';
import { listed } from '../truncation.js';

/**
 * /v1/call operations of spec §4.9 served by PortfolioService (generateEncryptionKey is identity's, in
 * identity.ts). Investors are private to the account; names and e-mails are PII, stored encrypted with
 * `encryption_key` and returned in clear only with the matching `decryption_key` (masked otherwise).
 */

const ESG = 'SVC.ESG.Credits';

export const investorOperations = [
  defineOperation({
    solution: ESG,
    operation: 'getInvestors',
    params: getInvestorsParams,
    async handler(p, ctx) {
      const res = await portfolioClient(ctx.clients).getInvestors({ decryptionKey: p.decryption_key }, call(ctx));
      return listed(ctx, res, res.investors.map(investorRow));
    },
  }),
  defineOperation({
    solution: ESG,
    operation: 'generateInvestorIdentifier',
    params: {},
    async handler(_p, ctx) {
      const { investorIdentifier } = await portfolioClient(ctx.clients).generateInvestorIdentifier({}, call(ctx));
      return { investor_identifier: investorIdentifier };
    },
  }),
  defineOperation({
    solution: ESG,
    operation: 'addInvestor',
    params: addInvestorParams,
    async handler(p, ctx) {
      return messageOnly(await portfolioClient(ctx.clients).addInvestor(addInvestorRequest(p), call(ctx)));
    },
  }),
  defineOperation({
    // The spec's confirmation object: the success text as the key, the investor's identifier as the value.
    solution: ESG,
    operation: 'removeInvestor',
    params: investorIdentifierParams,
    async handler(p, ctx) {
      const res = await portfolioClient(ctx.clients).removeInvestor({ investorIdentifier: p.investor_identifier }, call(ctx));
      return { [res.message]: res.investorIdentifier || p.investor_identifier };
    },
  }),
];
