import type { Metadata } from '@grpc/grpc-js';
import type { Caller } from '../caller.js';
import { UnauthenticatedError } from '../errors.js';
import { domainErrorToGrpc } from '../grpc/status-map.js';
import { toDomainError } from '../grpc/unexpected-error.js';
import { processCallerTrust, type CallerTrust } from './caller-trust.js';
import { GATEWAY_ISSUER, type VerifiedCall } from './caller-verifier.js';

/** The metadata key of the signed caller token; no other metadata says who calls. */
export const METADATA_CALLER_TOKEN = 'x-caller-token';

/** `/greenimpact.taxonomy.v1.TaxonomyService/ConvertAmounts` → service and method. */
export function splitMethodPath(path: string): { service: string; method: string } {
  const [, service = '', method = ''] = path.split('/');
  return { service, method };
}

/** Puts a token for `caller` (undefined: anonymous), addressed to the service of `path`, in `metadata`. */
export function signCall(metadata: Metadata, caller: Caller | undefined, path: string, issuer = GATEWAY_ISSUER, trust: CallerTrust = processCallerTrust()): Metadata {
  metadata.set(METADATA_CALLER_TOKEN, trust.signer(issuer).token(caller, splitMethodPath(path).service));
  return metadata;
}

/** The caller of a call to `path`, from its token alone; UNAUTHENTICATED when the token is missing or not good. */
export function verifyCall(metadata: Metadata, path: string, trust: CallerTrust = processCallerTrust()): Promise<VerifiedCall> {
  const token = metadata.get(METADATA_CALLER_TOKEN)[0];
  const { service, method } = splitMethodPath(path);
  return trust.verifier.verify(typeof token === 'string' ? token : undefined, service, method);
}

/**
 * For server-streaming handlers, which implement() does not wrap: opens the stream for a signed account
 * only, else ends it with UNAUTHENTICATED.
 */
export function withVerifiedCaller<C extends { metadata: Metadata; emit(event: 'error', err: unknown): boolean }>(
  call: C,
  path: string,
  open: (caller: Caller) => void,
): void {
  verifyCall(call.metadata, path).then(
    ({ caller }) => (caller ? open(caller) : call.emit('error', domainErrorToGrpc(new UnauthenticatedError()))),
    (err: unknown) => call.emit('error', domainErrorToGrpc(toDomainError(err))),
  );
}
