import type { Job } from '@green-impact/proto/greenimpact/chain/v1/chain';
import { InternalError, InvalidArgumentError } from '@green-impact/shared/errors';
import { chainClient, type ChainClient } from '../../clients.js';
import type { OperationContext } from '../operation.js';

/** What the /v1/call operations of the chain (§4.2, §4.12) share. */

export const chain = (ctx: OperationContext): ChainClient => chainClient(ctx.clients);

/** The job of a chain answer; the contract always sets it, so its absence is a breach, not a client error. */
export function jobOf(res: { job?: Job | undefined }): Job {
  if (!res.job) throw new InternalError('Internal error.', { cause: new Error('the chain service answered no job') });
  return res.job;
}

/**
 * Refuses a network the chain service does not know before anything is rendered, with the service's own
 * list of names (aliases included): `Unknown network "x"; expected one of sepolia, amoy, mumbai.`
 */
export async function requireKnownNetwork(client: ChainClient, network: string, opts: { caller: OperationContext['caller']; requestId: string }): Promise<void> {
  const { networks } = await client.listNetworks({}, opts);
  const names = networks.map((n) => n.name);
  if (!names.includes(network.trim())) {
    throw new InvalidArgumentError(`Unknown network "${network}"; expected one of ${names.join(', ')}.`);
  }
}
