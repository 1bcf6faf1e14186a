import { InvalidArgumentError } from '@green-impact/shared/errors';

/**
 * Global object ids (Relay's Object Identification), kept apart from the `id` fields every client and
 * /v1/call already read: `nodeId` is base64url of `Type:key`, the key being the parts that refetch the
 * object (`Position:57`, `Job:<uuid>`, `Framework:12:2024:GBF` for a year-specific one). Opaque to
 * clients; the type name makes ids unique across types (Position 1 and Asset 1 differ).
 */

/** The message of every id node() or nodes() cannot take: malformed, forged, or of a type without refetch. */
export const NOT_A_NODE_ID = 'must be a nodeId this API gave out.';

/** The most ids one nodes() call takes (limits.ts counts nodes(ids:) by its ids, at most this many). */
export const MAX_NODE_IDS = 100;

export interface DecodedNodeId {
  type: string;
  /** The key's parts; the last may itself hold ':' (identifiers are kept whole). */
  parts: string[];
}

const TYPE = /^[A-Z][A-Za-z]{0,63}$/;
const MAX_ID_LENGTH = 1024;

/** The nodeId of an object of `type` whose key is `parts` (numbers written in decimal). */
export function toNodeId(type: string, ...parts: (string | number)[]): string {
  return Buffer.from([type, ...parts.map(String)].join(':'), 'utf8').toString('base64url');
}

/**
 * The type and key of a nodeId, given the number of key parts each type has; `label` names the argument
 * in the error (id, ids[3]). Strict: only the exact encoding toNodeId gives decodes (Node's base64url
 * decoder accepts padding, '+' and '/', and skips junk).
 */
export function decodeNodeId(id: string, partsOf: (type: string) => number | undefined, label: string): DecodedNodeId {
  const refuse = () => new InvalidArgumentError(`${label} ${NOT_A_NODE_ID}`);
  if (typeof id !== 'string' || id.length === 0 || id.length > MAX_ID_LENGTH || !/^[A-Za-z0-9_-]+$/.test(id)) throw refuse();
  const text = Buffer.from(id, 'base64url').toString('utf8');
  if (Buffer.from(text, 'utf8').toString('base64url') !== id) throw refuse();
  const [type = '', ...rest] = text.split(':');
  const count = TYPE.test(type) ? partsOf(type) : undefined;
  if (count === undefined || rest.length < count) throw refuse();
  // The last part takes the rest whole, so an identifier may hold ':'.
  const parts = [...rest.slice(0, count - 1), rest.slice(count - 1).join(':')];
  if (parts.some((p) => p.length === 0)) throw refuse();
  return { type, parts };
}
