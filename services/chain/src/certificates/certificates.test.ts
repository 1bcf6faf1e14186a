import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import * as fontkit from 'fontkit';
import jpeg from 'jpeg-js';
import { testJpeg, testPng } from '@green-impact/testing/chain/nft-fixtures';
import type { CertificateFacts } from './certificate-facts.js';
import { certificateSvg, JPG_HEIGHT, JPG_WIDTH, renderCertificateJpg } from './certificate-jpg.js';
import { renderCertificatePdf } from './certificate-pdf.js';
import { CertificateRenderer, certificateUrls } from './certificates.js';
import { fontBytes, fontFile, woffToSfnt } from './fonts.js';
import { drawablePicture, imageSize } from './image-size.js';
import { wrapText } from './text-layout.js';

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

  it('gives resvg the font as a TrueType file, the same bytes pdfkit embeds', () => {
    assert.deepEqual(readFileSync(fontFile('bold')), fontBytes('bold'));
    assert.equal(fontFile('bold'), fontFile('bold'));
    assert.notEqual(fontFile('regular'), fontFile('bold'));
  });

  it('reads the size of PNG and JPEG pictures from their headers, draws only those of a sane size', () => {
    assert.deepEqual(imageSize(testPng(20, 10), 'image/png'), { width: 20, height: 10 });
    assert.deepEqual(imageSize(testJpeg(30, 12), 'image/jpeg'), { width: 30, height: 12 });
    assert.equal(imageSize(Buffer.from('<svg/>'), 'image/svg+xml'), undefined);
    assert.equal(imageSize(Buffer.from('garbage that is long enough'), 'image/png'), undefined);
    assert.equal(imageSize(Buffer.from('garbage'), 'image/jpeg'), undefined);
    const png = testPng(20, 10);
    assert.equal(drawablePicture({ bytes: png, contentType: 'image/png' })?.bytes, png);
    // A header claiming 100 000 × 100 000 pixels (a decompression bomb) is not drawn.
    const bomb = Buffer.from(png);
    bomb.writeUInt32BE(100_000, 16);
    bomb.writeUInt32BE(100_000, 20);
    assert.equal(drawablePicture({ bytes: bomb, contentType: 'image/png' }), undefined);
    assert.equal(drawablePicture({ bytes: Buffer.from('GIF89a'), contentType: 'image/gif' }), undefined);
  });

  it('lays the certificate out as SVG: every row, the text escaped, the picture embedded', () => {
    const svg = certificateSvg(facts({ name: 'Wind <&> "2024"' }));
    assert.match(svg, /^<svg xmlns="http:\/\/www.w3.org\/2000\/svg"/);
    assert.ok(svg.includes('>Wind &lt;&amp;&gt; &quot;2024&quot;</text>'));
    assert.ok(!svg.includes('Wind <&>'));
    for (const label of ['NFT', 'Description', 'Attributes', 'Network', 'Contract', 'Token id', 'Transaction', 'Block', 'Minted to', 'Metadata', 'Image']) {
      assert.ok(svg.includes(`>${label}</text>`), label);
    }
    assert.ok(svg.includes('href="data:image/jpeg;base64,'));
    assert.ok(!certificateSvg(facts({ image: undefined })).includes('<image'));
  });

  it('draws the JPG with resvg: ink on paper, the picture in its frame', () => {
    const jpg = jpeg.decode(renderCertificateJpg(facts()), { useTArray: true });
    const px = (x: number, y: number) => Array.from(jpg.data.subarray((y * JPG_WIDTH + x) * 4, (y * JPG_WIDTH + x) * 4 + 3));
    const near = (a: number[], b: number[]) => a.every((v, i) => Math.abs(v - b[i]!) < 24);
    assert.ok(near(px(JPG_WIDTH / 2, 8), [251, 250, 245]), 'paper outside the frame');
    assert.ok(near(px(JPG_WIDTH / 2, 27), [24, 94, 62]), 'the outer frame, green');
    // The title's row holds dark green ink; a picture-less certificate has paper where the picture was.
    const title = Array.from({ length: JPG_WIDTH }, (_, x) => px(x, 100));
    assert.ok(title.some((c) => near(c, [24, 94, 62])), 'the title');
    const centre = [Math.round((1170 + 170) * 0.8), Math.round((300 + 170) * 0.8)] as const;
    assert.ok(!near(px(...centre), [251, 250, 245]), 'the picture');
    const bare = jpeg.decode(renderCertificateJpg(facts({ image: undefined })), { useTArray: true });
    assert.ok(near(Array.from(bare.data.subarray((centre[1] * JPG_WIDTH + centre[0]) * 4, (centre[1] * JPG_WIDTH + centre[0]) * 4 + 3)), [251, 250, 245]), 'no picture');
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
