import { createHash } from 'node:crypto';
import type { FrameworkDetail } from '@green-impact/proto/greenimpact/taxonomy/v1/taxonomy';
import { renderFrameworkHtml } from './framework-html.js';
import { renderFrameworkJson } from './framework-json.js';
import type { FrameworkRenderOptions } from './framework-options.js';

export type DocumentFormatName = 'json' | 'html';

export interface RenderedDocument {
  content: Buffer;
  contentType: string;
  /** Lower-case hex SHA-256 of content. */
  sha256: string;
}

export const CONTENT_TYPES: Record<DocumentFormatName, string> = {
  json: 'application/json',
  html: 'text/html; charset=utf-8',
};

/** The framework document in a format, as UTF-8 bytes with their hash (what the chain service anchors). */
export function renderFrameworkDocument(detail: FrameworkDetail, format: DocumentFormatName, o: FrameworkRenderOptions): RenderedDocument {
  const text = format === 'json' ? renderFrameworkJson(detail, o) : renderFrameworkHtml(detail, o);
  const content = Buffer.from(text, 'utf8');
  return { content, contentType: CONTENT_TYPES[format], sha256: createHash('sha256').update(content).digest('hex') };
}
