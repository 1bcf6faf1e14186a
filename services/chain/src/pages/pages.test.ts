import { test } from 'node:test';
import assert from 'node:assert/strict';
import { NftStatus, type Nft } from '@green-impact/proto/greenimpact/chain/v1/chain';
import { certificatePage } from './certificate-page.js';
import { claimPage } from './claim-pages.js';
import { addressOfWord, ownerOfCalldata, quantity } from './evm-reads.js';
import { formatUnits, receiptPage } from './explorer-page.js';

/** The chain service's page renderers (pure): the explorer, certificate and claim pages the gateway serves. */

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

test('ownerOf: calldata and the address word', () => {
  assert.equal(ownerOfCalldata('1'), `0x6352211e${'0'.repeat(63)}1`);
  assert.equal(ownerOfCalldata('255'), `0x6352211e${'0'.repeat(62)}ff`);
  assert.throws(() => ownerOfCalldata('0x1'), RangeError);
  assert.equal(addressOfWord(`0x${'0'.repeat(24)}5AAEB6053F3E94C9B9A09F33669435E7EF1BEAED`), '0x5aaeb6053f3e94c9b9a09f33669435e7ef1beaed');
  for (const bad of ['0x', null, `0x${'1'.repeat(64)}`, `0x${'0'.repeat(24)}5aae`]) assert.equal(addressOfWord(bad), undefined);
  assert.equal(quantity('0x1a'), '26');
  assert.equal(quantity('26'), undefined);
});

test('units: wei as ether and gwei, trimmed', () => {
  assert.equal(formatUnits('50000000000000'), '0.00005');
  assert.equal(formatUnits('2000000000000000000'), '2');
  assert.equal(formatUnits('1000000000', 9), '1');
  assert.equal(formatUnits('1500000000', 9), '1.5');
});

test('the certificate page escapes everything the minter chose and never links a script URL', () => {
  const out = certificatePage(nft, { address: '0x5aaeb6053f3e94c9b9a09f33669435e7ef1beaed' });
  assert.doesNotMatch(out, /<script>/);
  assert.doesNotMatch(out, /href="javascript:/);
  assert.match(out, /&lt;script&gt;/);
  assert.match(out, /href="3b0f6a51-2a44-4a7e-9a57-0c2f7e0d9a11.pdf"/);
  assert.match(out, /src="..\/ipfs\/bafkreiimage"/);
  assert.match(out, /read from the chain now/);
  assert.match(out, /a transfer is on its way/);
  assert.match(certificatePage(nft, { unreadable: 'no answer' }), /the chain could not be read now: no answer/);
});

test('the receipt page names an ERC-721 Transfer', () => {
  const word = (hex: string) => `0x${hex.padStart(64, '0')}`;
  const out = receiptPage('sepolia', {
    transactionHash: '0xabc', status: '0x1', blockNumber: '0x7', gasUsed: '0xc350', effectiveGasPrice: '0x3b9aca00', from: '0xf', to: '0xc',
    logs: [{ address: '0xc', logIndex: '0x0', data: '0x', topics: ['0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef', word('0'), word('ab'.repeat(20)), word('2a')] }],
  });
  assert.match(out, /<span class="ok">success<\/span>/);
  assert.match(out, /Transfer<\/strong> of token 42 minted to <span class="mono">0xabab/);
  assert.match(out, /0.00005 \(native coin of sepolia\)/);
  assert.match(out, /1 gwei/);
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
