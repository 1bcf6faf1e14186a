import * as v from '../validation.js';
import type { Investor, PortfolioServiceService } from '@green-impact/proto/greenimpact/portfolio/v1/portfolio';
import { requireAccount } from '../caller.js';
import type { UnaryHandlers } from '@green-impact/shared/grpc/server';
import { MSG } from '../messages.js';
import type { PortfolioStores } from '../stores.js';
import type { InvestorView } from './investor-store.js';

type Handlers = UnaryHandlers<typeof PortfolioServiceService>;

/** §4.9 investors. */
export function investorHandlers(
  s: PortfolioStores,
): Pick<Handlers, 'getInvestors' | 'generateInvestorIdentifier' | 'addInvestor' | 'removeInvestor' | 'getInvestorsByIdentifiers'> {
  return {
    async getInvestors(req, ctx) {
      const caller = requireAccount(ctx.caller);
      // No page asked for: the whole list up to MAX_LIST_ITEMS (/v1/call's getInvestors); total_count says it was cut.
      if (req.pageSize === undefined) {
        const { investors, totalCount } = await s.investors.list(caller, v.optionalKey('decryption_key', req.decryptionKey));
        return { investors: investors.map(investorMsg), nextPageToken: '', hasPreviousPage: false, itemPageTokens: [], ...(totalCount !== undefined ? { totalCount } : {}) };
      }
      const request = { size: req.pageSize, token: req.pageToken, before: req.pageBefore, order: req.pageOrder };
      const page = await s.investors.page(caller, request, v.optionalKey('decryption_key', req.decryptionKey));
      return {
        investors: page.investors.map(investorMsg),
        nextPageToken: page.nextPageToken,
        totalCount: page.totalCount,
        hasPreviousPage: page.hasPreviousPage,
        itemPageTokens: page.itemPageTokens,
      };
    },
    async generateInvestorIdentifier(_req, ctx) {
      return { investorIdentifier: await s.investors.generateIdentifier(requireAccount(ctx.caller)) };
    },
    async addInvestor(req, ctx) {
      const r = await s.investors.add(requireAccount(ctx.caller), {
        investorIdentifier: req.investorIdentifier,
        investorName: req.investorName,
        currencyCode: req.investorCurrencyCode,
        encryptionKey: v.optionalKey('encryption_key', req.encryptionKey),
        investorEmail: req.investorEmail,
      });
      return { message: r.created ? MSG.investorAdded : MSG.investorUpdated, id: r.id };
    },
    async removeInvestor(req, ctx) {
      const id = await s.investors.remove(requireAccount(ctx.caller), req.investorIdentifier);
      return { message: MSG.investorRemoved, id, investorIdentifier: req.investorIdentifier.trim() };
    },
    async getInvestorsByIdentifiers(req, ctx) {
      const list = await s.investors.byIdentifiers(requireAccount(ctx.caller), req.investorIdentifiers, v.optionalKey('decryption_key', req.decryptionKey));
      return { investors: list.map(investorMsg) };
    },
  };
}

function investorMsg(i: InvestorView): Investor {
  return {
    investorId: i.id,
    investorIdentifier: i.investorIdentifier,
    investorName: i.investorName,
    investorCurrencyCode: i.currencyCode,
    ...(i.investorEmail !== undefined ? { investorEmail: i.investorEmail } : {}),
    encrypted: i.encrypted,
    masked: i.masked,
  };
}
