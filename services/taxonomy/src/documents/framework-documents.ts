import { DocumentFormat } from '@green-impact/proto/greenimpact/common/v1/common';
import type { RenderFrameworkDocumentRequest, RenderFrameworkDocumentResponse } from '@green-impact/proto/greenimpact/taxonomy/v1/taxonomy';
import type { Caller } from '@green-impact/shared/caller';
import { InvalidArgumentError } from '@green-impact/shared/errors';
import * as input from '../frameworks/inputs.js';
import { OWNED_MSG } from '../frameworks/messages.js';
import type { FrameworkReader } from '../frameworks/reads.js';
import type { LanguageCatalog } from '../reference/language-catalog.js';
import * as v from '../validation.js';
import { renderFrameworkDocument, type DocumentFormatName } from './render.js';

/**
 * RenderFrameworkDocument: the framework as getFrameworkDetails shows it to the caller (own, else public)
 * for the year, rendered by the pure functions of this folder.
 */
export class FrameworkDocuments {
  constructor(
    private readonly reader: FrameworkReader,
    private readonly languages: LanguageCatalog,
  ) {}

  async render(caller: Caller, req: RenderFrameworkDocumentRequest): Promise<RenderFrameworkDocumentResponse> {
    const format = formatName(req.format);
    const reportingYear = v.reportingYear(req.reportingYear);
    const languageCode = this.languages.optional(req.languageCode)?.code ?? null;
    const decimals = input.decimals(req.decimals);
    const detail = await this.reader.details(caller, { identifier: req.frameworkIdentifier }, reportingYear, languageCode ?? undefined);
    const doc = renderFrameworkDocument(detail, format, {
      reportingYear,
      languageCode,
      decimals,
      sdgGoalsIncluded: req.sdgGoalsIncluded === true,
      euObjectivesIncluded: req.euObjectivesIncluded === true,
    });
    const summary = detail.frameworkSummary!;
    return { ...doc, frameworkId: summary.frameworkId, frameworkIdentifier: summary.frameworkIdentifier, frameworkVisibility: summary.frameworkVisibility };
  }
}

function formatName(format: DocumentFormat): DocumentFormatName {
  if (format === DocumentFormat.DOCUMENT_FORMAT_JSON) return 'json';
  if (format === DocumentFormat.DOCUMENT_FORMAT_HTML) return 'html';
  throw new InvalidArgumentError(OWNED_MSG.formatRequired);
}
