import { TaxonomyServiceService } from '@green-impact/proto/greenimpact/taxonomy/v1/taxonomy';
import { createGrpcClient, type TypedClient } from '../grpc/client.js';

/**
 * A promise-returning TaxonomyService client, typed from the proto contract (for the portfolio service,
 * the taxonomy service's own tools and tests): what two services share is the contract, not each other's
 * code.
 */
export type TaxonomyClient = TypedClient<typeof TaxonomyServiceService>;

export function createTaxonomyClient(address: string, defaults: { deadlineMs?: number; issuer?: string } = {}): TaxonomyClient {
  return createGrpcClient(TaxonomyServiceService, address, defaults);
}
