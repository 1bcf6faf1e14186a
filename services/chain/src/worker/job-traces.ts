import { context, ROOT_CONTEXT, trace, type Context, type Link } from '@opentelemetry/api';

/** More jobs than a worker sends in minutes; past it the oldest are forgotten (their broadcasts start no trace). */
const MAX_REMEMBERED = 10_000;

/**
 * The trace each job belongs to (the request that made it), so that its broadcast — done later by the
 * send pump, outside that request — continues it. Remembered when the job is created (the gRPC call's
 * context) and again when its chain.jobs message arrives (the consumer span: a later context of the same
 * trace, and the only one a replica that did not create the job sees). In memory: a job broadcast after a
 * restart, or by a replica that neither created it nor consumed its message, is broadcast outside any trace.
 */
export class JobTraces {
  private readonly byJob = new Map<string, Context>();

  /** Remembers the active context (the consumer span of the job's message) for `jobId`. */
  remember(jobId: string, ctx: Context = context.active()): void {
    const sc = trace.getSpanContext(ctx);
    if (!sc || !trace.isSpanContextValid(sc)) return;
    this.byJob.delete(jobId);
    this.byJob.set(jobId, ctx);
    if (this.byJob.size > MAX_REMEMBERED) this.byJob.delete(this.byJob.keys().next().value!);
  }

  /**
   * Runs `fn` (a batch's broadcasts) in its jobs' trace: in the job's own context for a batch of one traced
   * job; for a larger batch, in a span of the first traced job's trace that links every job's trace (one
   * JSON-RPC batch serves them all). Forgets the jobs.
   */
  async inTraceOf<T>(jobIds: string[], name: string, fn: () => Promise<T>): Promise<T> {
    const ctxs = jobIds.map((id) => this.take(id)).filter((c): c is Context => c !== undefined);
    if (ctxs.length === 0) return context.with(ROOT_CONTEXT, fn);
    if (jobIds.length === 1) return context.with(ctxs[0]!, fn);
    const links: Link[] = ctxs.map((c) => ({ context: trace.getSpanContext(c)! }));
    const span = trace.getTracer('@green-impact/chain').startSpan(name, { links, attributes: { 'app.jobs': jobIds.length } }, ctxs[0]);
    try {
      return await context.with(trace.setSpan(ctxs[0]!, span), fn);
    } finally {
      span.end();
    }
  }

  /**
   * A batch job (a Merkle root of documents, one account's inserts) takes over its members' traces: the
   * members are never broadcast, the batch is. One traced member: the batch continues its context; several:
   * a span of the first member's trace that links every member's trace stands for the batch's forming.
   */
  adopt(batchId: string, memberIds: readonly string[]): void {
    const ctxs = memberIds.map((id) => this.take(id)).filter((c): c is Context => c !== undefined);
    if (ctxs.length === 0) return;
    if (ctxs.length === 1) return this.remember(batchId, ctxs[0]);
    const links: Link[] = ctxs.map((c) => ({ context: trace.getSpanContext(c)! }));
    const span = trace.getTracer('@green-impact/chain').startSpan('form batch', { links, attributes: { 'app.jobs': memberIds.length, 'app.job_id': batchId } }, ctxs[0]);
    span.end();
    this.remember(batchId, trace.setSpan(ctxs[0]!, span));
  }

  private take(jobId: string): Context | undefined {
    const ctx = this.byJob.get(jobId);
    this.byJob.delete(jobId);
    return ctx;
  }
}

/** The process's job traces: job creation and the worker share them (job ids are unique). */
export const jobTraces = new JobTraces();
