import { ConfigError } from './config.js';

/**
 * Secrets the operator sets (BOOTSTRAP_API_KEY, DOCUMENT_LINK_SECRET) must be machine-made random values:
 * whoever guesses one is the first operator, or opens any document link. No estimate can prove a string
 * random, so this refuses what people write instead: short values, one character class (a phrase of
 * lowercase words and hyphens), few distinct characters, repeated runs, and the words people put in
 * placeholders. A value from `openssl rand -base64 32`, `openssl rand -hex 32` or the service's own
 * `gi_` keys passes; a false refusal of a random value of that length is about one in a million.
 */
export const MIN_SECRET_CHARACTERS = 32;

const HOW = "make one with: openssl rand -base64 32 (an API key: node -e \"console.log('gi_' + require('crypto').randomBytes(32).toString('base64url'))\")";
/** Six letters or more, so that a random value contains one by chance about once in ten million. */
const PLACEHOLDERS = ['password', 'passwd', 'secret', 'changeme', 'change-me', 'example', 'sample', 'default', 'operator', 'production', 'insecure', 'qwerty', 'letmein'];
/** A random value repeats no run this long, nor counts one (for 128 hex characters the chance is about 2 in a million). */
const REPEAT = 8;
const MIN_DISTINCT = 8;

/** Why the value is not a strong secret, or undefined when it is. */
export function secretWeakness(value: string): string | undefined {
  const body = value.startsWith('gi_') ? value.slice(3) : value;
  if (body.length < MIN_SECRET_CHARACTERS) return `it has ${body.length} characters, at least ${MIN_SECRET_CHARACTERS} random ones are needed`;
  const lower = body.toLowerCase();
  const word = PLACEHOLDERS.find((w) => lower.includes(w));
  if (word) return `it contains "${word}", a placeholder rather than a random value`;
  const classes = [/[a-z]/, /[A-Z]/, /[0-9]/].filter((c) => c.test(body)).length;
  if (classes < 2) return 'it uses one kind of character only (a random value mixes letters and digits)';
  if (new Set(body).size < MIN_DISTINCT) return `it has only ${new Set(body).size} different characters`;
  if (repeatsRun(body)) return `it repeats a run of ${REPEAT} characters`;
  if (countsRun(body)) return `it has ${REPEAT} characters in sequence (like abcdefgh or 98765432)`;
  return undefined;
}

/** The value, or a ConfigError naming the variable when it is set but weak. */
export function strongSecret(name: string, value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  const weakness = secretWeakness(value);
  if (weakness) throw new ConfigError(`${name} is too weak: ${weakness}; ${HOW}.`);
  return value;
}

function countsRun(text: string): boolean {
  for (let i = 0, up = 1, down = 1; i + 1 < text.length; i++) {
    const step = text.charCodeAt(i + 1) - text.charCodeAt(i);
    up = step === 1 ? up + 1 : 1;
    down = step === -1 ? down + 1 : 1;
    if (up >= REPEAT || down >= REPEAT) return true;
  }
  return false;
}

function repeatsRun(text: string): boolean {
  const seen = new Set<string>();
  for (let i = 0; i + REPEAT <= text.length; i++) {
    const run = text.slice(i, i + REPEAT);
    if (seen.has(run)) return true;
    seen.add(run);
  }
  return false;
}
