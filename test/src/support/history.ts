import { answered, succeeded, type Outcome } from './outcomes.js';
import type { Write } from './write-load.js';

/**
 * A Jepsen-style history of client operations (issue 50). Every write is recorded when invoked and when it
 * ends as one of:
 * - acknowledged: 200 (GraphQL: no errors): it happened, so it must be present exactly once;
 * - refused: a clear 4xx (GraphQL: a client error code): it did not happen, so it must be absent;
 * - unknown: 503 UNAVAILABLE or 504 DEADLINE_EXCEEDED (GraphQL SERVICE_UNAVAILABLE / GATEWAY_TIMEOUT): it may
 *   or may not have happened (a commit whose answer was lost), so present at most once.
 * Anything else is a violation as well as unknown: a 500 (or any other 5xx), a response that never came or
 * broke off, and an answer later than the request deadline (a hang).
 */
export type OpResult = 'acknowledged' | 'refused' | 'unknown';

export interface Op {
  kind: string;
  name: string;
  /** Whether this op is a client's retry of an earlier op of the same name. */
  retry: boolean;
  invokedAt: number;
  endedAt?: number;
  result?: OpResult;
  outcome?: Outcome;
  violation?: string;
}

export interface HistoryCheck {
  invoked: number;
  acknowledged: number;
  refused: number;
  unknown: number;
  /** Acknowledged writes absent after the heal. */
  lost: string[];
  /** Writes present more than once. */
  doubled: string[];
  /** Writes whose every op was refused but which are present. */
  refusedPresent: string[];
  /** 500s, hangs, broken-off answers: each op's kind/name and what it saw. */
  violations: string[];
}

/** The GraphQL error codes that mean "not done, maybe done" (the gateway's map of UNAVAILABLE and DEADLINE_EXCEEDED). */
const GRAPHQL_UNKNOWN = new Set(['SERVICE_UNAVAILABLE', 'GATEWAY_TIMEOUT']);
const V1_UNKNOWN = new Map([
  [503, 'UNAVAILABLE'],
  [504, 'DEADLINE_EXCEEDED'],
]);

/** What one outcome tells about its write, and what it breaks of the error model if anything. */
export function classify(outcome: Outcome): { result: OpResult; violation?: string } {
  if (succeeded(outcome)) return { result: 'acknowledged' };
  if (!answered(outcome)) return { result: 'unknown', violation: `no answer (${outcome.error})` };
  const errors = outcome.body?.errors as { extensions?: { code?: string } }[] | undefined;
  // GraphQL: the error's code says what happened, whatever the HTTP status (200, or the gateway's 503 when
  // the whole operation was refused for want of capacity).
  if (Array.isArray(errors)) {
    const code = errors[0]?.extensions?.code ?? '';
    if (GRAPHQL_UNKNOWN.has(code) && (outcome.status === 200 || outcome.status === 503 || outcome.status === 504)) return { result: 'unknown' };
    if (code === 'INTERNAL_SERVER_ERROR' || !code || outcome.status >= 500) return { result: 'unknown', violation: `GraphQL HTTP ${outcome.status} ${code || 'error without code'}` };
    return { result: 'refused' };
  }
  if (outcome.status >= 400 && outcome.status < 500) return { result: 'refused' };
  if (V1_UNKNOWN.get(outcome.status) === outcome.body?.code) return { result: 'unknown' };
  return { result: 'unknown', violation: `HTTP ${outcome.status} ${JSON.stringify(outcome.body).slice(0, 400)}` };
}

export class History {
  readonly ops: Op[] = [];

  /** `deadlineMs`: the gateway's request deadline; an answer later than it plus `graceMs` is a hang. */
  constructor(private readonly deadlineMs: number, private readonly graceMs = 2_000) {}

  /** Sends `write`, recording it as invoked, then as what its outcome says. */
  async invoke(write: Write, retry = false): Promise<Op> {
    const op: Op = { kind: write.kind, name: write.name, retry, invokedAt: Date.now() };
    this.ops.push(op);
    op.outcome = await write.send();
    op.endedAt = Date.now();
    const { result, violation } = classify(op.outcome);
    op.result = result;
    const late = op.endedAt - op.invokedAt > this.deadlineMs + this.graceMs ? `answered after ${op.endedAt - op.invokedAt} ms` : undefined;
    op.violation = [violation, late].filter(Boolean).join('; ') || undefined;
    return op;
  }

  /** Ops that ended since `since` (ms epoch). */
  since(since: number): Op[] {
    return this.ops.filter((o) => o.endedAt !== undefined && o.invokedAt >= since);
  }

  /** Names whose every op so far ended and none was acknowledged or refused: what a client retries after the heal. */
  inDoubt(): string[] {
    const byName = this.byName();
    return [...byName].filter(([, ops]) => ops.every((o) => o.result === 'unknown')).map(([name]) => name);
  }

  /**
   * The check after the heal. `present(kind)` gives how often each name of that kind is stored now (read
   * through the system itself, after it answers normally again).
   */
  async check(present: (kind: string) => Promise<Map<string, number>>): Promise<HistoryCheck> {
    const ended = this.ops.filter((o) => o.result !== undefined);
    const byName = this.byName();
    const counts = new Map<string, Map<string, number>>();
    for (const kind of new Set(ended.map((o) => o.kind))) counts.set(kind, await present(kind));
    const lost: string[] = [];
    const doubled: string[] = [];
    const refusedPresent: string[] = [];
    for (const [name, ops] of byName) {
      const n = counts.get(ops[0]!.kind)!.get(name) ?? 0;
      const label = `${ops[0]!.kind} ${name}`;
      if (n > 1) doubled.push(`${label} ×${n}`);
      if (ops.some((o) => o.result === 'acknowledged') && n === 0) lost.push(label);
      if (ops.every((o) => o.result === 'refused') && n > 0) refusedPresent.push(label);
    }
    return {
      invoked: this.ops.length,
      acknowledged: ended.filter((o) => o.result === 'acknowledged').length,
      refused: ended.filter((o) => o.result === 'refused').length,
      unknown: ended.filter((o) => o.result === 'unknown').length,
      lost,
      doubled,
      refusedPresent,
      violations: ended.filter((o) => o.violation).map((o) => `${o.kind} ${o.name}${o.retry ? ' (retry)' : ''}: ${o.violation}`),
    };
  }

  private byName(): Map<string, Op[]> {
    const byName = new Map<string, Op[]>();
    for (const o of this.ops) if (o.result !== undefined) byName.set(o.name, [...(byName.get(o.name) ?? []), o]);
    return byName;
  }
}
