import { getOperationAST, type DocumentNode, type GraphQLFormattedError } from 'graphql';
import { countOperation, operationLabel, outcomeOf, unresolvedLabel, worse, type Outcome } from '../graphql-metrics.js';

/**
 * Counts the operations of one graphql-ws connection as gateway_graphql_operations_total{transport="ws"}:
 * each once, when it ends (completed, failed, or cut by the socket closing), with the worst outcome of
 * every result it sent. A subscription is counted when it ends, not per event.
 */
export class WsOperationMetrics {
  readonly #running = new Map<string, { label: string; outcome: Outcome }>();

  /** Validated and executing (graphql-ws's onOperation): its name may join the label set. */
  started(id: string, document: DocumentNode, operationName: string | null | undefined): void {
    this.#running.set(id, { label: operationLabel(getOperationAST(document, operationName)?.name?.value, true), outcome: 'success' });
  }

  /** A result (a query's answer or a subscription's event) carried these errors. */
  result(id: string, errors: readonly GraphQLFormattedError[]): void {
    const running = this.#running.get(id);
    if (running) running.outcome = worse(running.outcome, outcomeOf(errors));
  }

  /** An error message ends the operation: refused before it ran (validation, limits, rate), or its stream failed. */
  failed(id: string, clientName: unknown, errors: readonly GraphQLFormattedError[]): void {
    const running = this.#running.get(id);
    this.#running.delete(id);
    const outcome = outcomeOf(errors);
    if (running) countOperation(running.label, worse(running.outcome, outcome === 'success' ? 'server_error' : outcome), 'ws');
    else countOperation(unresolvedLabel(clientName), outcome === 'success' ? 'refused' : outcome, 'ws');
  }

  completed(id: string): void {
    const running = this.#running.get(id);
    if (!running) return;
    this.#running.delete(id);
    countOperation(running.label, running.outcome, 'ws');
  }

  /** The socket closed: what still ran ends with it. */
  closed(): void {
    for (const id of [...this.#running.keys()]) this.completed(id);
  }
}

/** A document that did not parse (or was refused before parsing) over the socket. */
export function countUnparsed(): void {
  countOperation('other', 'refused', 'ws');
}
