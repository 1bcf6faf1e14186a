import { UUID } from '@green-impact/proto/rules';
import type { Job, Nft } from '@green-impact/proto/greenimpact/chain/v1/chain';
import { AccountRole, type Account, type User } from '@green-impact/proto/greenimpact/identity/v1/identity';
import { assetOf } from '../../catalogue/portfolio/assets.js';
import { investorOf } from '../../catalogue/portfolio/investors.js';
import { portfolioOf } from '../../catalogue/portfolio/portfolios.js';
import { recomputeJobOf } from '../../catalogue/portfolio/recompute-jobs.js';
import { frameworkOf } from '../../catalogue/frameworks/frameworks.js';
import { projectOf } from '../../catalogue/frameworks/projects.js';
import { portfolioClient } from '../../clients.js';
import { callAs, type GraphqlContext } from '../context.js';
import type { FrameworkOfYear, ProjectOfYear } from '../framework-reads.js';
import type { Asset, ImpactRecomputeJob, Investor, Portfolio, Position } from '@green-impact/proto/greenimpact/portfolio/v1/portfolio';
import { portfolioReads } from '../portfolio-reads.js';
import { jobById } from '../../catalogue/chain/jobs.js';
import { nftByGuid } from '../../catalogue/chain/nfts.js';
import { accountQueries } from './account-resolvers.js';
import { resolverOf } from '../../catalogue/graphql.js';
import { getUsers } from '../../catalogue/identity/users.js';

/**
 * The types that implement Node: for each, the key its nodeId encodes (from fields the object already
 * carries) and the refetch node(id:) runs. Every refetch is an existing read as the caller — the Query
 * resolvers, or the request's batched reads behind them — so node() shows exactly what those reads show:
 * another account's private record, a removed one, or one the caller may not list reads null, and investor
 * names and e-mails stay masked (node() takes no decryption key). A key that names the object by
 * identifier also carries its id, and the refetch answers only the object with that id: an identifier
 * that since names another object (removed and added again, or the caller's own shadowing a public one)
 * reads null rather than a different object under the same nodeId.
 */

export interface NodeType<T> {
  /** How many parts the key has; the last may hold ':'. */
  parts: number;
  /** The key's parts, from the object as the schema's resolvers carry it. */
  key(obj: T): (string | number)[];
  /** The object for the key, read as the caller; null when the caller cannot see it (or it is gone). Throws NotANodeId on a part it cannot take. */
  refetch(parts: string[], ctx: GraphqlContext): Promise<T | null>;
}

/** A key part refused: the id was not given out by this API (node-resolvers.ts answers INVALID_ARGUMENT). */
export class NotANodeId extends Error {}

const SERIAL = /^[1-9][0-9]{0,14}$/;
const YEAR = /^[0-9]{4}$/;

/** A key part of the given shape, else NotANodeId. */
export function part(value: string | undefined, shape: RegExp): string {
  if (value === undefined || !shape.test(value)) throw new NotANodeId();
  return value;
}
export const serial = (value: string | undefined) => Number(part(value, SERIAL));
export const year = (value: string | undefined) => Number(part(value, YEAR));
const identifier = (value: string | undefined) => part(value, /^[^\s][\s\S]*$/);
/**
 * An asset's, investor's or portfolio's identifier as the portfolio service stores it (trimmed, 1 to 255
 * characters, no control characters): one it could not have given out is not a nodeId of this API.
 */
const storedIdentifier = (value: string | undefined) => part(value, /^[^\s\u0000-\u001f\u007f][^\u0000-\u001f\u007f]{0,254}$/);

/** The object when it is the one the key's id names (`idOf` reads its id), else null. */
const sameId = <T>(found: T | null | undefined, id: string | number, idOf: (found: T) => string | number): T | null =>
  found && String(idOf(found)) === String(id) ? found : null;

/** users(userIdentifier) as GraphQL reads it: the one user with the identifier (the service filters). */
const usersNamed = resolverOf(getUsers) as (source: unknown, args: { userIdentifier: string | null }, ctx: GraphqlContext, info: never) => Promise<{ items: User[] }>;


/** Every account, read once per request (listAccounts; operators only). */
const accountsOfRequest = new WeakMap<GraphqlContext, Promise<Account[]>>();

function everyAccount(ctx: GraphqlContext): Promise<Account[]> {
  let all = accountsOfRequest.get(ctx);
  if (!all) {
    all = (async () => (await ctx.clients.identity.listAccounts({}, await callAs(ctx))).accounts)();
    accountsOfRequest.set(ctx, all);
  }
  return all;
}

