import { taxonomyClient } from '../../clients.js';
import type { OperationContext } from '../operation.js';

/**
 * What the rows of v1/operations/ not yet moved into the catalogue (catalogue/) share. The taxonomy's
 * own operations are declared in catalogue/taxonomy/.
 */

export const call = (ctx: OperationContext) => ({ caller: ctx.caller, requestId: ctx.requestId });
export const taxonomy = (ctx: OperationContext) => taxonomyClient(ctx.clients);
export const messageOnly = ({ message }: { message: string }) => ({ message });
