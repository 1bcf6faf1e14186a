import jpeg from 'jpeg-js';
import { CERTIFICATE_TITLE, CERTIFICATE_STATEMENT, certificateRows, formatUtc, type CertificateFacts } from './certificate-facts.js';
import { decodeImage } from './decode-image.js';
import { font } from './fonts.js';
import { Raster, textWidth, wrapText, type Rgb } from './raster.js';

/** A4 landscape proportions, like the PDF; large enough to read, small enough to encode fast. */
export const JPG_WIDTH = 1280;
export const JPG_HEIGHT = 905;

const PAPER: Rgb = [251, 250, 245];
const GREEN: Rgb = [24, 94, 62];
const INK: Rgb = [33, 37, 41];
const MUTED: Rgb = [96, 104, 112];

/** The certificate as a JPEG image, drawn in pure JavaScript (no native canvas, nothing downloaded). */
export function renderCertificateJpg(f: CertificateFacts): Buffer {
  const k = JPG_WIDTH / 1600; // the layout below is in units of a 1600-pixel-wide page
  const r = new Raster(JPG_WIDTH, JPG_HEIGHT, PAPER);
  const regular = font('regular');
  const bold = font('bold');
  const rect = (x: number, y: number, w: number, h: number, t: number) => r.strokeRect(x * k, y * k, w * k, h * k, Math.max(1, t * k), GREEN);
  const text = (weight: typeof regular, s: string, x: number, y: number, size: number, color: Rgb) => r.text(weight, s, x * k, y * k, size * k, color);
  const width = (weight: typeof regular, s: string, size: number) => textWidth(weight, s, size);
  const centred = (s: string, y: number, size: number, weight: typeof regular, color: Rgb) => text(weight, s, (1600 - width(weight, s, size)) / 2, y, size, color);

  rect(28, 28, 1600 - 56, 1131 - 56, 10);
  rect(50, 50, 1600 - 100, 1131 - 100, 2);
  centred(CERTIFICATE_TITLE.toUpperCase(), 150, 58, bold, GREEN);
  let y = 205;
  for (const line of wrapText(CERTIFICATE_STATEMENT, 1250, 2, (s) => width(regular, s, 22))) {
    centred(line, y, 22, regular, MUTED);
    y += 32;
  }

  // Facts on the left, the NFT's image on the right.
  const left = 110;
  const labelWidth = 190;
  const valueWidth = 820;
  const size = 21;
  y += 40;
  for (const [label, value] of certificateRows(f)) {
    const maxLines = label === 'Description' ? 4 : label === 'Attributes' ? 3 : 2;
    text(bold, label, left, y, size, GREEN);
    for (const line of wrapText(value, valueWidth, maxLines, (s) => width(regular, s, size))) {
      text(label === 'NFT' ? bold : regular, line, left + labelWidth, y, size, INK);
      y += 31;
    }
    y += 9;
  }

  const box = { x: 1170, y: 300, w: 340, h: 340 };
  rect(box.x - 12, box.y - 12, box.w + 24, box.h + 24, 2);
  // Without a picture (GIF, SVG, …) the frame stays empty; the Image row names the image's CID.
  const picture = f.image ? decodeImage(f.image.bytes, f.image.contentType) : undefined;
  if (picture) r.image(picture, { x: box.x * k, y: box.y * k, w: box.w * k, h: box.h * k });
  wrapText(f.name, box.w + 24, 2, (s) => width(regular, s, 18)).forEach((line, i) =>
    text(regular, line, box.x - 12 + (box.w + 24 - width(regular, line, 18)) / 2, box.y + box.h + 50 + i * 26, 18, MUTED),
  );

  const footer = 1131 - 150;
  r.fillRect(110 * k, (footer - 40) * k, (1600 - 220) * k, Math.max(1, 2 * k), GREEN);
  text(bold, 'Verify:', 110, footer, 21, GREEN);
  text(regular, wrapText(f.verificationUrl, 1250, 1, (s) => width(regular, s, 21))[0]!, 200, footer, 21, INK);
  text(regular, `Certificate ${f.guid} · minted ${formatUtc(f.mintedAt)}`, 110, footer + 40, 18, MUTED);

  return jpeg.encode({ data: r.data, width: JPG_WIDTH, height: JPG_HEIGHT }, 88).data;
}
