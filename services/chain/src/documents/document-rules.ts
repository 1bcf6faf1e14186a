import { DocumentKind } from '@green-impact/proto/greenimpact/chain/v1/chain';
import { MAX_YEAR, MIN_YEAR } from '@green-impact/proto/rules';
import { DomainError, InvalidArgumentError, truncate } from '@green-impact/shared/errors';
import { nameOf, DOCUMENT_KINDS, type DocumentKindName } from '../jobs/job-types.js';

/** Rendered reports are small; anything larger is a mistake (and would not fit a gRPC message later). */
export const MAX_DOCUMENT_BYTES = 8 * 1024 * 1024;

/** The kinds about a framework: its own documents and its EU Green Bond Standard documents (issue 37). */
export const FRAMEWORK_KINDS: readonly DocumentKindName[] = ['framework_json', 'framework_html', 'eu_gbs_html'];
export const isFrameworkKind = (k: DocumentKindName) => FRAMEWORK_KINDS.includes(k);
export const isJsonKind = (k: DocumentKindName) => k === 'framework_json' || k === 'position_impacts_json';

export function documentKindName(kind: DocumentKind): DocumentKindName {
  const name = nameOf(DOCUMENT_KINDS, kind);
  if (!name) throw new InvalidArgumentError(`kind is required; one of ${Object.values(DOCUMENT_KINDS).map((v) => DocumentKind[v]).join(', ')}.`, { field: 'kind' });
  return name;
}

export interface DocumentSubject {
  frameworkIdentifier?: string | undefined;
  investorIdentifier?: string | undefined;
  positionId?: number | undefined;
}

/** Framework documents need framework_identifier; position impacts documents investor + position. */
export function validSubject(kind: DocumentKindName, s: DocumentSubject): DocumentSubject {
  const text = (v: string | undefined) => (v === undefined || v.trim() === '' ? undefined : v.trim());
  if (isFrameworkKind(kind)) {
    const frameworkIdentifier = text(s.frameworkIdentifier);
    if (!frameworkIdentifier) throw new InvalidArgumentError('framework_identifier is required for framework documents.', { field: 'framework_identifier' });
    return { frameworkIdentifier };
  }
  const investorIdentifier = text(s.investorIdentifier);
  if (!investorIdentifier) throw new InvalidArgumentError('investor_identifier is required for position impacts documents.', { field: 'investor_identifier' });
  if (s.positionId === undefined || !Number.isSafeInteger(s.positionId) || s.positionId <= 0) {
    throw new InvalidArgumentError('position_id is required for position impacts documents (a positive integer).', { field: 'position_id' });
  }
  return { investorIdentifier, positionId: s.positionId };
}

/** Checks the content against its kind; answers the content type stored with it. */
export function validContent(kind: DocumentKindName, content: Buffer, contentType: string): string {
  if (content.length === 0) throw new InvalidArgumentError('content is required.', { field: 'content' });
  if (content.length > MAX_DOCUMENT_BYTES) {
    throw new DomainError('PAYLOAD_TOO_LARGE', `content must be at most ${MAX_DOCUMENT_BYTES} bytes, got ${content.length}.`);
  }
  const type = contentType.trim() || (isJsonKind(kind) ? 'application/json' : 'text/html; charset=utf-8');
  const base = type.split(';')[0]!.trim().toLowerCase();
  if (isJsonKind(kind)) {
    if (base !== 'application/json') throw new InvalidArgumentError(`content_type must be application/json for ${kind} documents, got "${truncate(type)}".`, { field: 'content_type' });
    try {
      JSON.parse(content.toString('utf8'));
    } catch {
      throw new InvalidArgumentError('content must be valid JSON for JSON documents.', { field: 'content' });
    }
  } else if (base !== 'text/html') {
    throw new InvalidArgumentError(`content_type must be text/html for ${kind} documents, got "${truncate(type)}".`, { field: 'content_type' });
  }
  return type;
}

export function validReportingYear(year: number | undefined): number | undefined {
  if (year === undefined || year === 0) return undefined;
  // The years the taxonomy and portfolio services take (proto/src/rules.ts), so no document names a year they refuse.
  if (!Number.isInteger(year) || year < MIN_YEAR || year > MAX_YEAR) {
    throw new InvalidArgumentError(`reporting_year must be a 4-digit year from ${MIN_YEAR} to ${MAX_YEAR}, got ${year}.`, { field: 'reporting_year' });
  }
  return year;
}
