import { escapeHtml } from '@green-impact/shared/html';
import type { MailMessage } from './mailer.js';

export interface ClaimEmailInput {
  to: string;
  nftName: string;
  network: string;
  tokenId: string;
  guid: string;
  receiverCode: string;
  claimUrl: string;
  expiresAt: Date;
  imageUrl: string;
}

/**
 * Where the recipient claims the NFT: the gateway's claim page, with the NFT's guid in the query and the
 * code in the fragment (`#code=`), which a browser never sends: no access log, proxy or Referer sees it.
 * The page's script moves it into the form, which POSTs it (docs/decisions.md, "Claim codes travel in the
 * fragment").
 */
export function claimUrl(publicBaseUrl: string, guid: string, receiverCode: string): string {
  const url = new URL(`${publicBaseUrl.replace(/\/+$/, '')}/claim`);
  url.searchParams.set('guid', guid);
  url.hash = new URLSearchParams({ code: receiverCode }).toString();
  return url.toString();
}

/** The e-mail of a send: the claim link, and the receiver code for claiming through the API. */
export function claimEmail(i: ClaimEmailInput): MailMessage {
  const expires = `${i.expiresAt.toISOString().slice(0, 16).replace('T', ' ')} UTC`;
  const text = [
    'Hello,',
    '',
    `An NFT was sent to you: "${i.nftName}" (token ${i.tokenId} on ${i.network}).`,
    '',
    'Claim it into your wallet here:',
    i.claimUrl,
    '',
    'Or claim it through the API (operation claim) with:',
    `  receiver code: ${i.receiverCode}`,
    `  NFT guid: ${i.guid}`,
    '',
    `The code works once and expires on ${expires}.`,
    'If you did not expect this message, you can ignore it.',
    '',
  ].join('\r\n');
  const e = escapeHtml;
  const html = `<!doctype html>
<html><body style="font-family: sans-serif; line-height: 1.5">
<p>Hello,</p>
<p>An NFT was sent to you: <strong>${e(i.nftName)}</strong> (token ${e(i.tokenId)} on ${e(i.network)}).</p>
<p><img src="${e(i.imageUrl)}" alt="${e(i.nftName)}" style="max-width: 320px; max-height: 320px"></p>
<p><a href="${e(i.claimUrl)}">Claim it into your wallet</a></p>
<p>Or claim it through the API (operation <code>claim</code>) with<br>
receiver code: <code>${e(i.receiverCode)}</code><br>
NFT guid: <code>${e(i.guid)}</code></p>
<p>The code works once and expires on ${e(expires)}. If you did not expect this message, you can ignore it.</p>
</body></html>
`;
  return { to: i.to, subject: `An NFT was sent to you: ${i.nftName}`, text, html };
}
