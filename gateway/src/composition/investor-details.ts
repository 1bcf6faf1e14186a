import type { Caller } from '@green-impact/shared/caller';
import type { GatewayClients } from '../clients.js';

/** An investor a user may access, as getInvestorsOfUser and GraphQL's investorsOfUser show it. */
export interface InvestorDetails {
  investorId: number | null;
  investorIdentifier: string;
  investorName: string | null;
}

/** A user with the investors the user may access, details filled in. */
export interface UserWithInvestors {
  userId: number;
  userIdentifier: string;
  investors: InvestorDetails[];
}

export interface CompositionContext {
  caller: Caller;
  requestId: string;
  clients: GatewayClients;
}

/** PortfolioService answers at most this many identifiers per batch read. */
const MAX_BATCH = 1_000;

/**
 * COMPOSITION POINT: identity knows only which investor identifiers a user was given; the investors
 * themselves (id, name, PII decrypted with `decryptionKey`) live in the portfolio service. The identifiers
 * of every user are looked up together, in one GetInvestorsByIdentifiers call per 1 000 distinct
 * identifiers, scoped to the caller's account; /v1/call and GraphQL both come here.
 *
 * - An identifier without an investor record (never added, or removed since) keeps id and name null.
 * - Names are masked unless `decryptionKey` opens them; a key that opens none of the encrypted records is
 *   the portfolio service's INVALID_ARGUMENT (never garbage).
 * - Without a portfolio backend, ids and names are null: identity alone stays a usable system.
 */
export async function withInvestorDetails(
  users: readonly { userId: number; userIdentifier: string; investorIdentifiers: readonly string[] }[],
  options: { decryptionKey?: string | undefined },
  ctx: CompositionContext,
): Promise<UserWithInvestors[]> {
  const found = await investorsByIdentifier(
    users.flatMap((u) => u.investorIdentifiers),
    options.decryptionKey,
    ctx,
  );
  return users.map((u) => ({
    userId: u.userId,
    userIdentifier: u.userIdentifier,
    investors: u.investorIdentifiers.map(
      (investorIdentifier) => found.get(investorIdentifier) ?? { investorId: null, investorIdentifier, investorName: null },
    ),
  }));
}

async function investorsByIdentifier(
  identifiers: readonly string[],
  decryptionKey: string | undefined,
  ctx: CompositionContext,
): Promise<Map<string, InvestorDetails>> {
  const portfolio = ctx.clients.portfolio;
  const distinct = [...new Set(identifiers)];
  const found = new Map<string, InvestorDetails>();
  if (!portfolio || distinct.length === 0) return found;
  const chunks: string[][] = [];
  for (let i = 0; i < distinct.length; i += MAX_BATCH) chunks.push(distinct.slice(i, i + MAX_BATCH));
  const answers = await Promise.all(
    chunks.map((investorIdentifiers) =>
      portfolio.getInvestorsByIdentifiers({ investorIdentifiers, decryptionKey }, { caller: ctx.caller, requestId: ctx.requestId }),
    ),
  );
  for (const { investors } of answers) {
    for (const i of investors) {
      found.set(i.investorIdentifier, { investorId: i.investorId, investorIdentifier: i.investorIdentifier, investorName: i.investorName });
    }
  }
  return found;
}
