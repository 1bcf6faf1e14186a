import type { Caller } from '@green-impact/shared/caller';
import type { GatewayClients } from '../clients.js';

/** An investor a user may access, as getInvestorsOfUser and GraphQL's investorsOfUser show it. */
export interface InvestorDetails {
  investorId: number | null;
  investorIdentifier: string;
  investorName: string | null;
}

export interface CompositionContext {
  caller: Caller;
  requestId: string;
  clients: GatewayClients;
}

/**
 * COMPOSITION POINT: identity knows only which investor identifiers a user was given; the investors
 * themselves (id, name, PII decrypted with `decryptionKey`) live in the portfolio service. Until its
 * client exists, id and name are null. When it lands, look the identifiers up here in one batch call
 * (scoped to `ctx.caller`'s account) and fill them in; both /v1/call and GraphQL pick it up.
 */
export async function investorDetails(
  identifiers: readonly string[],
  _options: { decryptionKey?: string | undefined },
  _ctx: CompositionContext,
): Promise<InvestorDetails[]> {
  return identifiers.map((investorIdentifier) => ({ investorId: null, investorIdentifier, investorName: null }));
}
