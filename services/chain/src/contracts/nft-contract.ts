import { hexlify, Interface, ZeroAddress, type Log } from 'ethers';
import { CID } from 'multiformats/cid';
import * as raw from 'multiformats/codecs/raw';
import { sha256 } from 'multiformats/hashes/sha2';
import type { ChainNetwork } from '../networks/chain-network.js';
import { contractArtifact } from './artifacts.js';

let iface: Interface | undefined;
const nft = () => (iface ??= new Interface(contractArtifact('GreenImpactNft').abi));

/** Calldata of GreenImpactNft.mint(to, uri). */
export function encodeMint(to: string, tokenUri: string): string {
  return nft().encodeFunctionData('mint', [to, tokenUri]);
}

/** Calldata of GreenImpactNft.mintMany(to[], uris[]): one token per entry, ids in entry order. */
export function encodeMintMany(mints: readonly { to: string; tokenUri: string }[]): string {
  return nft().encodeFunctionData('mintMany', [mints.map((m) => m.to), mints.map((m) => m.tokenUri)]);
}

/**
 * The sha-256 digest GreenImpactNft.mintDigests stores for a token URI `ipfs://<CID>` whose CID is v1, raw,
 * sha2-256 (the content store's): the contract answers tokenURI with exactly that string. Undefined for any
 * other URI, which is stored as a string (mintMany).
 */
export function metadataDigest(tokenUri: string): string | undefined {
  if (!tokenUri.startsWith('ipfs://')) return undefined;
  try {
    const cid = CID.parse(tokenUri.slice('ipfs://'.length));
    if (cid.version !== 1 || cid.code !== raw.code || cid.multihash.code !== sha256.code || cid.multihash.size !== 32) return undefined;
    // Only the canonical spelling: the contract rebuilds the string from the digest.
    if (`ipfs://${cid.toString()}` !== tokenUri) return undefined;
    return hexlify(cid.multihash.digest);
  } catch {
    return undefined;
  }
}

/** Calldata of GreenImpactNft.mintDigests(to[], digests[]): mintMany with each URI stored as its digest (every entry must have one). */
export function encodeMintDigests(mints: readonly { to: string; tokenUri: string }[]): string {
  const digests = mints.map((m) => {
    const digest = metadataDigest(m.tokenUri);
    if (!digest) throw new Error(`token URI ${m.tokenUri} is not ipfs://<CIDv1 raw sha2-256>`);
    return digest;
  });
  return nft().encodeFunctionData('mintDigests', [mints.map((m) => m.to), digests]);
}

/** The selector of GreenImpactNft.mintDigests: a contract deployed before it stores URI strings (mintMany). */
export function mintDigestsSelector(): string {
  return nft().getFunction('mintDigests')!.selector;
}

/** The selector of GreenImpactNft.mintMany: a contract deployed before it mints one token per transaction. */
export function mintManySelector(): string {
  return nft().getFunction('mintMany')!.selector;
}

/**
 * Calldata of safeTransferFrom(from, to, tokenId): a contract recipient that cannot hold ERC-721 tokens
 * makes the transfer revert (at gas estimation, so nothing is sent) instead of locking the token.
 */
export function encodeTransfer(from: string, to: string, tokenId: string): string {
  return nft().encodeFunctionData('safeTransferFrom(address,address,uint256)', [from, to, BigInt(tokenId)]);
}

type LogLike = Pick<Log, 'address' | 'topics' | 'data'>;

/** The token id a mint created: its Transfer event from the zero address. */
export function mintedTokenId(logs: readonly LogLike[], contract: string): string | undefined {
  return mintedTokenIds(logs, contract)[0];
}

/** The token ids a transaction minted, in the order of its Transfer events from the zero address (mintMany's entry order). */
export function mintedTokenIds(logs: readonly LogLike[], contract: string): string[] {
  const ids: string[] = [];
  for (const log of logs) {
    if (log.address.toLowerCase() !== contract.toLowerCase()) continue;
    const parsed = nft().parseLog({ topics: [...log.topics], data: log.data });
    if (parsed?.name === 'Transfer' && parsed.args[0] === ZeroAddress) ids.push((parsed.args[2] as bigint).toString());
  }
  return ids;
}

/** ownerOf(tokenId) now; undefined when the token does not exist. */
export async function ownerOf(network: ChainNetwork, tokenId: string): Promise<string | undefined> {
  const to = network.contracts.nft;
  if (!to) return undefined;
  try {
    const raw = await network.provider.call({ to, data: nft().encodeFunctionData('ownerOf', [BigInt(tokenId)]) });
    return nft().decodeFunctionResult('ownerOf', raw)[0] as string;
  } catch {
    return undefined;
  }
}

/** tokenURI(tokenId) now. */
export async function tokenUri(network: ChainNetwork, tokenId: string): Promise<string> {
  const raw = await network.provider.call({ to: network.contracts.nft!, data: nft().encodeFunctionData('tokenURI', [BigInt(tokenId)]) });
  return nft().decodeFunctionResult('tokenURI', raw)[0] as string;
}
