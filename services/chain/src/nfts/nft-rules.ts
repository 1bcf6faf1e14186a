import { getAddress, isAddress, ZeroAddress } from 'ethers';
import type { NftAttribute } from '@green-impact/proto/greenimpact/chain/v1/chain';
import { InvalidArgumentError, truncate } from '@green-impact/shared/errors';

export const MAX_NAME_CHARS = 200;
export const MAX_DESCRIPTION_CHARS = 5_000;
export const MAX_ATTRIBUTES = 100;
export const MAX_TRAIT_TYPE_CHARS = 100;
export const MAX_VALUE_CHARS = 1_000;
/** OpenSea's display types (https://docs.opensea.io/docs/metadata-standards#attributes). */
export const DISPLAY_TYPES = ['number', 'boost_number', 'boost_percentage', 'date'] as const;

/** One attribute of the metadata JSON, as wallets and marketplaces read it. */
export interface MetadataAttribute {
  trait_type: string;
  value: string | number | boolean;
  display_type?: string;
}

/** The ERC-721 metadata JSON of an NFT (the spec's nftJson). */
export interface NftMetadataJson {
  name: string;
  description: string;
  /** ipfs://<CID> of the image in the content store. */
  image: string;
  attributes: MetadataAttribute[];
}

export function validName(name: string): string {
  const v = name.trim();
  if (!v) throw new InvalidArgumentError('name is required.', { field: 'name' });
  if ([...v].length > MAX_NAME_CHARS) throw new InvalidArgumentError(`name must be at most ${MAX_NAME_CHARS} characters.`, { field: 'name' });
  // One line: the name goes into e-mail subjects and certificate titles.
  if (/[\u0000-\u001f\u007f]/.test(v)) throw new InvalidArgumentError('name must be one line without control characters.', { field: 'name' });
  return v;
}

export function validDescription(description: string): string {
  const v = description.trim();
  if ([...v].length > MAX_DESCRIPTION_CHARS) throw new InvalidArgumentError(`description must be at most ${MAX_DESCRIPTION_CHARS} characters.`, { field: 'description' });
  return v;
}

/** Checks the attributes of a mint: a trait type each, and a string, finite number or boolean value. */
export function validAttributes(attributes: NftAttribute[]): MetadataAttribute[] {
  if (attributes.length > MAX_ATTRIBUTES) throw new InvalidArgumentError(`attributes: at most ${MAX_ATTRIBUTES}, got ${attributes.length}.`, { field: 'attributes' });
  return attributes.map((a, i) => {
    const at = `attributes[${i}]`;
    const traitType = (a.traitType ?? '').trim();
    if (!traitType) throw new InvalidArgumentError(`${at}.trait_type is required.`, { field: 'attributes' });
    if ([...traitType].length > MAX_TRAIT_TYPE_CHARS) throw new InvalidArgumentError(`${at}.trait_type must be at most ${MAX_TRAIT_TYPE_CHARS} characters.`, { field: 'attributes' });
    const value: unknown = a.value;
    if (typeof value === 'string') {
      if ([...value].length > MAX_VALUE_CHARS) throw new InvalidArgumentError(`${at}.value must be at most ${MAX_VALUE_CHARS} characters.`, { field: 'attributes' });
    } else if (typeof value === 'number') {
      if (!Number.isFinite(value)) throw new InvalidArgumentError(`${at}.value must be a finite number.`, { field: 'attributes' });
    } else if (typeof value !== 'boolean') {
      throw new InvalidArgumentError(`${at}.value must be a string, a number or a boolean.`, { field: 'attributes' });
    }
    const out: MetadataAttribute = { trait_type: traitType, value };
    const display = a.displayType?.trim();
    if (display) {
      if (!(DISPLAY_TYPES as readonly string[]).includes(display)) {
        throw new InvalidArgumentError(`${at}.display_type must be one of ${DISPLAY_TYPES.join(', ')}.`, { field: 'attributes' });
      }
      if (typeof value !== 'number') throw new InvalidArgumentError(`${at}.display_type ${display} needs a number value.`, { field: 'attributes' });
      out.display_type = display;
    }
    return out;
  });
}

