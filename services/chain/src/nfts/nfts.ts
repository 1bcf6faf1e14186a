import { randomUUID } from 'node:crypto';
import type { DataSource } from 'typeorm';
import type { GetNftRequest, ListNftsRequest, ListNftsResponse, MintNftRequest, Nft } from '@green-impact/proto/greenimpact/chain/v1/chain';
import { requireCaller, type Caller } from '@green-impact/shared/caller';
import { FailedPreconditionError, InvalidArgumentError, NotFoundError, UnavailableError } from '@green-impact/shared/errors';
import type { Logger } from '@green-impact/shared/logger';
import { ContentAccess } from '../content/content-access.js';
import type { ContentStore } from '../content/content-store.js';
import type { IpfsPinner } from '../content/ipfs-pinner.js';
import type { JobRow } from '../jobs/entities.js';
import type { JobStore } from '../jobs/job-store.js';
import type { NftMintPayload } from '../jobs/job-types.js';
import type { NetworkRegistry } from '../networks/network-registry.js';
import { loadImage, type ImageFetchOptions } from './image-source.js';
import type { NftCertificates } from './nft-certificates.js';
import type { NftRow } from './nft-entities.js';
import { metadataBytes, validAttributes, validDescription, validName, validRange, validTokenId, type NftMetadataJson } from './nft-rules.js';
import type { NftStore } from './nft-store.js';
import { toNft, type NftViewContext } from './nft-view.js';

export interface NftServiceDeps {
  ds: DataSource;
  jobs: JobStore;
  store: NftStore;
  networks: NetworkRegistry;
  content: ContentStore;
  view: NftViewContext;
  image: ImageFetchOptions;
  pinner?: IpfsPinner | undefined;
  log: Logger;
  /** Draws a minted NFT's certificates when it is first read (GetNft). */
  certificates: NftCertificates;
}

/**
 * NFTs (spec §4.13): `new` stores the image and the metadata JSON in the content store (and pins them
 * when an IPFS node is configured), then queues the mint job; reads list and get the account's NFTs.
 * Transfers, sends and claims are in nft-transfers.ts.
 */
export class Nfts {
  constructor(private readonly d: NftServiceDeps) {}

  async mint(caller: Caller, req: MintNftRequest): Promise<{ job: JobRow; replayed: boolean }> {
    const named = this.d.networks.resolve(req.network);
    if (!named.network.contracts.nft) {
      throw new FailedPreconditionError(`Network ${named.name} has no NFT contract configured (contracts.nft in CHAIN_NETWORKS); nothing was minted.`);
    }
    const name = validName(req.name);
    const description = validDescription(req.description);
    const attributes = validAttributes(req.attributes);
    const imageSource = req.image.trim();
    const fingerprint = { op: 'nft_mint', network: named.name, name, description, image: imageSource, attributes };
    // A replay answers its job without fetching the image again (it may be gone by now).
    const replay = await this.d.jobs.findReplay(caller, req.idempotencyKey, fingerprint);
    if (replay) return replay;

    // Files first: they are addressed by their hash, so a mint that fails afterwards leaves only
    // harmless files, and an image that cannot be read stops here with nothing queued.
    // From the store only what this account may read: another account's private document is not an image to borrow.
    const readable = new ContentAccess(this.d.ds, this.d.content);
    const image = await loadImage(imageSource, { get: (cid) => readable.read(cid, caller) }, this.d.image, this.d.log);
    const storedImage = await this.d.content.put(image.bytes, image.contentType);
    const metadata: NftMetadataJson = { name, description, image: `ipfs://${storedImage.cid}`, attributes };
    const metadataFile = metadataBytes(metadata);
    const storedMetadata = await this.d.content.put(metadataFile, 'application/json');
    await this.pin([[image.bytes, storedImage.cid], [metadataFile, storedMetadata.cid]]);

    const guid = randomUUID();
    const payload: NftMintPayload = {
      guid,
      to: named.network.signerAddress,
      tokenUri: `ipfs://${storedMetadata.cid}`,
      metadataCid: storedMetadata.cid,
      imageCid: storedImage.cid,
    };
    const echo = req.requestEcho && Object.keys(req.requestEcho).length > 0
      ? req.requestEcho
      : { network: named.name, name, description, image: imageSource, attributes };
    return this.d.jobs.create(
      {
        caller,
        kind: 'nft_mint',
        network: named.name,
        chainNetwork: named.aliasOf ?? named.name,
        signer: named.network.signerAddress,
        request: echo,
        payload: payload as unknown as Record<string, unknown>,
        fingerprint,
        idempotencyKey: req.idempotencyKey,
      },
      async (m, jobId) => {
        await m.query(
          `INSERT INTO chain.nfts (guid, account_id, network, chain_network, status, metadata, metadata_cid, image_cid, image_source, mint_job_id)
           VALUES ($1, $2, $3, $4, 'minting', $5, $6, $7, $8, $9)`,
          [guid, caller.accountId, named.name, named.aliasOf ?? named.name, JSON.stringify(metadata), storedMetadata.cid, storedImage.cid, imageSource, jobId],
        );
      },
    );
  }

