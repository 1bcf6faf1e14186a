import type { TaxonomyServiceService } from '@green-impact/proto/greenimpact/taxonomy/v1/taxonomy';
import type { EventBus } from '@green-impact/shared/bus/event-bus';
import { changeScopeOf, TAXONOMY_EVENTS_TOPIC, taxonomyEventMessage } from '@green-impact/shared/bus/taxonomy-events';
import type { UnaryHandlers } from '@green-impact/shared/grpc/server';
import type { Logger } from '@green-impact/shared/logger';

type Handlers = Partial<UnaryHandlers<typeof TaxonomyServiceService>>;

/**
 * Every write handler announces its change on taxonomy.changes once it succeeded, before it answers, so
 * that the caller's next read through any gateway finds the caches already told. A failed publish does
 * not fail the committed write: the caches' TTL bounds what a lost event costs.
 */
export function announcingChanges(handlers: Handlers, bus: EventBus | undefined, log: Logger): Handlers {
  if (!bus) return handlers;
  const wrapped: Record<string, unknown> = { ...handlers };
  for (const [method, handler] of Object.entries(handlers) as [string, (req: unknown, ctx: { caller?: { accountId: string } }) => Promise<unknown>][]) {
    const scope = changeScopeOf(method);
    if (!scope) continue;
    wrapped[method] = async (req: unknown, ctx: { caller?: { accountId: string } }) => {
      const res = await handler(req, ctx);
      const event = { type: 'changed' as const, scope, method: method[0]!.toUpperCase() + method.slice(1), accountId: ctx.caller?.accountId ?? '' };
      try {
        await bus.publish(TAXONOMY_EVENTS_TOPIC, [taxonomyEventMessage(event)]);
      } catch (err) {
        log.warn({ err, method: event.method, scope }, 'taxonomy change not announced; caches expire it by TTL');
      }
      return res;
    };
  }
  return wrapped as Handlers;
}
