import type { OutgoingMessage } from './event-bus.js';
import { jsonObjectOf } from './json-message.js';

/**
 * Committed writes of the taxonomy service, published after they commit so that whoever caches what the
 * taxonomy service answers (the gateways' reference-data caches) can drop it at once. `scope` says what
 * changed: `reference` is the shared reference data (taxonomy items, translations, currencies, FX rates),
 * `frameworks` an account's frameworks and projects. Keyed by scope so the events of one scope keep their
 * order. No request bodies: a framework's figures are not announced, only that they changed.
 */
export const TAXONOMY_EVENTS_TOPIC = 'taxonomy.changes';

export type TaxonomyChangeScope = 'reference' | 'frameworks';

export interface TaxonomyChangeEvent {
  type: 'changed';
  scope: TaxonomyChangeScope;
  /** The gRPC method that made the change (e.g. AddFxRate). */
  method: string;
  /** The account that made it. */
  accountId: string;
}

export function taxonomyEventMessage(event: TaxonomyChangeEvent): OutgoingMessage {
  return { key: event.scope, value: JSON.stringify(event) };
}

/** The event in a message, or undefined for anything that is not one. */
export function parseTaxonomyEvent(value: Buffer): TaxonomyChangeEvent | undefined {
  const e = jsonObjectOf(value);
  if (!e) return undefined;
  if (e['type'] !== 'changed' || (e['scope'] !== 'reference' && e['scope'] !== 'frameworks')) return undefined;
  if (typeof e['method'] !== 'string' || typeof e['accountId'] !== 'string') return undefined;
  return { type: 'changed', scope: e['scope'], method: e['method'], accountId: e['accountId'] };
}

/** Taxonomy methods (ts-proto client/handler names) that change nothing: reads, conversions, rendering. */
const READ = /^(get|convert|render)/;

/** Writes to the shared reference data; every other write changes an account's frameworks or projects. */
const REFERENCE_WRITES = new Set([
  'addCategory', 'addSubCategory', 'addGoalObjectiveToSubCategory', 'addUnit', 'addSuperIndicator', 'addIndicator',
  'removeCategory', 'removeSubCategory', 'removeSuperIndicator', 'removeIndicator', 'removeUnit',
  'removeGoalObjectiveFromSubCategory', 'addCategoryTranslation', 'addSubCategoryTranslation',
  'addSuperIndicatorTranslation', 'addIndicatorTranslation', 'addUnitTranslation', 'addCurrency', 'addFxRate',
  'removeCurrency', 'removeFxRate',
]);

/**
 * Writes that change nothing a reader sees: which frameworks other accounts' assets hold (issue 46) only
 * decides whether a later currency change is refused, so no cache has anything to drop.
 */
const UNSEEN_WRITES = new Set(['recordFrameworkHolder']);

/** What a taxonomy method changes when it succeeds; undefined for methods that change nothing. */
export function changeScopeOf(method: string): TaxonomyChangeScope | undefined {
  if (READ.test(method) || UNSEEN_WRITES.has(method)) return undefined;
  return REFERENCE_WRITES.has(method) ? 'reference' : 'frameworks';
}
