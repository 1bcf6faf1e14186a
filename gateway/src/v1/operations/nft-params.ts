import type { NftAttribute } from '@green-impact/proto/greenimpact/chain/v1/chain';
import { InvalidArgumentError } from '@green-impact/shared/errors';
import { hashParams } from './hash-params.js';

/**
 * Parameter specs of SVC.NFT.zK (spec §4.13, and the unnamed fetch, claim and revoke of
 * docs/api-operations.md) and the pure rules around them, exported so GraphQL validates by the same
 * rules. Names are the spec's camelCase. The chain service checks everything again and alone knows
 * which NFTs, codes and images exist.
 */

/** The chain service's limits (docs/nfts.md), so the gateway refuses what the service would. */
export const MAX_NAME_CHARS = 200;
export const MAX_DESCRIPTION_CHARS = 5_000;
export const MAX_ATTRIBUTES = 100;
/** A URL the service fetches or a content-store URI; longer ones are not images anybody links to. */
export const MAX_IMAGE_CHARS = 2_048;
/** ListNfts answers at most this many NFTs for a range. */
export const MAX_LIST = 1_000;

export const nftParams = {
  name: { type: 'string', required: true, maxLength: MAX_NAME_CHARS },
  description: { type: 'string', maxLength: MAX_DESCRIPTION_CHARS },
  image: { type: 'string', required: true, maxLength: MAX_IMAGE_CHARS },
  /** A list of {trait_type, value[, display_type]} or an object of trait types and values: {@link attributesOf}. */
  attributes: { type: 'json' },
  /** Milliseconds since 1970, inclusive. */
  // Millisecond timestamps: beyond 32 bits.
  from: { type: 'int', min: 0, wide: true },
  to: { type: 'int', min: 0, wide: true },
  /** The token id on the envelope's network, or the NFT's guid. */
  nftId: { type: 'identifier', required: true, maxLength: 80 },
  /** A wallet address: {@link checkWalletAddress}. */
  address: { type: 'identifier', required: true, maxLength: 64 },
  email: { type: 'email', required: true, maxLength: 254 },
  jobId: hashParams.jobId,
  /** The codes of an e-mailed send: 43 base64url characters, checked by the chain service. */
  receiverCode: { type: 'identifier', required: true, maxLength: 128, aliases: ['receiver_code', 'code'] },
  ownerCode: { type: 'identifier', required: true, maxLength: 128, aliases: ['owner_code'] },
  /** Optional cross-check of the NFT a code belongs to (the claim link carries it). */
  guid: { type: 'identifier', maxLength: 64 },
} as const;

const n = nftParams;
export const newParams = { name: n.name, description: n.description, image: n.image, attributes: n.attributes } as const;
export const listParams = { from: n.from, to: n.to } as const;
export const transferParams = { nftId: n.nftId, address: n.address } as const;
export const sendParams = { nftId: n.nftId, email: n.email } as const;
export const fetchParams = { jobId: n.jobId } as const;
export const claimParams = { receiverCode: n.receiverCode, address: n.address, guid: n.guid } as const;
export const revokeParams = { ownerCode: n.ownerCode, guid: n.guid } as const;

const WALLET = /^0x[0-9a-fA-F]{40}$/;
const ZERO = `0x${'0'.repeat(40)}`;

/**
 * A wallet address: 0x and 40 hex digits, in any case. The checksum of a mixed-case address is not held
 * against the client (legacy clients copy addresses in every case): the address is sent lower case, which
 * the chain service accepts as it is and answers in its checksummed form.
 */
export function checkWalletAddress(address: string, label = 'address'): string {
  const v = address.trim();
  if (!WALLET.test(v)) throw new InvalidArgumentError(`${label} must be a wallet address (0x and 40 hex digits).`);
  const lower = v.toLowerCase();
  if (lower === ZERO) throw new InvalidArgumentError(`${label} must not be the zero address.`);
  return lower;
}

/** The image of `new`: an http(s) URL, or the service's own URI (ipfs://<cid>, /ipfs/<cid>). */
export function checkImage(image: string, label = 'image'): string {
  const v = image.trim();
  if (/^ipfs:\/\/[A-Za-z0-9]+$/.test(v) || /^\/ipfs\/[A-Za-z0-9]+$/.test(v)) return v;
  let url: URL | undefined;
  try {
    url = new URL(v);
  } catch {
    url = undefined;
  }
  if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:')) {
    throw new InvalidArgumentError(`${label} must be an http(s) URL, ipfs://<cid> or /ipfs/<cid> of the service.`);
  }
  return v;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * The spec's `attributes` ("a list or object of trait_type and value") as the proto's list — the chain
 * service's rule (attributesFromJson in nft-rules.ts), checked here so a wrong shape is the gateway's 400:
 * - a list of `{trait_type, value[, display_type]}`;
 * - one such object;
 * - an object of trait types and values: `{"colour": "green", "tonnes": 12}`.
 * Values are strings, finite numbers or booleans; at most 100 attributes.
 */
export function attributesOf(input: unknown, label = 'attributes'): NftAttribute[] {
  if (input === undefined || input === null || input === '') return [];
  let named: [string, NftAttribute][];
  if (Array.isArray(input)) {
    named = input.map((item, i) => {
      if (!isObject(item)) throw new InvalidArgumentError(`${label}[${i}] must be an object with trait_type and value.`);
      return [`${label}[${i}]`, traitObject(item, `${label}[${i}]`)];
    });
  } else if (isObject(input)) {
    named = 'trait_type' in input
      ? [[label, traitObject(input, label)]]
      : Object.entries(input).map(([traitType, value]) => [`${label}.${traitType}`, { traitType, value }]);
  } else {
    throw new InvalidArgumentError(`${label} must be a list of {trait_type, value} or an object of trait types and values.`);
  }
  if (named.length > MAX_ATTRIBUTES) throw new InvalidArgumentError(`${label}: at most ${MAX_ATTRIBUTES}, got ${named.length}.`);
  for (const [at, a] of named) {
    if (!a.traitType.trim()) throw new InvalidArgumentError(`${at}.trait_type is required.`);
    const v: unknown = a.value;
    if (typeof v === 'number' ? !Number.isFinite(v) : typeof v !== 'string' && typeof v !== 'boolean') {
      throw new InvalidArgumentError(`${at}.value must be a string, a number or a boolean.`);
    }
  }
  return named.map(([, a]) => a);
}

function traitObject(o: Record<string, unknown>, at: string): NftAttribute {
  const traitType = o['trait_type'];
  const display = o['display_type'];
  if (traitType !== undefined && typeof traitType !== 'string') throw new InvalidArgumentError(`${at}.trait_type must be a string.`);
  if (display !== undefined && display !== null && typeof display !== 'string') throw new InvalidArgumentError(`${at}.display_type must be a string.`);
  return { traitType: traitType ?? '', value: o['value'], ...(typeof display === 'string' && display ? { displayType: display } : {}) };
}

/** ListNfts' range: either bound alone works; both must be in order. */
export function checkRange(from: number | undefined, to: number | undefined, labels = { from: 'from', to: 'to' }): { from?: number; to?: number } {
  if (from !== undefined && to !== undefined && from > to) throw new InvalidArgumentError(`${labels.from} must not be after ${labels.to}.`);
  return { ...(from !== undefined ? { from } : {}), ...(to !== undefined ? { to } : {}) };
}
