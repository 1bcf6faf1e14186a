import { ChainServiceService } from '@green-impact/proto/greenimpact/chain/v1/chain';
import { createGrpcClient, type TypedClient } from '@green-impact/shared/grpc/client';

/** A promise-returning ChainService client (unary methods; WatchJobs through `raw`). */
export type ChainClient = TypedClient<typeof ChainServiceService>;

export function createChainClient(address: string, defaults: { deadlineMs?: number } = {}): ChainClient {
  return createGrpcClient(ChainServiceService, address, defaults);
}
