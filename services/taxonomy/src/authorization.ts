import type { Caller } from '@green-impact/shared/caller';
import { NotAuthorizedError } from '@green-impact/shared/errors';

/** Reference data (taxonomy, languages, currencies, FX rates) is read by anyone, changed by operators only. */
export function requireOperator(caller: Caller): void {
  if (caller.role !== 'operator') throw new NotAuthorizedError();
}
