import { requireCaller, type Caller } from '@green-impact/shared/caller';
import { UnauthenticatedError } from '@green-impact/shared/errors';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * The caller of a request, with its account id checked and normalized: accounts are UUIDs (identity
 * issues them), stored in uuid columns and compared as lower-case text. A call without a caller, or with
 * an account id that is no UUID, is UNAUTHENTICATED (as the taxonomy service answers it).
 */
export function requireAccount(caller: Caller | undefined): Caller {
  const c = requireCaller(caller);
  if (!UUID.test(c.accountId)) throw new UnauthenticatedError();
  return { ...c, accountId: c.accountId.toLowerCase() };
}
