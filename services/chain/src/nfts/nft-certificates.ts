import type { DataSource } from 'typeorm';
import type { Logger } from '@green-impact/shared/logger';
import { CertificateRenderError, certificateUrls, type CertificateRenderer } from '../certificates/certificates.js';
import type { CertificateFacts } from '../certificates/certificate-facts.js';
import type { ContentStore } from '../content/content-store.js';
import type { IpfsPinner } from '../content/ipfs-pinner.js';
import type { ChainNetwork } from '../networks/chain-network.js';
import type { NetworkRegistry } from '../networks/network-registry.js';
import type { NftRow } from './nft-entities.js';

/**
 * Certificates of trust, drawn on first view and never on a job's path: a mint completes when its
 * transaction is final; the first read of the NFT (GetNft: the gateway's /certificates/<guid> files and
 * page, an API read of the one NFT) draws its PDF and JPG from the facts fixed at the mint, stores them
 * by CID and records the CIDs on the NFT, so later views only read. Drawing is deterministic (dated by
 * the mint's block) and content-addressed, so two replicas drawing at once store the same files; the
 * first CIDs recorded stay. Within a process, concurrent views of one NFT wait for one drawing.
 */
export class NftCertificates {
  private readonly drawing = new Map<string, Promise<NftRow>>();

  constructor(
    private readonly d: {
      ds: DataSource;
      content: ContentStore;
      renderer: CertificateRenderer;
      networks: NetworkRegistry;
      publicBaseUrl: string;
      log: Logger;
      pinner?: IpfsPinner | undefined;
    },
  ) {}

  /** The NFT with its certificates' CIDs: as it is when it has them or is not minted yet, else once drawn. */
  async of(row: NftRow): Promise<NftRow> {
    if (!row.tokenId || !row.mintTxHash || !row.contractAddress || (row.certificatePdfCid && row.certificateJpgCid)) return row;
    let pending = this.drawing.get(row.guid);
    if (!pending) {
      pending = this.draw(row).finally(() => this.drawing.delete(row.guid));
      this.drawing.set(row.guid, pending);
    }
    return pending;
  }

  private async draw(row: NftRow): Promise<NftRow> {
    const facts = await this.facts(row);
    let files: { pdf: Buffer; jpg: Buffer };
    try {
      files = await this.d.renderer.render(facts);
    } catch (err) {
      // Facts the renderer cannot draw: the NFT is shown without certificates (its URLs answer 404) and
      // the next view tries again; other failures (the thread died) are the caller's error.
      if (!(err instanceof CertificateRenderError)) throw err;
      this.d.log.error({ err, guid: row.guid }, 'certificate of trust could not be rendered');
      return row;
    }
    const pdf = await this.d.content.put(files.pdf, 'application/pdf');
    const jpg = await this.d.content.put(files.jpg, 'image/jpeg');
    await this.pin(files.pdf, pdf.cid);
    await this.pin(files.jpg, jpg.cid);
    // A CTE, so the statement is a SELECT: the CIDs now recorded, ours or another replica's drawn first.
    const [recorded] = (await this.d.ds.query(
      `WITH drawn AS (
         UPDATE chain.nfts SET certificate_pdf_cid = $2, certificate_jpg_cid = $3
          WHERE guid = $1 AND certificate_pdf_cid IS NULL RETURNING certificate_pdf_cid, certificate_jpg_cid)
       SELECT certificate_pdf_cid, certificate_jpg_cid FROM drawn
       UNION ALL
       SELECT certificate_pdf_cid, certificate_jpg_cid FROM chain.nfts WHERE guid = $1 AND NOT EXISTS (SELECT 1 FROM drawn)`,
      [row.guid, pdf.cid, jpg.cid],
    )) as { certificate_pdf_cid: string | null; certificate_jpg_cid: string | null }[];
    return { ...row, certificatePdfCid: recorded?.certificate_pdf_cid ?? pdf.cid, certificateJpgCid: recorded?.certificate_jpg_cid ?? jpg.cid };
  }

  /** What the certificate states: the NFT's row, and its mint job's block and custody wallet (a batch member's block is its batch's). */
  private async facts(row: NftRow): Promise<CertificateFacts> {
    const [mint] = (await this.d.ds.query(
      `SELECT coalesce(j.block_number, b.block_number) AS block_number, j.payload->>'to' AS custody
         FROM chain.jobs j LEFT JOIN chain.jobs b ON b.id = j.batch_job_id WHERE j.id = $1`,
      [row.mintJobId],
    )) as { block_number: string | number | null; custody: string | null }[];
    const network = this.d.networks.byCanonicalName(row.chainNetwork);
    if (!network) throw new Error(`network ${row.chainNetwork} of NFT ${row.guid} is not configured`);
    const image = await this.d.content.get(row.imageCid);
    const blockNumber = Number(mint?.block_number ?? 0);
    return {
      guid: row.guid,
      name: row.metadata.name,
      description: row.metadata.description,
      attributes: row.metadata.attributes,
      network: row.network,
      chainId: network.chainId,
      contractAddress: row.contractAddress!,
      tokenId: row.tokenId!,
      txHash: row.mintTxHash!,
      blockNumber,
      mintedAt: await this.blockTime(network, blockNumber, row),
      custodyAddress: mint?.custody ?? network.signerAddress,
      metadataCid: row.metadataCid,
      imageCid: row.imageCid,
      verificationUrl: certificateUrls(this.d.publicBaseUrl, row.guid).page,
      image: image ? { bytes: image.content, contentType: image.contentType } : undefined,
    };
  }

  /** The time of the mint's block; the service's record of the mint when the node does not answer. */
  private async blockTime(network: ChainNetwork, blockNumber: number, row: NftRow): Promise<Date> {
    try {
      const block = await network.provider.getBlock(blockNumber);
      if (block) return new Date(block.timestamp * 1000);
    } catch (err) {
      this.d.log.warn({ err, guid: row.guid, network: row.network }, "the mint's block could not be read; the certificate is dated by the service's record");
    }
    return row.mintedAt ?? row.statusChangedAt;
  }

  /** Certificates are pinned for convenience; they stay served by the service if the node fails. */
  private async pin(bytes: Buffer, cid: string): Promise<void> {
    if (!this.d.pinner) return;
    try {
      await this.d.pinner.pin(bytes, cid);
    } catch (err) {
      this.d.log.warn({ err, cid, node: this.d.pinner.shownUrl }, 'could not pin a certificate to the IPFS node');
    }
  }
}
