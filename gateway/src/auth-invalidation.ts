import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import type { EventBus, Subscription } from '@green-impact/shared/bus/event-bus';
import { IDENTITY_EVENTS_TOPIC, parseIdentityEvent } from '@green-impact/shared/bus/identity-events';
import type { Logger } from '@green-impact/shared/logger';
import type { AuthCache } from './auth-cache.js';

/**
 * Follows identity's key events so this replica's cache forgets a revoked key at once. Every replica
 * reads every event, so each one joins a consumer group of its own, starting at the end of the log: a
 * replica that starts later holds nothing cached from before it started.
 */
export async function followIdentityEvents(bus: EventBus, cache: AuthCache, log: Logger): Promise<Subscription> {
  return bus.subscribe({
    topic: IDENTITY_EVENTS_TOPIC,
    groupId: `gateway-auth-${hostname()}-${process.pid}-${randomUUID().slice(0, 8)}`,
    fromBeginning: false,
    handler: async (msg) => {
      const event = parseIdentityEvent(msg.value);
      if (!event) {
        // Unknown to this version: forgetting everything is always safe, keeping anything might not be.
        log.warn({ topic: msg.topic, offset: msg.offset }, 'unknown identity event; clearing the authentication cache');
        cache.clear();
        return;
      }
      if (event.type === 'keys-revoked') cache.forgetKeys(event.keyIds);
      else cache.forgetAccount(event.accountId);
    },
  });
}
