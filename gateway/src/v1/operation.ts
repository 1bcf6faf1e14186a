import type { Caller } from '@green-impact/shared/caller';
import type { Logger } from '@green-impact/shared/logger';
import type { GatewayClients } from '../clients.js';
import type { ParamsOf, ParamSpecs } from './parameters.js';
import type { RequestFacts } from './request-facts.js';

/** The values of the envelope's `solution` field (spec §1, §4.1). */
export const SOLUTIONS = ['SVC.ESG.Credits', 'SVC.Blockchain.Hash', 'SVC.NFT.zK'] as const;
export type Solution = (typeof SOLUTIONS)[number];

/** Solutions whose envelope carries `version` (always 1) and `network` (spec §4.1, §9). */
export const VERSIONED_SOLUTIONS: ReadonlySet<Solution> = new Set<Solution>(['SVC.Blockchain.Hash', 'SVC.NFT.zK']);

/** What a handler gets besides its parameters. */
export interface OperationContext {
  caller: Caller;
  requestId: string;
  clients: GatewayClients;
  log: Logger;
  /** Envelope fields of the Hash and NFT solutions, already checked. */
  envelope: { version?: number; network?: string };
  /** What the HTTP request adds to the body (request-facts.ts). */
  http: RequestFacts;
}

/**
 * One row of the /v1/call operation table: which solution and operation it answers, the parameters
 * it accepts, and a handler that calls the backend and shapes the answer into the spec's JSON.
 * The handler's return value is sent as the 200 body; failures are thrown as DomainErrors.
 */
export interface OperationEntry<S extends ParamSpecs = ParamSpecs> {
  solution: Solution;
  operation: string;
  params: S;
  /** Envelope fields this operation needs (Hash and NFT solutions only). */
  envelope?: { version?: 'required'; network?: 'required' };
  handler(params: ParamsOf<S>, ctx: OperationContext): Promise<unknown>;
}

/** Declares a table row with its parameters typed from the specs. */
export function defineOperation<const S extends ParamSpecs>(entry: OperationEntry<S>): OperationEntry {
  return entry as unknown as OperationEntry;
}
