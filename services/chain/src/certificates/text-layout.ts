import type { Font } from 'fontkit';

/** Width in pixels of `text` set in `f` at `sizePx` (the font's advance widths, kerning included). */
export function textWidth(f: Font, text: string, sizePx: number): number {
  return (f.layout(text).advanceWidth * sizePx) / f.unitsPerEm;
}

/**
 * Greedy word wrap to `maxWidth`, at most `maxLines` lines; a cut text ends with an ellipsis. Words longer
 * than a line (hashes, URLs) are broken anywhere. SVG has no line breaking, so the JPG's layout wraps here.
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