/**
 * The spec's `attributes` parameter ("a list or object of trait_type and value") as a list: a list of
 * {trait_type, value[, display_type]}, one such object, or an object mapping each trait type to its
 * value ({"colour": "green", "tonnes": 12}). The gateway applies the same rule before MintNft.
 */
export function attributesFromJson(input: unknown): NftAttribute[] {
  if (input === undefined || input === null || input === '') return [];
  if (Array.isArray(input)) {
    return input.map((item, i) => {
      if (typeof item !== 'object' || item === null || Array.isArray(item)) {
        throw new InvalidArgumentError(`attributes[${i}] must be an object with trait_type and value.`, { field: 'attributes' });
      }
      return fromTraitObject(item as Record<string, unknown>);
    });
  }
  if (typeof input !== 'object') throw new InvalidArgumentError('attributes must be a list of {trait_type, value} or an object of trait types and values.', { field: 'attributes' });
  const o = input as Record<string, unknown>;
  if ('trait_type' in o) return [fromTraitObject(o)];
  return Object.entries(o).map(([traitType, value]) => ({ traitType, value }));
}

function fromTraitObject(o: Record<string, unknown>): NftAttribute {
  const display = o['display_type'];
  return {
    traitType: typeof o['trait_type'] === 'string' ? o['trait_type'] : '',
    value: o['value'],
    ...(typeof display === 'string' ? { displayType: display } : {}),
  };
}

/**
 * The metadata file's bytes. Key order is fixed and nothing else goes in, so the same NFT always has the
 * same bytes and the same CID.
 */
export function metadataBytes(m: NftMetadataJson): Buffer {
  const attributes = m.attributes.map((a) => ({
    trait_type: a.trait_type,
    value: a.value,
    ...(a.display_type ? { display_type: a.display_type } : {}),
  }));
  return Buffer.from(JSON.stringify({ name: m.name, description: m.description, image: m.image, attributes }, null, 2) + '\n', 'utf8');
}

/** A recipient wallet: a valid address (any case, or a correct EIP-55 checksum), not the zero address. */
export function validWalletAddress(address: string, field = 'address'): string {
  const v = address.trim();
  if (!v) throw new InvalidArgumentError(`${field} is required (a wallet address, 0x + 40 hex digits).`, { field });
  if (!isAddress(v)) throw new InvalidArgumentError(`${field} must be a wallet address (0x + 40 hex digits, EIP-55 checksum when mixed case), got "${truncate(v)}".`, { field });
  const checksummed = getAddress(v);
  if (checksummed === ZeroAddress) throw new InvalidArgumentError(`${field} must not be the zero address.`, { field });
  return checksummed;
}

const EMAIL = /^[^\s@<>()[\]\\,;:"]+@[^\s@<>()[\]\\,;:"]+\.[^\s@<>()[\]\\,;:"]+$/;

export function validEmail(email: string): string {
  const v = email.trim();
  if (!v) throw new InvalidArgumentError('email is required.', { field: 'email' });
  if (v.length > 254 || !EMAIL.test(v)) throw new InvalidArgumentError('email must be an e-mail address.', { field: 'email' });
  return v;
}

export function validTokenId(nftId: string): string {
  const v = nftId.trim();
  if (!v) throw new InvalidArgumentError('nftId is required.', { field: 'nftId' });
  if (!/^\d{1,78}$/.test(v)) throw new InvalidArgumentError(`nftId must be a token id (a whole number), got "${truncate(v)}".`, { field: 'nftId' });
  return BigInt(v).toString();
}

/** ListNfts: an inclusive [from, to] in ms, or nothing (the last LIST_DEFAULT). */
export function validRange(from: number | undefined, to: number | undefined): { from?: Date; to?: Date } | undefined {
  if (from === undefined && to === undefined) return undefined;
  for (const [name, v] of [['from', from], ['to', to]] as const) {
    if (v !== undefined && (!Number.isSafeInteger(v) || v < 0)) throw new InvalidArgumentError(`${name} must be a timestamp in milliseconds since 1970.`, { field: name });
  }
  if (from !== undefined && to !== undefined && from > to) throw new InvalidArgumentError('from must not be after to.', { field: 'from' });
  return { ...(from !== undefined ? { from: new Date(from) } : {}), ...(to !== undefined ? { to: new Date(to) } : {}) };
}
