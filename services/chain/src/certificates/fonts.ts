import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inflateSync } from 'node:zlib';
import * as fontkit from 'fontkit';

const require = createRequire(import.meta.url);

/**
 * DejaVu Sans (regular and bold) from the @fontsource/dejavu-sans npm package: one typeface for both
 * certificates, with Latin, Greek and Cyrillic, so names outside ASCII print as written. The PDF embeds
 * it; resvg draws the JPG with it (from a TrueType file: resvg reads no WOFF), and fontkit measures the
 * JPG's lines for wrapping.
 */
const FONT_FILES = {
  regular: require.resolve('@fontsource/dejavu-sans/files/dejavu-sans-latin-400-normal.woff'),
  bold: require.resolve('@fontsource/dejavu-sans/files/dejavu-sans-latin-700-normal.woff'),
} as const;

export type FontWeight = keyof typeof FONT_FILES;

interface LoadedFont {
  /** TrueType bytes, for pdfkit. */
  ttf: Buffer;
  font: fontkit.Font;
}

const loaded = new Map<FontWeight, LoadedFont>();

function load(weight: FontWeight): LoadedFont {
  let f = loaded.get(weight);
  if (!f) {
    // fontkit inflates a WOFF table again on every glyph read (seconds per certificate); the same font
    // as plain TrueType reads in milliseconds.
    const ttf = woffToSfnt(readFileSync(FONT_FILES[weight]));
    const font = fontkit.create(ttf);
    if (!('layout' in font)) throw new Error(`${FONT_FILES[weight]} is a font collection, not a font`);
    f = { ttf, font };
    loaded.set(weight, f);
  }
  return f;
}

export const font = (weight: FontWeight): fontkit.Font => load(weight).font;
export const fontBytes = (weight: FontWeight): Buffer => load(weight).ttf;

const files = new Map<FontWeight, string>();

/**
 * The font as a TrueType file for resvg, which loads fonts by path: written once under the system's
 * temporary directory, named by its hash (the same bytes for every process; written whole, then renamed).
 */
export function fontFile(weight: FontWeight): string {
  let path = files.get(weight);
  if (!path) {
    const ttf = fontBytes(weight);
    const dir = join(tmpdir(), 'green-impact-fonts');
    path = join(dir, `dejavu-sans-${weight}-${createHash('sha256').update(ttf).digest('hex').slice(0, 16)}.ttf`);
    if (!existsSync(path)) {
      mkdirSync(dir, { recursive: true });
      const partial = `${path}.${process.pid}.${Date.now()}.part`;
      writeFileSync(partial, ttf);
      renameSync(partial, path);
    }
    files.set(weight, path);
  }
  return path;
}

/** A WOFF 1.0 file (https://www.w3.org/TR/WOFF/) as the TrueType/OpenType file it wraps. */
export function woffToSfnt(woff: Buffer): Buffer {
  if (woff.toString('latin1', 0, 4) !== 'wOFF') throw new Error('not a WOFF file');
  const flavor = woff.readUInt32BE(4);
  const numTables = woff.readUInt16BE(12);
  const tables = Array.from({ length: numTables }, (_, i) => {
    const at = 44 + i * 20;
    const offset = woff.readUInt32BE(at + 4);
    const compLength = woff.readUInt32BE(at + 8);
    const origLength = woff.readUInt32BE(at + 12);
    const raw = woff.subarray(offset, offset + compLength);
    return {
      tag: woff.subarray(at, at + 4),
      checksum: woff.readUInt32BE(at + 16),
      data: compLength < origLength ? inflateSync(raw) : raw,
    };
  });
  const pow2 = 2 ** Math.floor(Math.log2(numTables));
  const header = Buffer.alloc(12 + numTables * 16);
  header.writeUInt32BE(flavor, 0);
  header.writeUInt16BE(numTables, 4);
  header.writeUInt16BE(pow2 * 16, 6);
  header.writeUInt16BE(Math.log2(pow2), 8);
  header.writeUInt16BE(numTables * 16 - pow2 * 16, 10);
  const parts: Buffer[] = [header];
  let offset = header.length;
  tables.forEach((t, i) => {
    const at = 12 + i * 16;
    t.tag.copy(header, at);
    header.writeUInt32BE(t.checksum, at + 4);
    header.writeUInt32BE(offset, at + 8);
    header.writeUInt32BE(t.data.length, at + 12);
    const padded = Buffer.alloc((t.data.length + 3) & ~3);
    t.data.copy(padded);
    parts.push(padded);
    offset += padded.length;
  });
  return Buffer.concat(parts);
}
