import type { Nft } from '@green-impact/proto/greenimpact/chain/v1/chain';
import { CLAIM_SCRIPT_PATH } from '@green-impact/shared/claim-script';
import { html } from '@green-impact/shared/html';
import { link, page, row } from '@green-impact/shared/page';
import { nftStatusName, STATUS_TEXT } from './certificate-page.js';

/**
 * The claim pages the gateway serves at /claim (pure renderers; RenderClaimPage, page-handlers.ts, reads
 * the data): the claim form and its answer. Links are relative, so the pages work behind any base URL or
 * path prefix; the one picture is the NFT's image from the gateway's /ipfs.
 */

/** What the claim form is filled with (what was posted; the code of an old link's query). */
export interface ClaimForm {
  guid?: string | undefined;
  code?: string | undefined;
  address?: string | undefined;
  /** A refusal to show above the form. */
  error?: string | undefined;
}

/** GET /claim: the NFT the link names (when it does) and a form asking for a wallet address. */
export function claimPage(nft: Nft | undefined, form: ClaimForm): string {
  const status = nft ? nftStatusName(nft.status) : undefined;
  if (nft && status !== 'emailed') {
    return page('Claim an NFT', html`<p class="note">This NFT is not waiting to be claimed: it is ${STATUS_TEXT[status!] ?? status}.</p>
<p>${link(`certificates/${nft.guid}`, 'See where it is now')}</p>`);
  }
  const summary = nft
    ? html`<img class="nft" src="ipfs/${nft.nftImageIpfsHash}" alt="${nft.nftJson?.name ?? ''}">
<p>Someone sent you <strong>${nft.nftJson?.name ?? 'an NFT'}</strong> (token ${nft.nftId} on ${nft.network}).</p>`
    : html`<p>Enter the receiver code from your e-mail and the wallet that should receive the NFT.</p>`;
  // A link sent before codes moved to the fragment carries it in the query: it travels on in a hidden field
  // (this page is never cached or referred). Otherwise the page's script fills the field from the link's
  // fragment (claim-script.ts), or the recipient types it.
  const codeField = form.code
    ? html`<input type="hidden" name="code" value="${form.code}">`
    : html`<label for="code">Receiver code</label><input type="text" id="code" name="code" required autocomplete="off" spellcheck="false">`;
  const body = html`${summary}
${form.error ? html`<p class="error">${form.error}</p>` : ''}
<form method="post" action="claim">
${form.guid ? html`<input type="hidden" name="guid" value="${form.guid}">` : ''}
${codeField}
<label for="address">Your wallet address</label>
<input type="text" id="address" name="address" value="${form.address ?? ''}" required pattern="0x[0-9a-fA-F]{40}" placeholder="0x…" autocomplete="off" spellcheck="false">
<button type="submit">Claim the NFT</button>
</form>
<p class="sub">The NFT is sent to this address on ${nft?.network ?? 'its network'}. The code works once.</p>
<script src="${CLAIM_SCRIPT_PATH.slice(1)}"></script>`;
  return page('Claim an NFT', body);
}

/** POST /claim accepted: the transfer job and where to follow it. */
export function claimAcceptedPage(jobId: string, address: string, guid: string | undefined): string {
  const body = html`<p class="ok">Your claim was accepted.</p>
<p>The NFT is being transferred to <span class="mono">${address}</span>.</p>
<table>${row('Transfer job', html`<span class="mono">${jobId}</span>`)}</table>
${guid ? html`<p>${link(`certificates/${guid}`, 'Follow it here')}: the owner shown there is read from the chain, and becomes your address once the transfer is mined.</p>` : ''}`;
  return page('Claim accepted', body);
}
