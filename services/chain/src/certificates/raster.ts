import type { Font, Glyph } from 'fontkit';

export type Rgb = readonly [number, number, number];
type Point = [number, number];

interface Edge {
  x0: number;
  y0: number;
  y1: number;
  /** dx/dy */
  slope: number;
  /** +1 downwards, -1 upwards (non-zero rule). */
  dir: number;
}

/** Vertical samples per pixel row; horizontal coverage is exact. */
const SUBSAMPLES = 5;
/** Segments per Bézier curve (glyph curves are short at certificate sizes). */
const CURVE_STEPS = 8;

/**
 * A small RGBA drawing surface in pure JavaScript (no native canvas): rectangles, anti-aliased polygon
 * fills with the non-zero rule, text from a font's glyph outlines, and scaled images. Enough for a
 * certificate; the JPEG encoder takes its pixels as they are.
 */
export class Raster {
  readonly data: Uint8Array;

  constructor(
    readonly width: number,
    readonly height: number,
    background: Rgb,
  ) {
    this.data = new Uint8Array(width * height * 4);
    this.fillRect(0, 0, width, height, background);
  }

  fillRect(x: number, y: number, w: number, h: number, color: Rgb): void {
    const x0 = Math.max(0, Math.round(x));
    const y0 = Math.max(0, Math.round(y));
    const x1 = Math.min(this.width, Math.round(x + w));
    const y1 = Math.min(this.height, Math.round(y + h));
    for (let py = y0; py < y1; py++) {
      for (let px = x0; px < x1; px++) this.blend(px, py, color, 1);
    }
  }

  /** Outline of a rectangle, `thickness` pixels wide, inside the rectangle. */
  strokeRect(x: number, y: number, w: number, h: number, thickness: number, color: Rgb): void {
    this.fillRect(x, y, w, thickness, color);
    this.fillRect(x, y + h - thickness, w, thickness, color);
    this.fillRect(x, y, thickness, h, color);
    this.fillRect(x + w - thickness, y, thickness, h, color);
  }

  /** Fills closed polygons (pixel coordinates) with the non-zero winding rule, anti-aliased. */
  fillPolygons(polygons: Point[][], color: Rgb): void {
    const edges: Edge[] = [];
    let minX = Infinity;
    let maxX = -Infinity;
    for (const poly of polygons) {
      for (let i = 0; i < poly.length; i++) {
        const [ax, ay] = poly[i]!;
        const [bx, by] = poly[(i + 1) % poly.length]!;
        minX = Math.min(minX, ax);
        maxX = Math.max(maxX, ax);
        if (ay === by) continue;
        edges.push(ay < by ? { x0: ax, y0: ay, slope: (bx - ax) / (by - ay), y1: by, dir: 1 } : { x0: bx, y0: by, slope: (ax - bx) / (ay - by), y1: ay, dir: -1 });
      }
    }
    if (edges.length === 0) return;
    edges.sort((a, b) => a.y0 - b.y0);
    const left = Math.max(0, Math.floor(minX));
    const right = Math.min(this.width, Math.ceil(maxX) + 1);
    if (right <= left) return;
    const coverage = new Float32Array(right - left + 1);
    const xs: number[] = [];
    const dirs: number[] = [];
    const order: number[] = [];
    let active: Edge[] = [];
    let next = 0;
    const top = Math.max(0, Math.floor(edges[0]!.y0));
    const bottom = Math.min(this.height, Math.ceil(Math.max(...edges.map((e) => e.y1))));
    for (let py = top; py < bottom; py++) {
      // Edges that touch this pixel row: the ones started above its bottom and not ended above its top.
      while (next < edges.length && edges[next]!.y0 < py + 1) active.push(edges[next++]!);
      active = active.filter((e) => e.y1 > py);
      if (active.length === 0) continue;
      coverage.fill(0);
      for (let s = 0; s < SUBSAMPLES; s++) {
        const sy = py + (s + 0.5) / SUBSAMPLES;
        xs.length = 0;
        dirs.length = 0;
        for (const e of active) {
          if (sy < e.y0 || sy >= e.y1) continue;
          xs.push(e.x0 + (sy - e.y0) * e.slope);
          dirs.push(e.dir);
        }
        order.length = 0;
        for (let i = 0; i < xs.length; i++) order.push(i);
        order.sort((a, b) => xs[a]! - xs[b]!);
        let winding = 0;
        let start = 0;
        for (const i of order) {
          const before = winding;
          winding += dirs[i]!;
          if (before === 0 && winding !== 0) start = xs[i]!;
          else if (before !== 0 && winding === 0) addSpan(coverage, start - left, xs[i]! - left, 1 / SUBSAMPLES);
        }
      }
      for (let i = 0; i < coverage.length; i++) {
        const a = coverage[i]!;
        if (a > 0.001) this.blend(left + i, py, color, Math.min(1, a));
      }
    }
  }

