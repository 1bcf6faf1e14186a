import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * The time an HTTP request has left, shared by every gRPC call made while serving it. It travels
 * implicitly, like the trace context, because calls are made from hundreds of handlers and resolvers
 * (DataLoader batches included) that should not each pass it on by hand.
 */
export interface CallBudget {
  /** Epoch milliseconds after which no call made for the request may still run. */
  deadline: number;
  /** Aborted when the budget is spent or the client went away: calls in flight are cancelled. */
  signal: AbortSignal;
}

const budgets = new AsyncLocalStorage<CallBudget>();

/** Runs `fn` (and everything it starts) under `budget`. */
export function withCallBudget<T>(budget: CallBudget, fn: () => T): T {
  return budgets.run(budget, fn);
}

/** The budget of the request being served here, if any. */
export function currentCallBudget(): CallBudget | undefined {
  return budgets.getStore();
}
