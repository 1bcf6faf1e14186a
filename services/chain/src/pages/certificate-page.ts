import type { Nft, NftStatus } from '@green-impact/proto/greenimpact/chain/v1/chain';
import { html, type Html } from '@green-impact/shared/html';
import { link, page, row } from '@green-impact/shared/page';
import { NFT_STATUSES } from '../nfts/nft-view.js';

/**
 * The public NFT pages the gateway serves (pure renderers; page-handlers.ts reads the data): the
 * certificate's landing page (RenderCertificatePage). Links are relative, so the pages work behind any
 * base URL or path prefix; the one picture is the NFT's image from the gateway's /ipfs.
 */

/** What the landing page knows about the holder: read from the chain now, or why it could not be. */
export type ChainOwner = { address: string } | { unreadable: string };

const STATUS_NAMES = new Map<NftStatus, string>(Object.entries(NFT_STATUSES).map(([name, status]) => [status, name]));
/** The status's name, as the service stores it (minting, created, …). */
export const nftStatusName = (status: NftStatus): string => STATUS_NAMES.get(status) ?? 'unknown';

export const STATUS_TEXT: Record<string, string> = {
  minting: 'being minted',
  created: 'minted; held by the service',
  transferring: 'being transferred',
  transferred: 'transferred',
  emailed: 'sent by e-mail; waiting to be claimed',
};

function attributesTable(nft: Nft): Html {
  const attributes = nft.nftJson?.attributes ?? [];
  if (attributes.length === 0) return html``;
  return html`<h2>Attributes</h2><table>${attributes.map((a) => row(a.traitType, typeof a.value === 'object' ? JSON.stringify(a.value) : a.value))}</table>`;
}

function ownerCell(nft: Nft, owner: ChainOwner | undefined): Html | undefined {
  if (!owner) return undefined;
  const recorded = nft.ownerAddress.toLowerCase();
  if ('address' in owner) {
    const differs = recorded && owner.address !== recorded;
    return html`<span class="mono">${owner.address}</span> <span class="ok">(read from the chain now)</span>${
      differs ? html`<br><span class="note">The service records <span class="mono">${nft.ownerAddress}</span>: a transfer is on its way.</span>` : ''
    }`;
  }
  return html`<span class="mono">${nft.ownerAddress}</span> (as the service records it; the chain could not be read now: ${owner.unreadable})`;
}

/** GET /certificates/<guid>: what was certified, where, and who holds the token. */
export function certificatePage(nft: Nft, owner: ChainOwner | undefined): string {
  const status = nftStatusName(nft.status);
  const name = nft.nftJson?.name ?? '';
  const minted = status !== 'minting';
  const hasCertificate = Boolean(nft.certificatePdfCid && nft.certificateJpgCid);
  const files = hasCertificate
    ? html`<nav>${link(`${nft.guid}.pdf`, 'Certificate (PDF)')}${link(`${nft.guid}.jpg`, 'Certificate (JPG)')}${link(`../ipfs/${nft.nftIpfsHash}`, 'Metadata (JSON)')}</nav>`
    : html`<p class="note">${minted ? 'The certificate files are not available.' : 'The mint is not confirmed yet; the certificate appears once it is.'} ${link(`../ipfs/${nft.nftIpfsHash}`, 'Metadata (JSON)')}</p>`;
  const body = html`
<img class="nft" src="../ipfs/${nft.nftImageIpfsHash}" alt="${name}">
<p>${nft.nftJson?.description ?? ''}</p>
${files}
<h2>On the chain</h2>
<table>
${row('Status', STATUS_TEXT[status] ?? status)}
${row('Network', nft.network)}
${row('Contract', nft.contractAddress ? html`<span class="mono">${nft.contractAddress}</span>` : '')}
${row('Token id', nft.nftId)}
${row('Mint transaction', nft.nftTxHash ? (nft.url?.transaction ? link(nft.url.transaction, nft.nftTxHash, true) : html`<span class="mono">${nft.nftTxHash}</span>`) : '')}
${row('Owner', ownerCell(nft, owner))}
${row('Token URI', nft.nftIpfsHash ? html`<span class="mono">ipfs://${nft.nftIpfsHash}</span>` : '')}
${row('Image', nft.nftImageIpfsHash ? link(`../ipfs/${nft.nftImageIpfsHash}`, nft.nftImageIpfsHash, true) : '')}
${row('Last change', nft.timestamp ? new Date(nft.timestamp).toISOString() : '')}
${row('Certificate id', html`<span class="mono">${nft.guid}</span>`)}
</table>
${attributesTable(nft)}
<p class="sub">The metadata and image are content-addressed: their CIDs are hashes of their bytes, and the token URI on the chain names the metadata's CID.</p>`;
  return page(name ? `Certificate of trust: ${name}` : 'Certificate of trust', body, `NFT ${nft.nftId ? `#${nft.nftId} ` : ''}on ${nft.network}`);
}
