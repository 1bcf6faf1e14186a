import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import * as fontkit from 'fontkit';
import jpeg from 'jpeg-js';
import { testJpeg, testPng } from '@green-impact/testing/chain/nft-fixtures';
import type { CertificateFacts } from './certificate-facts.js';
import { JPG_HEIGHT, JPG_WIDTH, renderCertificateJpg } from './certificate-jpg.js';
import { renderCertificatePdf } from './certificate-pdf.js';
import { CertificateRenderer, certificateUrls } from './certificates.js';
import { decodeImage } from './decode-image.js';
import { font, woffToSfnt } from './fonts.js';
import { Raster, textWidth, wrapText } from './raster.js';

const require = createRequire(import.meta.url);

const facts = (over: Partial<CertificateFacts> = {}): CertificateFacts => ({
  guid: '0f9c3b8e-8a51-4c1e-9a7e-2b7f0d3c1a22',
  name: 'Solar Park Südheide — 2024',
  description: 'Renewable energy, 12.4 GWh; Ελληνικά и кириллица.',
  attributes: [{ trait_type: 'tCO2e', value: 5320 }],
  network: 'sepolia',
  chainId: 31337,
  contractAddress: '0x9fE46736679d2D9a65F0992F2272dE9f3c7fa6e0',
  tokenId: '1',
  txHash: `0x${'ab'.repeat(32)}`,
  blockNumber: 5,
  mintedAt: new Date('2025-06-01T12:00:00Z'),
  custodyAddress: '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266',
  metadataCid: 'bafkreigh2akiscaildcqabsyg3dfr6chu3fgpregiymsck7e7aqa4s52zy',
  imageCid: 'bafkreidvbhs33ighmljlvr7zbv2ywwzcmp5adtf4kqvlly67cy56bdtmve',
  verificationUrl: certificateUrls('https://impact.example.org/', '0f9c3b8e-8a51-4c1e-9a7e-2b7f0d3c1a22').page,
  image: { bytes: testJpeg(), contentType: 'image/jpeg' },
  ...over,
});

describe('certificates of trust', () => {
  const renderer = new CertificateRenderer();
  after(() => renderer.close());

  it('unwraps the WOFF font into TrueType that fontkit reads like the original', () => {
    const woff = readFileSync(require.resolve('@fontsource/dejavu-sans/files/dejavu-sans-latin-400-normal.woff'));
    const ttf = woffToSfnt(woff);
    assert.equal(ttf.readUInt32BE(0), 0x00010000);
    const fromTtf = fontkit.create(ttf) as fontkit.Font;
    const fromWoff = fontkit.create(woff) as fontkit.Font;
    assert.equal(fromTtf.numGlyphs, fromWoff.numGlyphs);
    assert.equal(fromTtf.layout('Südheide').advanceWidth, fromWoff.layout('Südheide').advanceWidth);
    assert.deepEqual(fromTtf.glyphForCodePoint(0x416).path.commands, fromWoff.glyphForCodePoint(0x416).path.commands);
  });

  it('wraps text to a width and cuts it with an ellipsis', () => {
    const measure = (s: string) => s.length;
    assert.deepEqual(wrapText('aa bb cc dd', 5, 5, measure), ['aa bb', 'cc dd']);
    assert.deepEqual(wrapText('aa bb cc dd ee', 5, 2, measure), ['aa bb', 'cc d…']);
    assert.deepEqual(wrapText('0123456789', 4, 5, measure), ['0123', '4567', '89']);
    assert.deepEqual(wrapText('one\ntwo', 10, 5, measure), ['one', 'two']);
  });

  it('draws anti-aliased text: ink inside the glyphs, paper around them', () => {
    const r = new Raster(120, 40, [255, 255, 255]);
    const w = r.text(font('bold'), 'Il', 10, 30, 28, [0, 0, 0]);
    assert.ok(Math.abs(w - textWidth(font('bold'), 'Il', 28)) < 0.01);
    const px = (x: number, y: number) => r.data[(y * 120 + x) * 4]!;
    assert.equal(px(2, 2), 255);
    const row = Array.from({ length: 120 }, (_, x) => px(x, 20));
    assert.ok(row.some((v) => v === 0), 'solid stems');
    assert.ok(row.some((v) => v > 0 && v < 255), 'anti-aliased edges');
  });

  it('decodes PNG and JPEG pictures, and nothing else', () => {
    assert.equal(decodeImage(testPng(20, 10), 'image/png')?.width, 20);
    assert.equal(decodeImage(testJpeg(30, 12), 'image/jpeg')?.height, 12);
    assert.equal(decodeImage(Buffer.from('<svg/>'), 'image/svg+xml'), undefined);
    assert.equal(decodeImage(Buffer.from('garbage'), 'image/png'), undefined);
  });

  it('renders a PDF and a JPG, with or without a picture', async () => {
    for (const f of [facts(), facts({ image: { bytes: testPng(), contentType: 'image/png' } }), facts({ image: undefined, attributes: [], description: '' })]) {
      const pdf = await renderCertificatePdf(f);
      assert.equal(pdf.subarray(0, 5).toString('latin1'), '%PDF-');
      assert.match(pdf.subarray(-8).toString('latin1'), /%%EOF/);
      const jpg = jpeg.decode(renderCertificateJpg(f), { useTArray: true });
      assert.equal(jpg.width, JPG_WIDTH);
      assert.equal(jpg.height, JPG_HEIGHT);
    }
    // Rendering again gives the same PDF: it is dated by the mint, not by the rendering.
    assert.deepEqual(await renderCertificatePdf(facts()), await renderCertificatePdf(facts()));
  });

  it('renders in a worker thread', async () => {
    const [a, b] = await Promise.all([renderer.render(facts()), renderer.render(facts({ tokenId: '2' }))]);
    assert.equal(a.pdf.subarray(0, 4).toString('latin1'), '%PDF');
    assert.equal(jpeg.decode(b.jpg).width, JPG_WIDTH);
    assert.notDeepEqual(a.jpg, b.jpg);
  });
});
