import type { Metadata } from '@grpc/grpc-js';
import type { Caller } from '../caller.js';
import type { Logger } from '../logger.js';

/** What a handler (unary, server.ts, or streaming, server-stream.ts) knows about its call besides the request. */
export interface CallContext {
  caller: Caller | undefined;
  requestId: string;
  metadata: Metadata;
  log: Logger;
  /** Aborted when the client cancels or its deadline passes. */
  signal: AbortSignal;
}
