import { Metadata } from '@grpc/grpc-js';
import { NotAuthorizedError, UnauthenticatedError } from './errors.js';

/** Who is calling: set by the gateway after authentication, carried in gRPC metadata. */
export interface Caller {
  accountId: string;
  role: 'operator' | 'user';
  requestId?: string;
}

export const METADATA_ACCOUNT_ID = 'x-account-id';
export const METADATA_ACCOUNT_ROLE = 'x-account-role';
export const METADATA_REQUEST_ID = 'x-request-id';

export function callerToMetadata(caller: Caller | undefined, metadata = new Metadata()): Metadata {
  if (caller) {
    metadata.set(METADATA_ACCOUNT_ID, caller.accountId);
    metadata.set(METADATA_ACCOUNT_ROLE, caller.role);
    if (caller.requestId) metadata.set(METADATA_REQUEST_ID, caller.requestId);
  }
  return metadata;
}

export function callerFromMetadata(metadata: Metadata): Caller | undefined {
  const accountId = metadata.get(METADATA_ACCOUNT_ID)[0];
  const role = metadata.get(METADATA_ACCOUNT_ROLE)[0];
  if (typeof accountId !== 'string' || accountId === '') return undefined;
  if (role !== 'operator' && role !== 'user') return undefined;
  const requestId = metadata.get(METADATA_REQUEST_ID)[0];
  return { accountId, role, ...(typeof requestId === 'string' ? { requestId } : {}) };
}

export function requireCaller(caller: Caller | undefined): Caller {
  if (!caller) throw new UnauthenticatedError();
  return caller;
}

/** Shared reference data and account administration are changed by operators only. */
export function requireOperator(caller: Caller): void {
  if (caller.role !== 'operator') throw new NotAuthorizedError();
}
