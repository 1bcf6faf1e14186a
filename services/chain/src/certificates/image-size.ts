/** Larger pictures are not drawn on the JPG certificate (decoding them would cost too much memory). */
export const MAX_PICTURE_PIXELS = 40_000_000;

/**
 * Width and height of a PNG (its IHDR) or a baseline/progressive JPEG (its SOF segment), read from the
 * header without decoding; undefined for other formats and for bytes that are not such a file.
 */
export function imageSize(bytes: Buffer, contentType: string): { width: number; height: number } | undefined {
  if (contentType === 'image/png') {
    if (bytes.length < 24 || bytes.readUInt32BE(0) !== 0x89504e47 || bytes.toString('latin1', 12, 16) !== 'IHDR') return undefined;
    return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
  }
  if (contentType !== 'image/jpeg' || bytes.length < 4 || bytes[0] !== 0xff || bytes[1] !== 0xd8) return undefined;
  let at = 2;
  while (at + 9 < bytes.length) {
    if (bytes[at] !== 0xff) return undefined;
    const marker = bytes[at + 1]!;
    if (marker === 0xff) {
      at++; // fill byte
      continue;
    }
    const length = bytes.readUInt16BE(at + 2);
    // SOF0…SOF15 except DHT (C4), JPG (C8) and DAC (CC): precision, height, width.
    if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
      return { height: bytes.readUInt16BE(at + 5), width: bytes.readUInt16BE(at + 7) };
    }
    at += 2 + length;
  }
  return undefined;
}

/** The picture drawn on a certificate: a PNG or JPEG of a sane size, else none (the Image row names its CID). */
export function drawablePicture(image: { bytes: Buffer; contentType: string } | undefined): { bytes: Buffer; contentType: string } | undefined {
  if (!image) return undefined;
  const size = imageSize(image.bytes, image.contentType);
  if (!size || size.width === 0 || size.height === 0 || size.width * size.height > MAX_PICTURE_PIXELS) return undefined;
  return image;
}
