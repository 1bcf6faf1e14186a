import { setTimeout as sleep } from 'node:timers/promises';
import { RecomputeStatus, type ImpactRecomputeJob } from '@green-impact/proto/greenimpact/portfolio/v1/portfolio';
import { NotFoundError } from '@green-impact/shared/errors';
import { withLabels } from '../../catalogue/graphql.js';
import { portfolioClient } from '../../clients.js';
import { callAs, type GraphqlContext } from '../context.js';

/**
 * Following an impact recompute job (the subscription; starting and reading one are the catalogue's:
 * catalogue/portfolio/recompute-jobs.ts). The job's state lives in the portfolio service's database, so
 * the subscription polls it: whichever replica runs the job, every gateway sees its progress.
 */

/** How often impactRecomputeJobUpdated reads the job. */
export const RECOMPUTE_POLL_MS = 250;
const TERMINAL = new Set([RecomputeStatus.RECOMPUTE_STATUS_COMPLETED, RecomputeStatus.RECOMPUTE_STATUS_FAILED]);

/** The job's state now, then on every change of status or progress, until it ended (or the subscriber left). */
async function* followJob(read: () => Promise<ImpactRecomputeJob>): AsyncGenerator<{ impactRecomputeJobUpdated: ImpactRecomputeJob }> {
  let last = '';
  for (;;) {
    const job = await read();
    const seen = `${job.status}/${job.done}/${job.total}/${job.attempts}`;
    if (seen !== last) {
      last = seen;
      yield { impactRecomputeJobUpdated: job };
    }
    if (TERMINAL.has(job.status)) return;
    await sleep(RECOMPUTE_POLL_MS);
  }
}

export const recomputeSubscriptions = {
  impactRecomputeJobUpdated: {
    async subscribe(_: unknown, args: { id: string }, ctx: GraphqlContext) {
      const opts = await callAs(ctx);
      const client = portfolioClient(ctx.clients);
      const read = async () => {
        // The service owns the id's rule; its refusal names the argument `id`.
        const { job } = await withLabels(client.getImpactRecomputeJob({ jobId: args.id }, opts), { job_id: 'id' });
        if (!job) throw new NotFoundError(`No such recompute job "${args.id}".`);
        return job;
      };
      // Read once before answering, so an unknown job is the subscription's error, not its first event's.
      const first = await read();
      let pending: ImpactRecomputeJob | undefined = first;
      return followJob(async () => {
        if (pending) {
          const j = pending;
          pending = undefined;
          return j;
        }
        return read();
      });
    },
  },
};
