import { createHash } from 'node:crypto';
import { DocumentFormat } from '@green-impact/proto/greenimpact/common/v1/common';

/**
 * The documents the fake TaxonomyService and PortfolioService render for the blockchain writes: the data
 * as JSON, or a minimal HTML page holding it. Not the services' documents (services/taxonomy/src/documents),
 * only bytes with the answer's content type and sha256, as the gateway passes them on.
 */
export function renderFakeDocument(format: DocumentFormat, title: string, data: Record<string, unknown>) {
  const json = JSON.stringify(data);
  const html = format === DocumentFormat.DOCUMENT_FORMAT_HTML;
  const text = html ? `<!doctype html><html><head><title>${title}</title></head><body><pre>${json.replace(/</g, '&lt;')}</pre></body></html>` : json;
  const content = Buffer.from(text, 'utf8');
  return {
    content,
    contentType: html ? 'text/html; charset=utf-8' : 'application/json',
    sha256: createHash('sha256').update(content).digest('hex'),
  };
}
