import { TaxonomyServiceService } from '@green-impact/proto/greenimpact/taxonomy/v1/taxonomy';
import { createGrpcClient, type TypedClient } from '@green-impact/shared/grpc/client';

/** A promise-returning TaxonomyService client (for the gateway, the portfolio service, tools and tests). */
export type TaxonomyClient = TypedClient<typeof TaxonomyServiceService>;

export function createTaxonomyClient(address: string, defaults: { deadlineMs?: number } = {}): TaxonomyClient {
  return createGrpcClient(TaxonomyServiceService, address, defaults);
}
