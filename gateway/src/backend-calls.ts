import { Bulkhead, KeyedBulkheads, type BulkheadSettings } from '@green-impact/shared/bulkhead';
import type { CallOptions } from '@green-impact/shared/grpc/client';
import { currentCallBudget, type CallBudget } from '@green-impact/shared/grpc/call-budget';
import { ChainServiceService } from '@green-impact/proto/greenimpact/chain/v1/chain';
import { IdentityServiceService } from '@green-impact/proto/greenimpact/identity/v1/identity';
import { PortfolioServiceService } from '@green-impact/proto/greenimpact/portfolio/v1/portfolio';
import { TaxonomyServiceService } from '@green-impact/proto/greenimpact/taxonomy/v1/taxonomy';
import type { GatewayClients } from './clients.js';

/** The gateway's shares of its backend calls (BACKEND_CALLS_*, docs/configuration.md). */
export interface BackendCallSettings {
  /** Calls one request may have in flight at once; the rest of its calls wait their turn. */
  perRequest: number;
  /** Calls one account may have in flight at once, over all its requests; beyond, a bounded wait, then 503. */
  perCaller: BulkheadSettings;
}

/**
 * Methods that change nothing, so that a request asking twice with the same arguments gets one call's
 * answer: reads, conversions and renderings (the naming rule of the proto contract).
 */
const READ = /^(get|list|convert|render)/;

/** Server-streaming methods (job watches) last until cancelled: they are passed through untouched. */
const STREAMS = new Set(
  [ChainServiceService, IdentityServiceService, PortfolioServiceService, TaxonomyServiceService].flatMap((d) =>
    Object.entries(d)
      .filter(([, m]) => m.responseStream)
      .map(([name]) => name),
  ),
);

/** What one HTTP request has in flight: its answered reads and its own share of concurrent calls. */
interface RequestCalls {
  reads: Map<string, Promise<unknown>>;
  gate: Bulkhead;
}

type Unary = (request: unknown, options?: CallOptions) => Promise<unknown>;

/**
 * The clients every handler and resolver uses, with three guards around each backend call:
 *
 * - **Identical reads are made once per request.** A read (READ) with the same method, canonical request
 *   and caller as one made earlier in the same request shares that call's answer (or failure), so two
 *   aliases of one field, or one item reached by two paths, cost one call. Any write empties the memo, so
 *   a mutation's payload reads what it wrote. The request is the one its call budget (request-deadline.ts)
 *   stands for; without one (a WebSocket operation) nothing is shared.
 * - **A request has at most `perRequest` calls in flight**; its others wait their turn (until its deadline).
 * - **An account has at most `perCaller.limit` calls in flight** over all its requests; beyond, a call waits
 *   up to `perCaller.maxWaitMs` in a queue of `perCaller.maxQueue`, then is refused with 503 UNAVAILABLE and
 *   Retry-After. Calls without a caller (authentication) are limited per request only.
 *
 * Wrap the raw clients: caches above (reference-cache.ts) then answer hits without taking a place.
 */
export function guardedClients(clients: GatewayClients, settings: BackendCallSettings): GatewayClients {
  const perCaller = new KeyedBulkheads(
    settings.perCaller,
    `Too many backend calls of this account are in flight (at most ${settings.perCaller.limit}, BACKEND_CALLS_PER_CALLER); please retry.`,
    'backend_per_caller',
  );
  const byRequest = new WeakMap<CallBudget, RequestCalls>();
  const requestCalls = (budget: CallBudget | undefined): RequestCalls | undefined => {
    if (!budget) return undefined;
    let calls = byRequest.get(budget);
    if (!calls) {
      calls = {
        reads: new Map(),
        // A request's calls wait for its own earlier ones for as long as its deadline allows.
        gate: new Bulkhead(
          { limit: settings.perRequest, maxQueue: Infinity, maxWaitMs: Infinity },
          'The request has too many backend calls waiting; please retry.',
          'backend_per_request',
        ),
      };
      byRequest.set(budget, calls);
    }
    return calls;
  };

  const guard = (service: string, client: Record<string, unknown>): Record<string, unknown> => {
    const wrapped: Record<string, unknown> = { ...client };
    for (const [method, fn] of Object.entries(client)) {
      if (typeof fn !== 'function' || method === 'close' || STREAMS.has(method)) continue;
      const call = fn as Unary;
      wrapped[method] = (request: unknown, options?: CallOptions) => {
        const budget = currentCallBudget();
        const calls = requestCalls(budget);
        // The request's own turn first, then the account's place: a call queued behind its own request's
        // calls holds none of the account's places meanwhile.
        const send = () => {
          const accountId = options?.caller?.accountId;
          const placed = () => (accountId === undefined ? call(request, options) : perCaller.run(accountId, () => call(request, options), budget?.signal));
          return calls ? calls.gate.run(placed, budget?.signal) : placed();
        };
        if (!calls) return send();
        if (!READ.test(method)) {
          calls.reads.clear();
          return send().finally(() => calls.reads.clear());
        }
        const key = JSON.stringify([service, method, stableJson(request), options?.caller?.accountId ?? null, options?.caller?.role ?? null]);
        let answer = calls.reads.get(key);
        if (!answer) {
          answer = send();
          calls.reads.set(key, answer);
        }
        return answer;
      };
    }
    return wrapped;
  };

  const out: Record<string, unknown> = {};
  for (const [service, client] of Object.entries(clients)) {
    out[service] = client === undefined ? undefined : guard(service, client as unknown as Record<string, unknown>);
  }
  return out as unknown as GatewayClients;
}

/** JSON with object keys sorted, so one request built in two orders is one key. Bytes become hex. */
export function stableJson(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) => {
    if (v instanceof Uint8Array) return Buffer.from(v).toString('hex');
    if (v === null || typeof v !== 'object' || Array.isArray(v)) return v;
    const o = v as Record<string, unknown>;
    return Object.fromEntries(Object.keys(o).sort().map((k) => [k, o[k]]));
  });
}
