import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import type { BusMessage, EventBus, Subscription } from '@green-impact/shared/bus/event-bus';
import { IDENTITY_EVENTS_TOPIC, parseIdentityEvent } from '@green-impact/shared/bus/identity-events';
import { TAXONOMY_EVENTS_TOPIC, parseTaxonomyEvent } from '@green-impact/shared/bus/taxonomy-events';
import type { Logger } from '@green-impact/shared/logger';
import type { KeyForgetting } from './rate-limit/known-keys.js';
import type { ReferenceCache } from './reference-cache.js';

/**
 * Every replica reads every announcement, so each one joins a consumer group of its own, starting at the
 * end of the log: a replica that starts later holds nothing cached from before it started.
 */
function follow(bus: EventBus, topic: string, purpose: string, handler: (msg: BusMessage) => void): Promise<Subscription> {
  return bus.subscribe({
    topic,
    groupId: `gateway-${purpose}-${hostname()}-${process.pid}-${randomUUID().slice(0, 8)}`,
    fromBeginning: false,
    handler: async (msg) => handler(msg),
  });
}

/**
 * Identity's key events: a revoked key or a changed account leaves this replica's authentication cache
 * and its known keys (rate-limit/known-keys.ts) at once.
 */
export function followIdentityEvents(bus: EventBus, cache: KeyForgetting, log: Logger): Promise<Subscription> {
  return follow(bus, IDENTITY_EVENTS_TOPIC, 'auth', (msg) => {
    const event = parseIdentityEvent(msg.value);
    if (!event) {
      // Unknown to this version: forgetting everything is always safe, keeping anything might not be.
      log.warn({ topic: msg.topic, offset: msg.offset }, 'unknown identity event; clearing the authentication cache');
      cache.clear();
    } else if (event.type === 'keys-revoked') cache.forgetKeys(event.keyIds);
    else cache.forgetAccount(event.accountId);
  });
}

/** The taxonomy service's committed reference writes empty this replica's reference cache. */
export function followTaxonomyEvents(bus: EventBus, cache: ReferenceCache, log: Logger): Promise<Subscription> {
  return follow(bus, TAXONOMY_EVENTS_TOPIC, 'reference', (msg) => {
    const event = parseTaxonomyEvent(msg.value);
    if (!event) log.warn({ topic: msg.topic, offset: msg.offset }, 'unknown taxonomy event; clearing the reference cache');
    if (!event || event.scope === 'reference') cache.clear();
  });
}
