import type { Job } from '@green-impact/proto/greenimpact/chain/v1/chain';
import type { GraphqlFace } from '../operation.js';
import { jobAccepted, jobOf } from './job-shapes.js';

/** The answers of the chain's job-creating operations, on both faces. */

/** /v1/call: `{statusCode, statusMessage, info: {jobId}}` (spec §4.12, §4.13). */
export const jobAnswer = (res: { jobId: string; job?: Job | undefined }) => jobAccepted(res.jobId || jobOf(res).id);

/**
 * GraphQL: a mutation (its fields in `input`) answering a JobPayload with the queued Job, so that a
 * caller's mistake can be answered in its userErrors (issue 29; 1.0.0 answered the bare Job).
 */
export function queuedJob(field: string, sdl: Pick<GraphqlFace<unknown, unknown>, 'input' | 'order'> = {}): GraphqlFace<unknown, { job?: Job | undefined }> {
  return {
    ...sdl,
    root: 'Mutation',
    field,
    nested: true,
    returns: 'JobPayload!',
    idempotent: true,
    render: async (call) => ({ job: jobOf(await call()) }),
  };
}
