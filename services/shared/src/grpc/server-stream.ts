import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import type { ServerWritableStream } from '@grpc/grpc-js';
import type { Logger } from '../logger.js';
import { METADATA_REQUEST_ID } from '../caller.js';
import { verifyCall } from '../callers/call-metadata.js';
import { asPoolCaller } from '../db/pool-share.js';
import { grpcMetrics } from '../metrics.js';
import { domainErrorToGrpc } from './status-map.js';
import type { CallContext } from './call-context.js';
import { toDomainError } from './unexpected-error.js';

/** A server-streaming handler: the messages to send, produced one at a time as the client reads them. */
export type StreamHandler<Req, Res> = (request: Req, ctx: CallContext) => AsyncIterable<Res>;

/**
 * Adapts a server-streaming handler to grpc-js as implement() (server.ts) adapts unary ones: the caller
 * from the signed token (UNAUTHENTICATED without a good one), the handler run as its caller's share of the
 * database pool, every failure through the one domain→gRPC table, metrics. Backpressure: the next message
 * is asked of the handler only once grpc-js took the last one (`write` answered true or the stream
 * drained), so a slow client holds the handler at one message in hand; a cancelled call stops it.
 */
export function serveStream<Req, Res>(serviceName: string, path: string, handler: StreamHandler<Req, Res>, log: Logger) {
  const method = path.split('/').pop() ?? path;
  return (call: ServerWritableStream<Req, Res>): void => {
    const started = process.hrtime.bigint();
    const requestIdRaw = call.metadata.get(METADATA_REQUEST_ID)[0];
    const requestId = typeof requestIdRaw === 'string' ? requestIdRaw : randomUUID();
    const controller = new AbortController();
    call.on('cancelled', () => controller.abort());
    const ctx: CallContext = { caller: undefined, requestId, metadata: call.metadata, log: log.child({ requestId, method }), signal: controller.signal };
    const done = (code: string) => {
      grpcMetrics.handled.inc({ service: serviceName, method, code });
      grpcMetrics.duration.observe({ service: serviceName, method }, Number(process.hrtime.bigint() - started) / 1e9);
    };
    const run = async () => {
      const { caller } = await verifyCall(call.metadata, path);
      ctx.caller = caller && { ...caller, requestId };
      await asPoolCaller(ctx.caller?.accountId, async () => {
        for await (const message of handler(call.request, ctx)) {
          if (controller.signal.aborted) return;
          if (!call.write(message)) await Promise.race([once(call, 'drain'), once(controller.signal, 'abort')]);
        }
      });
    };
    run().then(
      () => {
        done(controller.signal.aborted ? 'CANCELLED' : 'OK');
        if (!controller.signal.aborted) call.end();
      },
      (err: unknown) => {
        const domain = toDomainError(err);
        if (domain.code === 'INTERNAL' || domain.code === 'UNAVAILABLE') ctx.log.error({ err: domain.cause ?? err }, 'stream failed');
        done(domain.code);
        if (!controller.signal.aborted) call.emit('error', domainErrorToGrpc(domain));
      },
    );
  };
}
