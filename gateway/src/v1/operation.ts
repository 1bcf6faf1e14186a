import type { Caller } from '@green-impact/shared/caller';
import type { Logger } from '@green-impact/shared/logger';
import type { GatewayClients } from '../clients.js';
import type { Fields } from '../catalogue/fields.js';
import type { RequestFacts } from './request-facts.js';
import type { DocumentLinks } from '../document-links.js';
import type { AnswerHeaders } from './truncation.js';

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
  /** Signs the links to written pages that answers hand out (document-links.ts). */
  documentLinks: DocumentLinks;
  /** Headers of the 200 answer (truncation.ts); absent where no HTTP answer is made (unit tests). */
  answer?: AnswerHeaders | undefined;
}

/**
 * What the handler of an operation called without an API key gets: everything but a caller. The chain
 * service decides on what the parameters carry (a transfer code), not on an account.
 */
export interface KeylessOperationContext extends Omit<OperationContext, 'caller'> {
  caller?: undefined;
}

interface OperationRow {
  solution: Solution;
  operation: string;
  /**
   * The declaration's fields (catalogue/fields.ts): the envelope reads the parameters with them
   * (catalogue/parse.ts, inputFromV1) and OpenAPI describes them (openapi.ts).
   */
  input: Fields;
  /** Envelope fields this operation needs (Hash and NFT solutions only). */
  envelope?: { version?: 'required'; network?: 'required' } | undefined;
  /** Whether the operation changes anything: a read-only bearer token is refused (catalogue/v1.ts derives it). */
  writes?: boolean | undefined;
  /** A read that writes with some inputs (the declaration's writesWhen). */
  writesWhen?: ((input: Record<string, unknown>) => boolean) | undefined;
}

/** A row called with the account's X-Api-Key (every operation but the few below). */
export interface KeyedOperationEntry extends OperationRow {
  withoutApiKey?: false;
  handler(input: Record<string, unknown>, ctx: OperationContext): Promise<unknown>;
}

/**
 * A row a client calls WITHOUT an X-Api-Key, because something in its parameters is the authority (NFT
 * claim and revoke: the transfer code; the recipient of an e-mailed NFT has no account). The gateway then
 * neither asks for nor reads a key (one sent anyway is ignored) and the handler gets no caller.
 * `authority` names what authorizes the call, for the reader of the table.
 */
export interface KeylessOperationEntry extends OperationRow {
  withoutApiKey: true;
  authority: string;
  handler(input: Record<string, unknown>, ctx: KeylessOperationContext): Promise<unknown>;
}

/**
 * One row of the /v1/call operation table, written from a declaration of the catalogue (catalogue/v1.ts):
 * which solution and operation it answers, the fields it reads, and a handler that makes the declared
 * call and shapes the answer into the spec's JSON. The handler gets the input read with the fields (by
 * their GraphQL names); its return value is sent as the 200 body; failures are thrown as DomainErrors.
 */
export type OperationEntry = KeyedOperationEntry | KeylessOperationEntry;
