import { InvalidArgumentError } from '@green-impact/shared/errors';

/**
 * Parameter specs and limits of the key-value operations of SVC.Blockchain.Hash (spec §4.12, §8), exported
 * so GraphQL validates by the same rules. The chain service checks again, and alone knows the network's
 * insertString limit ("set by the selected network").
 */

/** Spec §8: keys of at most 32 characters. */
export const MAX_KEY_CHARS = 32;
/** Spec §8: insertBytes32 values of at most 32 characters, 32 bytes. */
export const MAX_BYTES32_BYTES = 32;
/**
 * insertString values: the network decides (chain service, `maxStringValueBytes`, default 4096). The
 * gateway only bounds the text so the body limit, not this spec, refuses anything larger.
 */
export const MAX_STRING_VALUE_CHARS = 1024 * 1024;
const SANITY_MAX_CHARS = 1024;

export const hashParams = {
  /**
   * The spec's limits are checked by {@link checkKey} and {@link checkBytes32Value}, which count characters
   * as code points and say what they counted; the specs' own bound only stops absurd input early.
   */
  key: { type: 'identifier', required: true, maxLength: SANITY_MAX_CHARS },
  stringValue: { type: 'string', required: true, maxLength: MAX_STRING_VALUE_CHARS },
  bytes32Value: { type: 'string', required: true, maxLength: SANITY_MAX_CHARS },
  /** A job UUID; `job_id` is accepted too, as the ESG solution spells it. */
  jobId: { type: 'identifier', required: true, maxLength: 64, aliases: ['job_id'] },
} as const;

export const insertStringParams = { key: hashParams.key, value: hashParams.stringValue } as const;
export const insertBytes32Params = { key: hashParams.key, value: hashParams.bytes32Value } as const;
export const selectParams = { key: hashParams.key } as const;
/** fetch (unnamed in the spec): `jobId`, as info.jobId names it. */
export const fetchParams = { jobId: hashParams.jobId } as const;

const chars = (s: string) => [...s].length;
const utf8Bytes = (s: string) => Buffer.byteLength(s, 'utf8');

/** A key of at most 32 characters (code points: `é` or `😀` is one). `label` names it in the message. */
export function checkKey(key: string, label = 'key'): string {
  if (chars(key) > MAX_KEY_CHARS) {
    throw new InvalidArgumentError(`${label} must be at most ${MAX_KEY_CHARS} characters, got ${chars(key)}.`);
  }
  return key;
}

/** An insertBytes32 value: at most 32 characters and 32 bytes of UTF-8 (`é` counts 2 bytes). */
export function checkBytes32Value(value: string, label = 'value'): string {
  if (chars(value) > MAX_BYTES32_BYTES || utf8Bytes(value) > MAX_BYTES32_BYTES) {
    throw new InvalidArgumentError(
      `${label} must be at most ${MAX_BYTES32_BYTES} characters and ${MAX_BYTES32_BYTES} bytes (UTF-8) for insertBytes32, got ${chars(value)} characters, ${utf8Bytes(value)} bytes.`,
    );
  }
  return value;
}
