import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import type { BusMessage, EventBus, Subscription } from '@green-impact/shared/bus/event-bus';
import { IDENTITY_EVENTS_TOPIC, parseIdentityEvent } from '@green-impact/shared/bus/identity-events';
import { TAXONOMY_EVENTS_TOPIC, parseTaxonomyEvent } from '@green-impact/shared/bus/taxonomy-events';
import type { Logger } from '@green-impact/shared/logger';
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

/** What holds authentications and must let go of them on identity's events: the AuthCache, the open WebSockets. */
export interface IdentityFollower {
  forgetKeys(keyIds: readonly string[]): void;
  forgetAccount(accountId: string): void;
  clear(): void;
}

/**
 * Identity's key events: a revoked key or a changed account leaves this replica's authentication cache and
 * its known keys (rate-limit/known-keys.ts),
 * and the WebSockets authenticated with it are closed, at once (in order: the cache first, so a socket
 * that reconnects is checked with identity).
 */
export function followIdentityEvents(bus: EventBus, followers: readonly IdentityFollower[], log: Logger): Promise<Subscription> {
  return follow(bus, IDENTITY_EVENTS_TOPIC, 'auth', (msg) => {
    const event = parseIdentityEvent(msg.value);
    for (const f of followers) {
      if (!event) f.clear();
      else if (event.type === 'keys-revoked') f.forgetKeys(event.keyIds);
      else f.forgetAccount(event.accountId);
    }
    // Unknown to this version: forgetting everything is always safe, keeping anything might not be.
    if (!event) log.warn({ topic: msg.topic, offset: msg.offset }, 'unknown identity event; cleared the authentication cache and closed the WebSockets');
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
