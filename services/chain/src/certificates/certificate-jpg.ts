import { Resvg } from '@resvg/resvg-js';
import jpeg from 'jpeg-js';
import { CERTIFICATE_TITLE, CERTIFICATE_STATEMENT, certificateRows, formatUtc, type CertificateFacts } from './certificate-facts.js';
import { font, fontFile, type FontWeight } from './fonts.js';
import { drawablePicture } from './image-size.js';
import { textWidth, wrapText } from './text-layout.js';

/** A4 landscape proportions, like the PDF; large enough to read, small enough to encode fast. */
export const JPG_WIDTH = 1280;
export const JPG_HEIGHT = 905;

/** The layout is in units of a 1600-wide page (A4 landscape), scaled to JPG_WIDTH by resvg. */
const PAGE_W = 1600;
const PAGE_H = 1131;
const PAPER = '#fbfaf5';
const GREEN = '#185e3e';
const INK = '#212529';
const MUTED = '#606870';
const FAMILY = 'DejaVu Sans';

const escapeXml = (s: string): string =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!).replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f]/g, '');

/**
 * The certificate as an SVG document (page units, text already wrapped: SVG has no line breaking). Its
 * rows are certificateRows, like the PDF's; the NFT's picture, when it is a PNG or JPEG, is embedded.
 */
export function certificateSvg(f: CertificateFacts): string {
  const out: string[] = [];
  const width = (weight: FontWeight, s: string, size: number) => textWidth(font(weight), s, size);
  /** A text line, `y` its baseline. */
  const text = (weight: FontWeight, s: string, x: number, y: number, size: number, color: string) =>
    out.push(`<text x="${x.toFixed(1)}" y="${y}" font-size="${size}" font-weight="${weight === 'bold' ? 700 : 400}" fill="${color}">${escapeXml(s)}</text>`);
  const centred = (s: string, y: number, size: number, weight: FontWeight, color: string) => text(weight, s, (PAGE_W - width(weight, s, size)) / 2, y, size, color);
  /** A frame drawn inside the rectangle, `t` wide. */
  const frame = (x: number, y: number, w: number, h: number, t: number) =>
    out.push(`<rect x="${x + t / 2}" y="${y + t / 2}" width="${w - t}" height="${h - t}" fill="none" stroke="${GREEN}" stroke-width="${t}"/>`);

  frame(28, 28, PAGE_W - 56, PAGE_H - 56, 10);
  frame(50, 50, PAGE_W - 100, PAGE_H - 100, 2);
  centred(CERTIFICATE_TITLE.toUpperCase(), 150, 58, 'bold', GREEN);
  let y = 205;
  for (const line of wrapText(CERTIFICATE_STATEMENT, 1250, 2, (s) => width('regular', s, 22))) {
    centred(line, y, 22, 'regular', MUTED);
    y += 32;
  }

  // Facts on the left, the NFT's picture on the right.
  const left = 110;
  const labelWidth = 190;
  const valueWidth = 820;
  const size = 21;
  y += 40;
  for (const [label, value] of certificateRows(f)) {
    const maxLines = label === 'Description' ? 4 : label === 'Attributes' ? 3 : 2;
    const weight: FontWeight = label === 'NFT' ? 'bold' : 'regular';
    text('bold', label, left, y, size, GREEN);
    for (const line of wrapText(value, valueWidth, maxLines, (s) => width(weight, s, size))) {
      text(weight, line, left + labelWidth, y, size, INK);
      y += 31;
    }
    y += 9;
  }

  const box = { x: 1170, y: 300, w: 340, h: 340 };
  frame(box.x - 12, box.y - 12, box.w + 24, box.h + 24, 2);
  // Without a picture (GIF, SVG, too large, …) the frame stays empty; the Image row names the image's CID.
  const picture = drawablePicture(f.image);
  if (picture) {
    const href = `data:${picture.contentType};base64,${picture.bytes.toString('base64')}`;
    out.push(`<image x="${box.x}" y="${box.y}" width="${box.w}" height="${box.h}" preserveAspectRatio="xMidYMid meet" href="${href}"/>`);
  }
  wrapText(f.name, box.w + 24, 2, (s) => width('regular', s, 18)).forEach((line, i) =>
    text('regular', line, box.x - 12 + (box.w + 24 - width('regular', line, 18)) / 2, box.y + box.h + 50 + i * 26, 18, MUTED),
  );

  const footer = PAGE_H - 150;
  out.push(`<rect x="110" y="${footer - 40}" width="${PAGE_W - 220}" height="2" fill="${GREEN}"/>`);
  text('bold', 'Verify:', 110, footer, 21, GREEN);
  text('regular', wrapText(f.verificationUrl, 1250, 1, (s) => width('regular', s, 21))[0]!, 200, footer, 21, INK);
  text('regular', `Certificate ${f.guid} · minted ${formatUtc(f.mintedAt)}`, 110, footer + 40, 18, MUTED);

  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${PAGE_W}" height="${PAGE_H}" viewBox="0 0 ${PAGE_W} ${PAGE_H}" font-family="${FAMILY}">`,
    `<rect width="${PAGE_W}" height="${PAGE_H}" fill="${PAPER}"/>`,
    ...out,
    '</svg>',
  ].join('\n');
}

/** The certificate as a JPEG image: certificateSvg rasterised by resvg (fonts given, none of the system's), encoded by jpeg-js. */
export function renderCertificateJpg(f: CertificateFacts): Buffer {
  const resvg = new Resvg(certificateSvg(f), {
    fitTo: { mode: 'width', value: JPG_WIDTH },
    background: PAPER,
    font: { loadSystemFonts: false, fontFiles: [fontFile('regular'), fontFile('bold')], defaultFontFamily: FAMILY },
  });
  const image = resvg.render();
  if (image.width !== JPG_WIDTH || image.height !== JPG_HEIGHT) throw new Error(`resvg drew ${image.width}×${image.height}, not ${JPG_WIDTH}×${JPG_HEIGHT}`);
  return jpeg.encode({ data: image.pixels, width: image.width, height: image.height }, 88).data;
}
