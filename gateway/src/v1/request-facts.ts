import { InvalidArgumentError } from '@green-impact/shared/errors';

/** The HTTP header a client sends to make a job-creating call safe to retry (ARCHITECTURE §3 Jobs). */
export const IDEMPOTENCY_KEY_HEADER = 'idempotency-key';

/** The chain service keeps at most this many characters (its column is varchar(255), as Stripe's keys). */
export const MAX_IDEMPOTENCY_KEY = 255;

/** Facts of the HTTP request an operation may need besides its body. */
export interface RequestFacts {
  /**
   * The `Idempotency-Key` header, checked when read (INVALID_ARGUMENT when malformed); undefined when absent
   * or blank. Only operations that create a job read it.
   */
  readonly idempotencyKey: string | undefined;
  /**
   * Where clients reach this gateway, without a trailing slash: PUBLIC_BASE_URL when configured, else the
   * request's own origin. Links in answers ({jobs_url}/<job_id>.html) start with it.
   */
  baseUrl: string;
}

/**
 * Checks an `Idempotency-Key` header value: absent or blank is "no key"; otherwise at most 255 characters
 * of visible ASCII and spaces (what HTTP headers carry safely), trimmed. Pure.
 */
export function parseIdempotencyKey(value: string | null | undefined, label = 'Idempotency-Key'): string | undefined {
  const key = value?.trim();
  if (!key) return undefined;
  if (key.length > MAX_IDEMPOTENCY_KEY) {
    throw new InvalidArgumentError(`${label} must be at most ${MAX_IDEMPOTENCY_KEY} characters.`);
  }
  if (!/^[\x20-\x7e]+$/.test(key)) {
    throw new InvalidArgumentError(`${label} must be printable ASCII characters.`);
  }
  return key;
}

export { baseUrlOf } from '../base-url.js';