  /** Draws one line of text with its baseline at `y`; returns its width. */
  text(f: Font, text: string, x: number, y: number, sizePx: number, color: Rgb): number {
    const run = f.layout(text);
    const scale = sizePx / f.unitsPerEm;
    const polygons: Point[][] = [];
    let pen = x;
    run.glyphs.forEach((glyph, i) => {
      const pos = run.positions[i]!;
      const gx = pen + pos.xOffset * scale;
      const gy = y - pos.yOffset * scale;
      for (const outline of glyphOutline(f, glyph)) polygons.push(outline.map(([px, py]) => [gx + px * scale, gy - py * scale]));
      pen += pos.xAdvance * scale;
    });
    this.fillPolygons(polygons, color);
    return pen - x;
  }

  /**
   * Draws an RGBA image scaled to fit (aspect kept) and centred in the box, averaging the source pixels
   * under each target pixel; transparent parts show the background.
   */
  image(src: { width: number; height: number; data: Uint8Array }, box: { x: number; y: number; w: number; h: number }): void {
    const scale = Math.min(box.w / src.width, box.h / src.height);
    const w = Math.max(1, Math.round(src.width * scale));
    const h = Math.max(1, Math.round(src.height * scale));
    const ox = Math.round(box.x + (box.w - w) / 2);
    const oy = Math.round(box.y + (box.h - h) / 2);
    for (let ty = 0; ty < h; ty++) {
      const sy0 = Math.floor((ty * src.height) / h);
      const sy1 = Math.max(sy0 + 1, Math.floor(((ty + 1) * src.height) / h));
      for (let tx = 0; tx < w; tx++) {
        const sx0 = Math.floor((tx * src.width) / w);
        const sx1 = Math.max(sx0 + 1, Math.floor(((tx + 1) * src.width) / w));
        let r = 0, g = 0, b = 0, a = 0, n = 0;
        for (let sy = sy0; sy < sy1; sy++) {
          for (let sx = sx0; sx < sx1; sx++) {
            const i = (sy * src.width + sx) * 4;
            const alpha = src.data[i + 3]! / 255;
            r += src.data[i]! * alpha;
            g += src.data[i + 1]! * alpha;
            b += src.data[i + 2]! * alpha;
            a += alpha;
            n++;
          }
        }
        if (a > 0) this.blend(ox + tx, oy + ty, [r / a, g / a, b / a], a / n);
      }
    }
  }

  private blend(x: number, y: number, c: Rgb, alpha: number): void {
    if (x < 0 || y < 0 || x >= this.width || y >= this.height) return;
    const i = (y * this.width + x) * 4;
    const d = this.data;
    d[i] = Math.round(d[i]! + (c[0] - d[i]!) * alpha);
    d[i + 1] = Math.round(d[i + 1]! + (c[1] - d[i + 1]!) * alpha);
    d[i + 2] = Math.round(d[i + 2]! + (c[2] - d[i + 2]!) * alpha);
    d[i + 3] = 255;
  }
}

const outlines = new WeakMap<Font, Map<number, Point[][]>>();

