import { stdSerializers } from 'pino';

/**
 * What the log must never hold, matched on the key at any depth: keys are compared lowercased with
 * everything but letters and digits removed, so apiKey, api_key, API-KEY and x-api-key are one name.
 * pino's own `redact` takes fixed paths with one-level wildcards, which missed `req.body.user.apiKey` and
 * every camelCase spelling; this walks the whole object instead (docs/decisions.md "Log redaction").
 */
const SECRET_SUFFIXES = ['apikey', 'password', 'passwd', 'secret', 'token', 'privatekey', 'encryptionkey', 'decryptionkey', 'authorization', 'cookie', 'mnemonic', 'email'];
const SECRET_NAMES = new Set([
  // NFT transfer codes (a receiver code is a capability) and OAuth authorization codes.
  'code', 'receivercode', 'ownercode', 'transfercode', 'claimcode',
  // Personal data (names and e-mails of investors, users and NFT recipients).
  'investorname', 'username', 'recipient', 'databaseurl', 'smtpurl', 'redisurl',
]);
/** Kept inside errors: an error's `code` (ECONNREFUSED, NOT_FOUND, a gRPC status) is its kind, not a secret. */
const ERROR_KEYS = new Set(['code']);

export const CENSOR = '[redacted]';
/** Deeper than this is not walked but censored: a log line has no business nesting deeper. */
export const MAX_DEPTH = 8;

const EMAIL = /[\p{L}\p{N}._%+'-]+@[\p{L}\p{N}-]+(?:\.[\p{L}\p{N}-]+)+/gu;

const normal = (key: string): string => key.toLowerCase().replace(/[^a-z0-9]/g, '');

export function isSecretKey(key: string): boolean {
  const k = normal(key);
  return SECRET_NAMES.has(k) || SECRET_SUFFIXES.some((s) => k.endsWith(s));
}

/** A text with every e-mail address in it censored. */
export function redactEmails(text: string): string {
  return text.includes('@') ? text.replace(EMAIL, CENSOR) : text;
}

/**
 * A log record with secrets censored, at every depth. Copies only what changes (a record with nothing to
 * hide comes back as the same object), so a typical line costs a walk over its few keys. Errors are
 * serialized first (pino's err serializer) so their messages are checked too; values with toJSON (Date,
 * Buffer) are left to it; cycles end as "[Circular]", as pino would print them.
 */
export function redactLogRecord<T extends object>(record: T): T {
  return walk(record, 0, new Set(), false) as T;
}

/**
 * pino's err serializer runs after the record is redacted, on what redactLogRecord made of the error: it
 * must leave that alone (serializing it again would name its type "Object").
 */
export function serializeError(err: unknown): unknown {
  return err instanceof Error ? stdSerializers.err(err) : err;
}

/** The arguments of a log call with e-mail addresses cut from its message (pino does not format it). */
export function redactLogArguments(args: unknown[]): unknown[] {
  // log.error(err) logs err.message as the message, past formatters.log: name it here so it is checked.
  const withMessage = args.length === 1 && args[0] instanceof Error ? [args[0], args[0].message] : args;
  return withMessage.map((a) => (typeof a === 'string' ? redactEmails(a) : a));
}

function walk(value: unknown, depth: number, path: Set<object>, inError: boolean): unknown {
  if (typeof value === 'string') return redactEmails(value);
  if (value === null || typeof value !== 'object') return value;
  if (depth >= MAX_DEPTH) return CENSOR;
  if (path.has(value)) return '[Circular]';
  if (value instanceof Error) return walk(stdSerializers.err(value), depth, path, true);
  if (typeof (value as { toJSON?: unknown }).toJSON === 'function') return value;
  path.add(value);
  try {
    if (Array.isArray(value)) {
      let out: unknown[] | undefined;
      for (let i = 0; i < value.length; i++) {
        const next = walk(value[i], depth + 1, path, inError);
        if (next !== value[i]) (out ??= value.slice())[i] = next;
      }
      return out ?? value;
    }
    let out: Record<string, unknown> | undefined;
    for (const key of Object.keys(value)) {
      const old = (value as Record<string, unknown>)[key];
      const secret = old !== undefined && old !== null && isSecretKey(key) && !(inError && ERROR_KEYS.has(key));
      const next = secret ? CENSOR : walk(old, depth + 1, path, inError);
      if (next !== old) (out ??= { ...(value as Record<string, unknown>) })[key] = next;
    }
    return out ?? value;
  } finally {
    path.delete(value);
  }
}