  /** The spec list without page_size; with it, one page of every matching NFT (NftStore.page). */
  async list(caller: Caller, req: ListNftsRequest): Promise<ListNftsResponse> {
    const range = validRange(req.from, req.to);
    const network = req.network?.trim() ? this.d.networks.resolve(req.network) : undefined;
    const chainNetwork = network ? (network.aliasOf ?? network.name) : undefined;
    if (req.pageSize === undefined) {
      const rows = await this.d.store.list(caller, range, chainNetwork);
      return { nfts: rows.map((r) => toNft(r, this.d.view)), nextPageToken: '', hasPreviousPage: false, itemPageTokens: [] };
    }
    const page = await this.d.store.page(caller, range, chainNetwork, { size: req.pageSize, token: req.pageToken, before: req.pageBefore, order: req.pageOrder });
    return {
      nfts: page.rows.map((r) => toNft(r, this.d.view)),
      nextPageToken: page.nextPageToken,
      totalCount: page.totalCount,
      hasPreviousPage: page.hasPreviousPage,
      itemPageTokens: page.itemPageTokens,
    };
  }

  /**
   * One NFT. With a caller: the account's own NFT, by guid or by token id (+ network). Without one (the
   * gateway's public certificate pages): by guid only, the guid being the certificate's unguessable
   * address, and without an e-mail recipient. The first read of a minted NFT draws its certificates.
   */
  async get(caller: Caller | undefined, req: GetNftRequest): Promise<Nft> {
    const guid = req.guid?.trim();
    if (guid) {
      const row = await this.d.store.byGuid(guid);
      if (!row || (caller && row.accountId !== caller.accountId)) throw new NotFoundError(`No NFT ${guid}.`);
      if (row.status === 'failed') throw new NotFoundError(`No NFT ${guid}: its mint failed${caller ? ` (${row.error ?? 'no reason recorded'})` : ''}.`);
      return toNft(await this.d.certificates.of(row), this.d.view, { public: !caller });
    }
    const owner = requireCaller(caller);
    if (!req.nftId?.trim()) throw new InvalidArgumentError('guid or nft_id is required.');
    const tokenId = validTokenId(req.nftId);
    const network = req.network?.trim() ? this.d.networks.resolve(req.network) : undefined;
    const rows = (await this.d.ds.query(
      `SELECT guid FROM chain.nfts WHERE account_id = $1 AND token_id = $2 AND status <> 'failed' ${network ? 'AND chain_network = $3' : ''}`,
      network ? [owner.accountId, tokenId, network.aliasOf ?? network.name] : [owner.accountId, tokenId],
    )) as { guid: string }[];
    if (rows.length === 0) throw new NotFoundError(`No NFT ${tokenId}${network ? ` on network ${network.name}` : ''} in your account.`);
    if (rows.length > 1) throw new InvalidArgumentError(`NFT ${tokenId} exists on several networks; name the network.`);
    return toNft(await this.d.certificates.of((await this.d.store.byGuid(rows[0]!.guid)) as NftRow), this.d.view);
  }

  private async pin(files: [Buffer, string][]): Promise<void> {
    const pinner = this.d.pinner;
    if (!pinner) return;
    try {
      for (const [bytes, cid] of files) await pinner.pin(bytes, cid);
    } catch (err) {
      this.d.log.warn({ err, node: pinner.shownUrl }, 'IPFS pinning failed');
      throw new UnavailableError(`The IPFS node at ${pinner.shownUrl} did not pin the NFT's files; nothing was minted. Please retry.`, { cause: err });
    }
  }
}
