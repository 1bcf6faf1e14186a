import { test } from 'node:test';
import assert from 'node:assert/strict';
import { NftStatus, type Nft } from '@green-impact/proto/greenimpact/chain/v1/chain';
import { escapeHtml, html, link, page } from './html.js';
import { claimPage } from './nft-pages.js';

const EVIL = `<script>alert("x")</script>&'`;
const nft: Nft = {
  guid: '3b0f6a51-2a44-4a7e-9a57-0c2f7e0d9a11',
  network: 'sepolia',
  nftTxHash: '0xmint',
  nftId: '7',
  nftIpfsHash: 'bafkreimeta',
  nftImageIpfsHash: 'bafkreiimage',
  nftJson: { name: EVIL, description: EVIL, image: 'ipfs://bafkreiimage', attributes: [{ traitType: EVIL, value: EVIL }] },
  url: { nft: '', image: '', transaction: 'javascript:alert(1)' },
  status: NftStatus.NFT_STATUS_EMAILED,
  timestamp: 1714557600123,
  certificateOfTrust: '', certificateOfTrustJpg: '', certificateOfTrustUrl: '',
  certificatePdfCid: 'bafkreipdf', certificateJpgCid: 'bafkreijpg',
  contractAddress: '0xcontract', ownerAddress: '0xCustody', mintJobId: 'job-1',
};

test('escaping: text and attribute values, templates escape what they interpolate', () => {
  assert.equal(escapeHtml(EVIL), '&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;&amp;&#39;');
  assert.equal(html`<p title="${EVIL}">${EVIL}</p>`.text, `<p title="${escapeHtml(EVIL)}">${escapeHtml(EVIL)}</p>`);
  assert.equal(html`<p>${html`<b>${'<i>'}</b>`}${[1, '<', null, undefined, false]}</p>`.text, '<p><b>&lt;i&gt;</b>1&lt;</p>');
  assert.doesNotMatch(page(EVIL, html``), /<script>/);
});

test('links: http(s) and relative only', () => {
  assert.match(link('https://scan.org/tx/0x1', 'tx').text, /href="https:\/\/scan.org\/tx\/0x1"/);
  assert.match(link('../ipfs/bafk', 'm').text, /href="..\/ipfs\/bafk"/);
  assert.match(link('abc.pdf', 'm').text, /href="abc.pdf"/);
  for (const bad of ['javascript:alert(1)', 'JavaScript:alert(1)', 'data:text/html,x', 'vbscript:x']) assert.match(link(bad, 'x').text, /href="#"/, bad);
});

test('the claim page: the code in a hidden field, escaped; an NFT not waiting for a claim has no form', () => {
  const out = claimPage(nft, { guid: nft.guid, code: `"><script>`, address: EVIL, error: EVIL });
  assert.match(out, /<input type="hidden" name="code" value="&quot;&gt;&lt;script&gt;">/);
  assert.doesNotMatch(out, /<script>/);
  assert.match(out, /<form method="post" action="claim">/);
  assert.match(claimPage(undefined, {}), /<input type="text" id="code" name="code" required/);
  const done = claimPage({ ...nft, status: NftStatus.NFT_STATUS_TRANSFERRED }, { code: 'c' });
  assert.doesNotMatch(done, /<form/);
  assert.match(done, /not waiting to be claimed: it is transferred/);
});

