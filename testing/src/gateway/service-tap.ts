import type { Metadata, ServerUnaryCall, ServerWritableStream, sendUnaryData, UntypedServiceImplementation } from '@grpc/grpc-js';
import type { Caller } from '@green-impact/shared/caller';
import { METADATA_REQUEST_ID } from '@green-impact/shared/caller';
import { verifyCall } from '@green-impact/shared/callers/call-metadata';
import type { GrpcServiceRegistration } from '@green-impact/shared/grpc/server';
import { domainErrorToGrpc } from '@green-impact/shared/grpc/status-map';
import { toDomainError } from '@green-impact/shared/grpc/unexpected-error';

/** One call a service received: its method (the definition's key, e.g. `getGroups`), signer, signed caller, request id and request. */
export interface TappedCall {
  method: string;
  /** Who signed the caller token: `gateway`, or a service relaying (portfolio reading taxonomy); '' when the token is not good. */
  issuer: string;
  caller: Caller | undefined;
  requestId: string;
  request: unknown;
}

/** A fault put in front of a real service: which calls it takes and what it does to them. */
type Fault = { match: (call: TappedCall) => boolean } & ({ kind: 'hold' } | { kind: 'fail'; error: Error });

/**
 * What the gateway's tests see of a real service's gRPC face: every unary call it received (its caller as
 * the signed token says, verified as the service verifies it), the calls the client cancelled, and faults a
 * test can put in front of it. The service itself answers everything no fault takes.
 */
export interface ServiceTap {
  calls: TappedCall[];
  cancelled: { method: string; requestId: string }[];
  /** How many calls of `method` the service received. */
  count(method: string): number;
  /** How many server streams of `method` (e.g. `watchJobs`) are open now: opened, and not yet cancelled or ended. */
  openStreams(method: string): number;
  /**
   * Holds the calls `match` picks: the service never sees them and they never answer, until the client
   * cancels them (its deadline, a client gone away). Answers the function that lifts the fault.
   */
  hold(match: (call: TappedCall) => boolean): () => void;
  /**
   * Fails the calls `match` picks with `error` thrown where the service's handler would throw it: an
   * unexpected error leaves as the service would send it (INTERNAL, generic message). Answers the lift.
   */
  fail(match: (call: TappedCall) => boolean, error: Error): () => void;
}

/** The registration with every unary method passing through a tap first; server streams pass untouched, counted while open. */
export function tapRegistration(registration: GrpcServiceRegistration): { registration: GrpcServiceRegistration; tap: ServiceTap } {
  const calls: TappedCall[] = [];
  const cancelled: ServiceTap['cancelled'] = [];
  const faults = new Set<Fault>();
  const add = (fault: Fault) => {
    faults.add(fault);
    return () => void faults.delete(fault);
  };
  const open = new Map<string, number>();
  const implementation: UntypedServiceImplementation = {};
  for (const [method, handler] of Object.entries(registration.implementation)) {
    const def = registration.definition[method];
    if (def && !def.requestStream && def.responseStream) {
      // A server stream passes untouched, counted while open: 'close' comes once its client cancelled or it ended.
      const stream = handler as (call: ServerWritableStream<unknown, unknown>) => void;
      implementation[method] = (call: ServerWritableStream<unknown, unknown>) => {
        open.set(method, (open.get(method) ?? 0) + 1);
        let closed = false;
        const close = () => {
          if (closed) return;
          closed = true;
          open.set(method, open.get(method)! - 1);
        };
        call.once('cancelled', close);
        call.once('close', close);
        call.once('finish', close);
        stream(call);
      };
      continue;
    }
    if (!def || def.requestStream) {
      implementation[method] = handler;
      continue;
    }
    const real = handler as (call: ServerUnaryCall<unknown, unknown>, callback: sendUnaryData<unknown>) => void;
    implementation[method] = (call: ServerUnaryCall<unknown, unknown>, callback: sendUnaryData<unknown>) => {
      const requestId = requestIdOf(call.metadata);
      // grpc-js also says 'cancelled' when the stream of an answered call closes: only an unanswered call was cancelled.
      let answered = false;
      const answer: sendUnaryData<unknown> = (...args) => {
        answered = true;
        callback(...args);
      };
      call.on('cancelled', () => {
        if (!answered) cancelled.push({ method, requestId });
      });
      void signedBy(call.metadata, def.path).then(({ issuer, caller }) => {
        const seen: TappedCall = { method, issuer, caller, requestId, request: call.request };
        calls.push(seen);
        const fault = [...faults].find((f) => f.match(seen));
        if (!fault) return real(call, answer);
        if (fault.kind === 'fail') answer(domainErrorToGrpc(toDomainError(fault.error)));
        // A held call answers nothing: the client's cancellation ends it.
      });
    };
  }
  return {
    registration: { ...registration, implementation },
    tap: {
      calls,
      cancelled,
      count: (method) => calls.filter((c) => c.method === method).length,
      openStreams: (method) => open.get(method) ?? 0,
      hold: (match) => add({ match, kind: 'hold' }),
      fail: (match, error) => add({ match, kind: 'fail', error }),
    },
  };
}

function requestIdOf(metadata: Metadata): string {
  const id = metadata.get(METADATA_REQUEST_ID)[0];
  return typeof id === 'string' ? id : '';
}

/** The signer and caller, verified as the service will verify them; none when the token is missing or not good (the service refuses those). */
function signedBy(metadata: Metadata, path: string): Promise<{ issuer: string; caller: Caller | undefined }> {
  return verifyCall(metadata, path).catch(() => ({ issuer: '', caller: undefined }));
}
