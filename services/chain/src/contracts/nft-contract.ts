import { Interface, ZeroAddress, type Log } from 'ethers';
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