/** A glyph's contours as polygons in font units (curves flattened), cached per font and glyph. */
function glyphOutline(f: Font, glyph: Glyph): Point[][] {
  let byGlyph = outlines.get(f);
  if (!byGlyph) outlines.set(f, (byGlyph = new Map()));
  const cached = byGlyph.get(glyph.id);
  if (cached) return cached;
  const polygons: Point[][] = [];
  let current: Point[] = [];
  let last: Point = [0, 0];
  const flush = () => {
    if (current.length > 1) polygons.push(current);
    current = [];
  };
  for (const c of glyph.path.commands) {
    const a = c.args;
    switch (c.command) {
      case 'moveTo':
        flush();
        last = [a[0]!, a[1]!];
        current = [last];
        break;
      case 'lineTo':
        last = [a[0]!, a[1]!];
        current.push(last);
        break;
      case 'quadraticCurveTo': {
        const [cx, cy, ex, ey] = a as [number, number, number, number];
        for (let k = 1; k <= CURVE_STEPS; k++) {
          const t = k / CURVE_STEPS;
          const u = 1 - t;
          current.push([u * u * last[0] + 2 * u * t * cx + t * t * ex, u * u * last[1] + 2 * u * t * cy + t * t * ey]);
        }
        last = [ex, ey];
        break;
      }
      case 'bezierCurveTo': {
        const [c1x, c1y, c2x, c2y, ex, ey] = a as [number, number, number, number, number, number];
        for (let k = 1; k <= CURVE_STEPS; k++) {
          const t = k / CURVE_STEPS;
          const u = 1 - t;
          current.push([
            u * u * u * last[0] + 3 * u * u * t * c1x + 3 * u * t * t * c2x + t * t * t * ex,
            u * u * u * last[1] + 3 * u * u * t * c1y + 3 * u * t * t * c2y + t * t * t * ey,
          ]);
        }
        last = [ex, ey];
        break;
      }
      case 'closePath':
        flush();
        break;
    }
  }
  flush();
  byGlyph.set(glyph.id, polygons);
  return polygons;
}

/** Adds coverage `w` for the horizontal span [a, b) (pixel units, relative to the buffer's start). */
function addSpan(cov: Float32Array, a: number, b: number, w: number): void {
  a = Math.max(0, a);
  b = Math.min(cov.length - 1, b);
  if (b <= a) return;
  const ia = Math.floor(a);
  const ib = Math.floor(b);
  if (ia === ib) {
    cov[ia]! += (b - a) * w;
    return;
  }
  cov[ia]! += (ia + 1 - a) * w;
  for (let i = ia + 1; i < ib; i++) cov[i]! += w;
  cov[ib]! += (b - ib) * w;
}

/** Width of one line of text at a size, in pixels (or points: the unit of `sizePx`). */
export function textWidth(f: Font, text: string, sizePx: number): number {
  return (f.layout(text).advanceWidth * sizePx) / f.unitsPerEm;
}

/**
 * Greedy word wrap to `maxWidth`, at most `maxLines` lines; a cut text ends with an ellipsis. Words longer
 * than a line (hashes, URLs) are broken anywhere.
 */
export function wrapText(text: string, maxWidth: number, maxLines: number, measure: (s: string) => number): string[] {
  const lines: string[] = [];
  for (const paragraph of text.split(/\r?\n/)) {
    let line = '';
    for (const word of paragraph.split(/\s+/).filter(Boolean)) {
      const candidate = line ? `${line} ${word}` : word;
      if (measure(candidate) <= maxWidth) {
        line = candidate;
        continue;
      }
      if (line) lines.push(line);
      line = word;
      while (measure(line) > maxWidth && line.length > 1) {
        let cut = line.length - 1;
        while (cut > 1 && measure(line.slice(0, cut)) > maxWidth) cut--;
        lines.push(line.slice(0, cut));
        line = line.slice(cut);
      }
    }
    lines.push(line);
  }
  if (lines.length <= maxLines) return lines;
  const kept = lines.slice(0, maxLines);
  let last = kept[maxLines - 1]!;
  while (last && measure(`${last}…`) > maxWidth) last = last.slice(0, -1);
  kept[maxLines - 1] = `${last.trimEnd()}…`;
  return kept;
}
