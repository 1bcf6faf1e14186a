import { createHash } from 'node:crypto';
import type { DataSource } from 'typeorm';
import type { FrameworkRow } from '@green-impact/proto/greenimpact/taxonomy/v1/taxonomy';
import type { Caller } from '@green-impact/shared/caller';
import { DomainError, InvalidArgumentError } from '@green-impact/shared/errors';
import type { FrameworkSource } from '../framework-source.js';
import type { ImpactService } from '../impacts/impact-service.js';
import type { ImpactStore } from '../impacts/impact-store.js';
import { piiToWrite } from '../investors/investor-pii.js';
import { MSG } from '../messages.js';
import type { PositionStore } from '../positions/position-store.js';
import * as v from '../validation.js';
import { canonicalJson } from '@green-impact/shared/canonical-json';
import { buildPositionDocument, documentJson, type DocumentImpactRow } from './position-document.js';
import { renderPositionHtml } from './position-html.js';

export type DocumentFormatName = 'json' | 'html';

export interface RenderRequest {
  positionId: number;
  reportingYear: number;
  format: DocumentFormatName;
  languageCode?: string | undefined;
  decimals?: number | undefined;
  sdgGoalsIncluded: boolean;
  euObjectivesIncluded: boolean;
  writeInvestorToBlockchain: boolean;
  decryptionKey?: string | undefined;
}

export interface RenderedDocument {
  content: Buffer;
  contentType: string;
  sha256: string;
  investorIdentifier: string;
  positionId: number;
  assetIdentifier: string;
  frameworkIdentifier: string;
}

export const DEFAULT_DECIMALS = 2;
export const MAX_DECIMALS = 10;
const CONTENT_TYPES: Record<DocumentFormatName, string> = { json: 'application/json', html: 'text/html; charset=utf-8' };

/** Renders the position impacts document from stored impacts (computed first when the year has none). */
export class PositionDocumentRenderer {
  constructor(
    private readonly ds: DataSource,
    private readonly positions: PositionStore,
    private readonly impacts: ImpactService,
    private readonly impactStore: ImpactStore,
    private readonly frameworks: FrameworkSource,
  ) {}

  async render(caller: Caller, req: RenderRequest): Promise<RenderedDocument> {
    const year = v.reportingYear(req.reportingYear);
    const decimals = req.decimals ?? DEFAULT_DECIMALS;
    if (!Number.isInteger(decimals) || decimals < 0 || decimals > MAX_DECIMALS) throw new InvalidArgumentError(MSG.decimals(MAX_DECIMALS, decimals), { field: 'decimals' });
    const languageCode = req.languageCode?.trim() || undefined;
    const position = await this.positions.require(caller, req.positionId);
    // Decide about the PII before any work: a wrong or missing key fails fast.
    const pii = req.writeInvestorToBlockchain ? piiToWrite(position.investor, req.decryptionKey) : undefined;

    const records = await this.impacts.ensure(caller, position, year);
    const [computation] = await this.impactStore.computations(this.ds.manager, [position.id], year);
    const current = languageCode || req.sdgGoalsIncluded || req.euObjectivesIncluded
      ? await this.currentRows(caller, computation!.frameworkId, year, languageCode)
      : new Map<string, FrameworkRow>();

    const rows: DocumentImpactRow[] = records.map((r) => {
      const now = current.get(`${r.subCategoryId}/${r.indicatorId}`);
      const names = languageCode && now ? now : r;
      return {
        categoryId: r.categoryId,
        categoryName: names.categoryName,
        subCategoryId: r.subCategoryId,
        subCategoryName: names.subCategoryName,
        superIndicatorId: r.superIndicatorId,
        superIndicatorName: names.superIndicatorName,
        indicatorId: r.indicatorId,
        indicatorName: names.indicatorName,
        unitId: r.unitId,
        unitName: names.unitName,
        indicatorValue: r.indicatorValue,
        subCategoryVolume: r.subCategoryVolume,
        value: r.value,
        attributedVolume: r.attributedVolume,
        ...(req.sdgGoalsIncluded ? { sdg: now?.sdg ?? {} } : {}),
        ...(req.euObjectivesIncluded ? { euObjective: now?.euObjective ?? {} } : {}),
      };
    });

    const doc = buildPositionDocument({
      reportingYear: year,
      languageCode,
      decimals,
      sdgGoalsIncluded: req.sdgGoalsIncluded,
      euObjectivesIncluded: req.euObjectivesIncluded,
      position: { id: position.id, amount: position.amount, currencyCode: position.currencyCode, days: position.days, startDate: position.startDate },
      investor: req.writeInvestorToBlockchain
        ? { identifier: position.investor.investorIdentifier, name: pii?.investorName, email: pii?.investorEmail }
        : undefined,
      asset: {
        identifier: position.assetIdentifier,
        name: position.assetName,
        issuerIdentifier: position.issuerIdentifier,
        issuerName: position.issuerName,
        currencyCode: position.assetCurrencyCode,
        valueOutstanding: position.assetValueOutstanding,
        dateIssued: position.assetDateIssued,
        dateMaturity: position.assetDateMaturity,
      },
      computation: { ...computation!, computedAt: computation!.computedAt.toISOString() },
      rows,
    });
    const text = req.format === 'json' ? canonicalJson(documentJson(doc)) : renderPositionHtml(doc);
    const content = Buffer.from(text, 'utf8');
    return {
      content,
      contentType: CONTENT_TYPES[req.format],
      sha256: createHash('sha256').update(content).digest('hex'),
      investorIdentifier: position.investor.investorIdentifier,
      positionId: position.id,
      assetIdentifier: position.assetIdentifier,
      frameworkIdentifier: computation!.frameworkIdentifier,
    };
  }

  /**
   * The framework's rows as the taxonomy service has them now: names in the requested language, SDG and
   * EU objective links. A framework removed since the computation leaves the stored names and no links.
   */
  private async currentRows(caller: Caller, frameworkId: number, year: number, languageCode?: string): Promise<Map<string, FrameworkRow>> {
    try {
      const detail = await this.frameworks.details(caller, frameworkId, year, languageCode);
      return new Map((detail?.framework ?? []).map((row) => [`${row.subCategoryId}/${row.indicatorId}`, row]));
    } catch (err) {
      if (err instanceof DomainError && err.code === 'NOT_FOUND') return new Map();
      throw err;
    }
  }
}
