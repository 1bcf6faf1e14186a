import { UUID } from '@green-impact/proto/rules';
import type { Nft, NftAttribute } from '@green-impact/proto/greenimpact/chain/v1/chain';
import { InvalidArgumentError } from '@green-impact/shared/errors';
import { pageFields, servicePageOf, type ServicePage } from '../../graphql/pagination.js';
import { orNull } from '../../graphql/resolvers/or-null.js';
import { identifier, json, text, wideInt } from '../fields.js';
import type { GraphqlContext } from '../../graphql/context.js';
import { callerOf, declare, type CallContext } from '../operation.js';
import { NFT } from '../renders.js';
import { requestEcho } from './job-shapes.js';
import { jobAnswer, queuedJob } from './faces.js';
import { legacyNft, nftAnswer, nftOf } from './nft-shapes.js';

/**
 * NFTs (spec §4.13, SVC.NFT.zK) on ChainService's NFT methods (rules: docs/nfts.md). `new` and `transfer`
 * are jobs answered at once with `{statusCode, statusMessage, info: {jobId}}` (GraphQL: the queued Job in
 * a JobPayload); `fetch` (unnamed in the spec) reads any job of the account. `claim` and `revoke` (unnamed
 * too) are called WITHOUT an API key: the transfer code is the authority (the recipient of an e-mail has
 * no account).
 * Codes never go into a request echo, a log line or an error message.
 *
 * Envelope, as §4.13 marks it: `new` and `transfer` need version 1 and network; `send` needs network
 * (version optional, as its examples send it); `list` needs neither (network, when given, narrows the list
 * to that chain). fetch, claim and revoke follow `list`: the job, or the code, knows its NFT and network.
 *
 * The chain service owns every rule: names, descriptions, images, attributes, token ids, wallet addresses,
 * e-mail addresses, ranges, codes, guids, networks; the gateway reads types and shapes only.
 */

const JOB_ENVELOPE = { version: 'required', network: 'required' } as const;
/** The ids of the NFTs connection (guids as the chain service answers them): a cursor of another list is refused. */
const NFT_GUID = UUID;

const nftId = identifier('nftId', { doc: "The token id on the network, or the NFT's guid." });
const address = identifier('address', { doc: 'A wallet address: 0x and 40 hex digits, any case.' });
const guid = identifier('guid', { doc: 'The guid of the NFT the code belongs to (the claim link carries it): checked against the code.', graphql: 'ID' }).optional();

const WALLET = /^0x[0-9a-fA-F]{40}$/;

/**
 * A wallet address as sent to the service: trimmed, and lower case when it is one, so the EIP-55 checksum
 * of a mixed-case address is not held against the client (legacy clients copy addresses in every case).
 * Whether it is an address at all is the service's rule.
 */
export function walletAddress(value: string): string {
  const v = value.trim();
  return WALLET.test(v) ? v.toLowerCase() : v;
}

