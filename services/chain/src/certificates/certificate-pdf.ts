import PDFDocument from 'pdfkit';
import { CERTIFICATE_STATEMENT, CERTIFICATE_TITLE, certificateRows, formatUtc, type CertificateFacts } from './certificate-facts.js';
import { fontBytes } from './fonts.js';
import { drawablePicture } from './image-size.js';

const GREEN = '#185e3e';
const INK = '#212529';
const MUTED = '#606870';

/** The certificate as a one-page A4 landscape PDF (pdfkit, fonts embedded, verification link clickable). */
export async function renderCertificatePdf(f: CertificateFacts): Promise<Buffer> {
  const doc = new PDFDocument({
    size: 'A4',
    layout: 'landscape',
    margin: 0,
    // The mint's time, not the render's: rendering the same certificate again gives the same facts.
    info: {
      Title: `${CERTIFICATE_TITLE}: ${f.name}`,
      Subject: `NFT ${f.tokenId} on ${f.network}, contract ${f.contractAddress}`,
      Author: 'Green Impact',
      Creator: 'Green Impact chain service',
      CreationDate: f.mintedAt,
      ModDate: f.mintedAt,
    },
  });
  const chunks: Buffer[] = [];
  doc.on('data', (c: Buffer) => chunks.push(c));
  const done = new Promise<void>((resolve, reject) => {
    doc.on('end', resolve);
    doc.on('error', reject);
  });
  doc.registerFont('regular', fontBytes('regular'));
  doc.registerFont('bold', fontBytes('bold'));

  const W = doc.page.width; // 841.89
  const H = doc.page.height; // 595.28
  doc.lineWidth(5).strokeColor(GREEN).rect(14, 14, W - 28, H - 28).stroke();
  doc.lineWidth(1).rect(26, 26, W - 52, H - 52).stroke();

  doc.font('bold').fontSize(30).fillColor(GREEN).text(CERTIFICATE_TITLE.toUpperCase(), 0, 58, { width: W, align: 'center' });
  doc.font('regular').fontSize(11).fillColor(MUTED).text(CERTIFICATE_STATEMENT, 90, 102, { width: W - 180, align: 'center' });

  const left = 58;
  const labelWidth = 100;
  const valueWidth = 440;
  let y = 152;
  for (const [label, value] of certificateRows(f)) {
    const lines = label === 'Description' ? 4 : label === 'Attributes' ? 3 : 2;
    doc.font('bold').fontSize(10.5).fillColor(GREEN).text(label, left, y, { width: labelWidth });
    doc.font(label === 'NFT' ? 'bold' : 'regular').fontSize(10.5).fillColor(INK);
    const height = Math.min(doc.heightOfString(value, { width: valueWidth }), lines * doc.currentLineHeight(true));
    doc.text(value, left + labelWidth, y, { width: valueWidth, height, ellipsis: true });
    y += height + 6;
  }

  const box = { x: 625, y: 160, w: 170, h: 170 };
  doc.lineWidth(1).strokeColor(GREEN).rect(box.x - 6, box.y - 6, box.w + 12, box.h + 12).stroke();
  const picture = drawablePicture(f.image);
  if (picture) {
    try {
      doc.image(picture.bytes, box.x, box.y, { fit: [box.w, box.h], align: 'center', valign: 'center' });
    } catch {
      // An image pdfkit cannot read: the frame stays empty, the Image row names its CID.
    }
  }
  doc.font('regular').fontSize(9).fillColor(MUTED).text(f.name, box.x - 6, box.y + box.h + 14, { width: box.w + 12, align: 'center', height: 24, ellipsis: true });

  const footer = H - 84;
  doc.lineWidth(1).strokeColor(GREEN).moveTo(left, footer - 12).lineTo(W - left, footer - 12).stroke();
  doc.font('bold').fontSize(10.5).fillColor(GREEN).text('Verify:', left, footer, { continued: true });
  doc.font('regular').fillColor(INK).text(` ${f.verificationUrl}`, { link: f.verificationUrl, underline: false });
  doc.font('regular').fontSize(9).fillColor(MUTED).text(`Certificate ${f.guid} · minted ${formatUtc(f.mintedAt)}`, left, footer + 20);

  doc.end();
  await done;
  return Buffer.concat(chunks);
}
