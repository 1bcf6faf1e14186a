import type { OutgoingMessage } from './event-bus.js';
import { jsonObjectOf } from './json-message.js';

/**
 * Changes to who a key authenticates as, published by identity and consumed by every gateway replica so
 * that its authentication cache forgets them at once (docs/decisions.md, "API keys are cached at the
 * gateway"). Keyed by account, so the events of one account stay in order. No key material, no PII.
 */
export const IDENTITY_EVENTS_TOPIC = 'identity.key-events';

export type IdentityEvent =
  /** Keys that no longer authenticate (revoked or rotated away). */
  | { type: 'keys-revoked'; accountId: string; keyIds: string[] }
  /** Anything about the account a cached authentication holds (its role, its name) changed. */
  | { type: 'account-changed'; accountId: string };

export function identityEventMessage(event: IdentityEvent): OutgoingMessage {
  return { key: event.accountId, value: JSON.stringify(event) };
}

/** The event in a message, or undefined for anything that is not one (a newer producer's type, garbage). */
export function parseIdentityEvent(value: Buffer): IdentityEvent | undefined {
  const e = jsonObjectOf(value);
  if (!e) return undefined;
  if (typeof e['accountId'] !== 'string' || e['accountId'] === '') return undefined;
  if (e['type'] === 'account-changed') return { type: 'account-changed', accountId: e['accountId'] };
  if (e['type'] === 'keys-revoked' && Array.isArray(e['keyIds']) && e['keyIds'].every((k) => typeof k === 'string')) {
    return { type: 'keys-revoked', accountId: e['accountId'], keyIds: e['keyIds'] as string[] };
  }
  return undefined;
}