/** What a job-creating NFT call passes besides its own fields: the Idempotency-Key and the legacy echo. */
function jobFields(operation: string, echoed: Record<string, unknown>, ctx: CallContext) {
  return { idempotencyKey: ctx.idempotencyKey, requestEcho: requestEcho(NFT, operation, echoed, ctx.envelope) };
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * The spec's `attributes` ("a list or object of trait_type and value") as the proto's list: a list of
 * `{trait_type, value[, display_type]}`, one such object, or an object of trait types and values
 * (`{"colour": "green", "tonnes": 12}`). Only the shape is read here; what a trait and a value may be
 * (required, lengths, types, display types, at most 100) is the chain service's rule.
 */
export function attributesOf(input: unknown, label = 'attributes'): NftAttribute[] {
  if (input === undefined || input === null || input === '') return [];
  const refuse = (message: string) => new InvalidArgumentError(message, { field: label });
  const trait = (o: Record<string, unknown>, at: string): NftAttribute => {
    const traitType = o['trait_type'];
    const display = o['display_type'];
    if (traitType !== undefined && typeof traitType !== 'string') throw refuse(`${at}.trait_type must be a string.`);
    if (display !== undefined && display !== null && typeof display !== 'string') throw refuse(`${at}.display_type must be a string.`);
    return { traitType: traitType ?? '', value: o['value'], ...(typeof display === 'string' && display ? { displayType: display } : {}) };
  };
  if (Array.isArray(input)) {
    return input.map((item, i) => {
      if (!isObject(item)) throw refuse(`${label}[${i}] must be an object with trait_type and value.`);
      return trait(item, `${label}[${i}]`);
    });
  }
  if (!isObject(input)) throw refuse(`${label} must be a list of {trait_type, value} or an object of trait types and values.`);
  if ('trait_type' in input) return [trait(input, label)];
  return Object.entries(input).map(([traitType, value]) => ({ traitType, value }));
}

/** GraphQL's NftAttributeInput list (checked by the schema) in the legacy parameter's list form, so one rule reads both faces. */
interface GqlAttribute {
  traitType: string;
  /** Deprecated: the untyped form. */
  value?: unknown;
  stringValue?: string | null;
  numberValue?: number | null;
  booleanValue?: boolean | null;
  displayType?: string | null | undefined;
}

/** The one value an NftAttributeInput gives: stringValue, numberValue, booleanValue or (deprecated) value. */
function attributeValue(a: GqlAttribute, i: number): unknown {
  const given = (['stringValue', 'numberValue', 'booleanValue', 'value'] as const).filter((k) => a[k] !== undefined && a[k] !== null);
  if (given.length !== 1) {
    throw new InvalidArgumentError(`attributes[${i}] must give exactly one of stringValue, numberValue and booleanValue.`, { field: `attributes[${i}]` });
  }
  return a[given[0]!];
}

const legacyAttributes = (list: unknown) =>
  ((list ?? []) as GqlAttribute[]).map((a, i) => ({ trait_type: a.traitType, value: attributeValue(a, i), ...(a.displayType ? { display_type: a.displayType } : {}) }));

const mintFields = {
  name: text('name', { doc: 'At most 200 characters, one line.' }),
  description: text('description', { doc: 'At most 5000 characters.' }).optional(),
  image: text('image', { doc: 'An http(s) URL, ipfs://<cid> or /ipfs/<cid> of the service.' }),
} as const;

/** The MintNft request of a mint; `attributes` in the legacy parameter's form. */
function mintRequest(i: { name: string; description?: string | undefined; image: string }, attributes: unknown, label: string, ctx: CallContext) {
  return {
    network: ctx.envelope?.network ?? '',
    name: i.name,
    description: i.description ?? '',
    image: i.image.trim(),
    attributes: attributesOf(attributes, label),
    ...jobFields('new', { ...i, attributes }, ctx),
  };
}

const mint = declare({
  solution: NFT,
  operation: 'new',
  summary: "Mints an NFT to the service's custody wallet; answers the job at once.",
  input: { ...mintFields, attributes: json('attributes', { doc: 'A list of {trait_type, value[, display_type]}, or an object of trait types and values.' }).optional() },
  service: 'chain',
  method: 'mintNft',
  envelope: JOB_ENVELOPE,
  request: (i, ctx) => mintRequest(i, i.attributes, 'attributes', ctx),
  v1: jobAnswer,
});

const mintNft = declare({
  solution: NFT,
  summary: "Mints an NFT to the service's custody wallet (spec new). Answers the job, QUEUED; the NFT is job.nft once COMPLETED.",
  input: { ...mintFields, attributes: json('attributes', { doc: 'The traits of the NFT, at most 100.', graphql: '[NftAttributeInput!]' }).optional() },
  service: 'chain',
  method: 'mintNft',
  envelope: JOB_ENVELOPE,
  request: (i, ctx) => {
    const { attributes, ...rest } = i;
    return mintRequest(rest, legacyAttributes(attributes), 'attributes', ctx);
  },
  graphql: queuedJob('mintNft'),
});

const range = {
  from: wideInt('from', { doc: 'Milliseconds since 1970, inclusive.' }).optional(),
  to: wideInt('to', { doc: 'Milliseconds since 1970, inclusive.' }).optional(),
} as const;

/** Without from/to the last 20 (spec §8); a range answers at most 1000, newest first. */
const list = declare({
  solution: NFT,
  operation: 'list',
  summary: "The account's NFTs minted in [from, to], newest first; without a range the last 20.",
  input: range,
  service: 'chain',
  method: 'listNfts',
  request: (i, ctx) => ({ from: i.from, to: i.to, network: ctx.envelope?.network }),
  v1: (res) => nftAnswer(res.nfts.map(legacyNft)),
});

/** One page of the account's NFTs, paged by the chain service (GraphqlFace.paged). */
export const nfts = declare({
  solution: NFT,
  summary:
    "The account's NFTs whose mint was asked in [from, to], newest first; without a range all of them (the pages are not capped at the spec's last 20). Minting NFTs are listed (status MINTING, no nftId); failed mints are not.",
  input: {
    ...range,
    network: identifier('network', { doc: 'Only NFTs of this network (an alias and its target are one chain).' }).optional(),
  },
  service: 'chain',
  method: 'listNfts',
  request: (i, ctx) => ({ from: i.from, to: i.to, network: i.network, ...pageFields(ctx.page) }),
  graphql: {
    root: 'Query',
    field: 'nfts',
    returns: 'NftConnection!',
    nested: false,
    paged: {
      idOf: (nft: { guid: string }) => nft.guid,
      idPattern: NFT_GUID,
      backward: true,
      orderBy: {
        type: 'Nft',
        plural: 'NFTs',
        fields: {
          ID: 'The guid, as text: a stable order of no other meaning.',
          CREATED_AT: 'When the mint was asked for (timestamp).',
          MINTED_AT: 'When the mint completed; NFTs still minting last going up.',
          TOKEN_ID: 'The token id (nftId) as a number; NFTs still minting last going up.',
          NETWORK: 'The network name as the NFT was minted on it, as text.',
        },
        default: { field: 'created_at', descending: true, doc: 'newest first (CREATED_AT DESC)' },
      },
    },
    render: async (call): Promise<ServicePage<Nft>> => {
      const res = await call();
      return servicePageOf(res.nfts, res);
    },
  },
});

const nft = declare({
  solution: NFT,
  summary: 'One NFT of the account by its guid; null when the account has none.',
  input: { guid: identifier('guid', { doc: "The NFT's guid.", graphql: 'ID' }) },
  service: 'chain',
  method: 'getNft',
  request: (i) => ({ guid: i.guid }),
  graphql: {
    root: 'Query',
    field: 'nft',
    returns: 'Nft',
    nested: false,
    render: async (call) => {
      const found = await orNull(call());
      return found?.nft ?? null;
    },
  },
});

const transfer = declare({
  solution: NFT,
  operation: 'transfer',
  summary: 'Sends a custodied NFT to a wallet address; answers the job at once.',
  input: { nftId, address },
  service: 'chain',
  method: 'transferNft',
  envelope: JOB_ENVELOPE,
  request: (i, ctx) => {
    // The spec's fetch example echoes the address as `destination`: both names are kept.
    const given = i.address.trim();
    const echoed = { nftId: i.nftId, address: given, destination: given };
    return { network: ctx.envelope?.network ?? '', nftId: i.nftId, address: walletAddress(i.address), ...jobFields('transfer', echoed, ctx) };
  },
  v1: jobAnswer,
  graphql: queuedJob('transferNft'),
});

/** The answer carries both transfer codes in clear: the only time they are ever shown. */
const send = declare({
  solution: NFT,
  operation: 'send',
  summary: 'E-mails the recipient a claim link; answers the NFT, emailed, with both transfer codes.',
  input: { nftId, email: text('email', { doc: "The recipient's e-mail address." }) },
  service: 'chain',
  method: 'sendNft',
  envelope: { network: 'required' },
  request: (i, ctx) => ({ network: ctx.envelope?.network ?? '', nftId: i.nftId, email: i.email.trim() }),
  v1: (res) => nftAnswer(legacyNft(nftOf(res))),
  graphql: {
    root: 'Mutation',
    field: 'sendNft',
    returns: 'NftSendPayload!',
    nested: true,
    render: async (call) => {
      const sent = nftOf(await call());
      return { nft: sent, ownerCode: sent.transferCodes?.owner ?? '', receiverCode: sent.transferCodes?.receiver ?? '' };
    },
  },
});

/** What a claim takes (the claim page's form too, nft-routes.ts). */
export const claimFields = {
  receiverCode: identifier('receiverCode', { aliases: ['receiver_code', 'code'], doc: 'The receiver code of the e-mailed send.' }),
  address,
  guid,
} as const;

export const claim = declare({
  solution: NFT,
  operation: 'claim',
  summary: 'Claims an e-mailed NFT into a wallet with the receiver code; needs no API key. Answers the transfer job.',
  input: claimFields,
  service: 'chain',
  method: 'claimNft',
  withoutApiKey: { authority: 'the receiver code of an e-mailed send' },
  request: (i, ctx) => ({
    receiverCode: i.receiverCode.trim(),
    address: walletAddress(i.address),
    guid: i.guid,
    // The code stays out of the echo: the job's request is shown to the NFT's owner by fetch.
    ...jobFields('claim', { address: i.address.trim(), guid: i.guid }, ctx),
  }),
  v1: jobAnswer,
  graphql: queuedJob('claimNft'),
});

/** Answers the NFT, available (`created`) again. */
const revoke = declare({
  solution: NFT,
  operation: 'revoke',
  summary: 'Cancels an e-mailed send with the owner code; needs no API key. Answers the NFT, created again.',
  input: { ownerCode: identifier('ownerCode', { aliases: ['owner_code'], doc: 'The owner code of the e-mailed send.' }), guid },
  service: 'chain',
  method: 'revokeNftSend',
  withoutApiKey: { authority: 'the owner code of an e-mailed send' },
  request: (i) => ({ ownerCode: i.ownerCode.trim(), guid: i.guid }),
  v1: (res) => nftAnswer(legacyNft(nftOf(res))),
  graphql: { root: 'Mutation', field: 'revokeNftSend', returns: 'NftPayload!', nested: true, render: async (call) => ({ nft: nftOf(await call()) }) },
});

/** One NFT of the account as GraphQL shows it, null when the account has none (an Nft node's refetch). */
export async function nftByGuid(ctx: GraphqlContext, guid: string) {
  const found = await orNull(nft.call({ guid }, await callerOf(ctx)));
  return found?.nft ?? null;
}

export const nftOperations = [mint, mintNft, list, nfts, nft, transfer, send, claim, revoke];
