import jpeg from 'jpeg-js';
import { PNG } from 'pngjs';

export interface RgbaImage {
  width: number;
  height: number;
  data: Uint8Array;
}

/** Larger images are not drawn on the JPG certificate (decoding them would cost too much memory). */
const MAX_PIXELS = 40_000_000;

/**
 * PNG or JPEG bytes as RGBA pixels; undefined for other formats (GIF, WebP, SVG, …) and for images that
 * do not decode or are too large: the certificate then shows the image's CID without a picture.
 */
export function decodeImage(bytes: Buffer, contentType: string): RgbaImage | undefined {
  try {
    if (contentType === 'image/png') {
      // IHDR: width and height are the first fields after the 8-byte signature and the chunk header.
      if (bytes.length < 24 || bytes.readUInt32BE(16) * bytes.readUInt32BE(20) > MAX_PIXELS) return undefined;
      const png = PNG.sync.read(bytes);
      return { width: png.width, height: png.height, data: png.data };
    }
    if (contentType === 'image/jpeg') {
      const img = jpeg.decode(bytes, { useTArray: true, formatAsRGBA: true, maxResolutionInMP: MAX_PIXELS / 1e6, maxMemoryUsageInMB: 512 });
      return { width: img.width, height: img.height, data: img.data };
    }
  } catch {
    // Not decodable: drawn without the picture.
  }
  return undefined;
}