export const nodeTypes = {
  Job: {
    parts: 1,
    key: (j: Job) => [j.id],
    refetch: async ([id], ctx) => sameId(await jobById(ctx, part(id, UUID)), id!, (j) => j.id),
  } satisfies NodeType<Job>,
  ImpactRecomputeJob: {
    parts: 1,
    key: (j: ImpactRecomputeJob) => [j.jobId],
    refetch: async ([id], ctx) => sameId(await recomputeJobOf(ctx, part(id, UUID)), id!, (j) => j.jobId),
  } satisfies NodeType<ImpactRecomputeJob>,
  Nft: {
    parts: 1,
    key: (n: Nft) => [n.guid],
    refetch: async ([guid], ctx) => {
      const found = await nftByGuid(ctx, part(guid, UUID));
      return found && found.guid === guid ? found : null;
    },
  } satisfies NodeType<Nft>,
  Position: {
    parts: 1,
    key: (p: Position) => [p.positionId],
    /** As Portfolio.positions reads them: GetPositionsByIds as the caller, without a key. */
    refetch: async ([id], ctx) => {
      const positionId = serial(id);
      await callAs(ctx);
      portfolioClient(ctx.clients);
      return (await portfolioReads(ctx).position(positionId, undefined)) ?? null;
    },
  } satisfies NodeType<Position>,
  Asset: {
    parts: 2,
    key: (a: Asset) => [a.assetId, a.assetIdentifier],
    refetch: async ([id, ident], ctx) => sameId(await assetOf(ctx, storedIdentifier(ident)), serial(id), (a) => a.assetId),
  } satisfies NodeType<Asset>,
  Investor: {
    parts: 2,
    key: (i: Investor) => [i.investorId, i.investorIdentifier],
    /** Without a key: an encrypted name and e-mail read masked, as investor(identifier) shows them. */
    refetch: async ([id, ident], ctx) => sameId(await investorOf(ctx, storedIdentifier(ident), undefined), serial(id), (i) => i.investorId),
  } satisfies NodeType<Investor>,
  Portfolio: {
    parts: 2,
    key: (p: Portfolio) => [p.portfolioId, p.portfolioIdentifier],
    refetch: async ([id, ident], ctx) => sameId(await portfolioOf(ctx, storedIdentifier(ident), undefined), serial(id), (p) => p.portfolioId),
  } satisfies NodeType<Portfolio>,
  User: {
    parts: 2,
    key: (u: User) => [u.userId, u.userIdentifier],
    /** As users(userIdentifier) reads it without a key: an encrypted user's names and e-mail masked. */
    refetch: async ([id, ident], ctx) => {
      const page = await usersNamed(undefined, { userIdentifier: identifier(ident) }, ctx, undefined as never);
      return sameId(page.items[0], serial(id), (u) => u.userId);
    },
  } satisfies NodeType<User>,
  Account: {
    parts: 1,
    key: (a: Account) => [a.id],
    /** The caller's own account (me); any other only for an operator, from accounts. */
    refetch: async ([id], ctx) => {
      const accountId = part(id, /^[0-9a-z]+(-[0-9a-z]+)*$/);
      const me = await accountQueries.me(undefined, undefined, ctx);
      if (me.id === accountId) return me;
      if ((await ctx.auth()).account.role !== AccountRole.ACCOUNT_ROLE_OPERATOR) return null;
      return (await everyAccount(ctx)).find((a) => a.id === accountId) ?? null;
    },
  } satisfies NodeType<Account>,
  Framework: {
    parts: 3,
    key: (f: FrameworkOfYear) => [f.frameworkId, f.year, f.frameworkIdentifier],
    /** framework(identifier, year) as the caller: the caller's own by that identifier, else the public one. */
    refetch: async ([id, y, ident], ctx) =>
      sameId(await frameworkOf(ctx, identifier(ident), year(y)), serial(id), (f) => f.frameworkId),
  } satisfies NodeType<FrameworkOfYear>,
  Project: {
    parts: 3,
    key: (p: ProjectOfYear) => [p.projectId, p.year, p.projectIdentifier],
    refetch: async ([id, y, ident], ctx) =>
      sameId(await projectOf(ctx, identifier(ident), year(y)), serial(id), (p) => p.projectId),
  } satisfies NodeType<ProjectOfYear>,
};

