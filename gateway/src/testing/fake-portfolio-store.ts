import { Visibility } from '@green-impact/proto/greenimpact/common/v1/common';
import { TaxonomyServiceService } from '@green-impact/proto/greenimpact/taxonomy/v1/taxonomy';
import type { Caller } from '@green-impact/shared/caller';
import { InvalidArgumentError, NotFoundError, UnauthenticatedError } from '@green-impact/shared/errors';
import { createGrpcClient } from '@green-impact/shared/grpc/client';
import type { CallContext } from '@green-impact/shared/grpc/server';
import { fakeRecomputeJobs } from './fake-recompute-jobs.js';
import { computeRecords, totalsOf } from './fake-portfolio-impacts.js';
import { holding, q, type FakeAsset, type FakeInvestor, type FakePortfolioRecord, type FakePosition } from './fake-portfolio-records.js';

/**
 * The fake PortfolioService's state (fake-portfolio.ts) and the reads its methods share: every list in
 * memory, scoped to the caller's account (assets also to public ones), frameworks from the fake
 * TaxonomyService over gRPC as the caller. Texts are modelled on services/portfolio/src/messages.ts.
 */
export type FakePortfolioStore = ReturnType<typeof fakePortfolioStore>;

export function fakePortfolioStore(taxonomyAddress: string, calls: { method: string; request: unknown; caller: Caller | undefined }[]) {
  const taxonomy = createGrpcClient(TaxonomyServiceService, taxonomyAddress);
  const db = { assets: [] as FakeAsset[], investors: [] as FakeInvestor[], positions: [] as FakePosition[], portfolios: [] as FakePortfolioRecord[] };
  let nextId = 1;
  let nextImpactId = 1;
  const newId = () => nextId++;
  const recomputeJobs = fakeRecomputeJobs();
  const impactId = () => nextImpactId++;

  const record = (method: string, request: unknown, ctx: CallContext): Caller => {
    calls.push({ method, request, caller: ctx.caller });
    if (!ctx.caller) throw new UnauthenticatedError();
    return ctx.caller;
  };
  const mine = <T extends { account: string }>(list: T[], c: Caller) => list.filter((x) => x.account === c.accountId);

  // ---- db.assets ----
  const visibleAssets = (c: Caller) =>
    db.assets.filter((a) => a.account === c.accountId || a.visibility === Visibility.VISIBILITY_PUBLIC).sort((a, b) => Number(b.account === c.accountId) - Number(a.account === c.accountId) || a.id - b.id);
  const findAsset = (c: Caller, identifier: string) => visibleAssets(c).find((a) => a.identifier === identifier);
  const readAsset = (c: Caller, identifier: string) => {
    const found = findAsset(c, identifier);
    if (!found) throw new NotFoundError(`No such asset ${q(identifier)}.`);
    return found;
  };
  const frameworkDetail = async (c: Caller, frameworkIdentifier: string, year: number, languageCode?: string) => {
    const { frameworks } = await taxonomy.getFrameworkDetails({ frameworkIdentifier, reportingYear: year, languageCode }, { caller: c });
    return frameworks[0]!;
  };

  // ---- db.investors ----
  const readInvestor = (c: Caller, identifier: string) => {
    const found = mine(db.investors, c).find((i) => i.identifier === identifier);
    if (!found) throw new NotFoundError('No such investor.');
    return found;
  };

  // ---- db.positions ----
  const compute = async (c: Caller, p: FakePosition, year: number) => {
    const detail = await frameworkDetail(c, p.asset.frameworkIdentifier, year);
    return computeRecords(holding(p), detail, year, () => impactId());
  };
  const readPosition = (c: Caller, id: number) => {
    const found = mine(db.positions, c).find((p) => p.id === id);
    if (!found) throw new NotFoundError(`No such position ${id}.`);
    return found;
  };
  /** Records of the db.positions for the year, computing the missing ones when asked. */
  const summary = async (c: Caller, list: FakePosition[], year: number, computeMissing: boolean) => {
    if (computeMissing) for (const p of list) if (!p.impacts.has(year)) p.impacts.set(year, await compute(c, p, year));
    const impacts = list.flatMap((p) => p.impacts.get(year) ?? []);
    return { reportingYear: year, ...totalsOf(impacts), impacts, positionIdsWithoutImpacts: list.filter((p) => !p.impacts.has(year)).map((p) => p.id) };
  };
  const newPosition = (c: Caller, investor: FakeInvestor, asset: FakeAsset, terms: { amount: number; currency: string; days?: number | undefined; startDate?: string | undefined }) => {
    if (!(terms.amount > 0)) throw new InvalidArgumentError('position_amount must be a positive number.');
    const p: FakePosition = {
      id: newId(),
      account: c.accountId,
      investor,
      asset,
      amount: terms.amount,
      currency: terms.currency,
      days: terms.days ?? 365,
      startDate: terms.startDate,
      impacts: new Map(),
    };
    return p;
  };

  // ---- db.portfolios ----
  const readPortfolio = (c: Caller, identifier: string) => {
    const found = mine(db.portfolios, c).find((f) => f.identifier === identifier);
    if (!found) throw new NotFoundError(`No such portfolio ${q(identifier)}.`);
    return found;
  };
  const portfolioOf = (c: Caller, investorIdentifier: string, identifier: string) => {
    const investor = readInvestor(c, investorIdentifier);
    const found = mine(db.portfolios, c).find((f) => f.identifier === identifier && f.investor === investor);
    if (!found) throw new NotFoundError(`No portfolio ${q(identifier)} of investor ${q(investorIdentifier)}.`);
    return found;
  };
  const membership = (c: Caller, investorIdentifier: string, identifier: string, positionId: number) => {
    const portfolio = portfolioOf(c, investorIdentifier, identifier);
    const position = mine(db.positions, c).find((p) => p.id === positionId && p.investor === portfolio.investor);
    if (!position) throw new NotFoundError(`No position ${positionId} of investor ${q(investorIdentifier)}.`);
    return portfolio;
  };
  /** The spec's user filter: an investor outside the allowed list lists nothing. */
  const allowed = (filterActive: boolean, list: string[]) => (i: FakeInvestor) => !filterActive || list.includes(i.identifier);
  const requestedInvestor = (c: Caller, identifier: string) => (identifier === '' ? undefined : readInvestor(c, identifier));

  return {
    db,
    taxonomy,
    newId,
    impactId,
    recomputeJobs,
    ...{ record, mine, visibleAssets, findAsset, readAsset, frameworkDetail, readInvestor },
    ...{ compute, readPosition, summary, newPosition, readPortfolio, portfolioOf, membership, allowed, requestedInvestor },
  };
}
