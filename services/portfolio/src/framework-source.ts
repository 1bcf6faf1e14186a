import type {
  AmountConversion,
  ConvertedAmount,
  FrameworkDetail,
  FrameworkSummary,
  GetFrameworkYearSpecificsResponse,
} from '@green-impact/proto/greenimpact/taxonomy/v1/taxonomy';
import type { Caller } from '@green-impact/shared/caller';
import { DomainError, FailedPreconditionError } from '@green-impact/shared/errors';
import type { TaxonomyClient } from '@green-impact/shared/clients/taxonomy-client';

/**
 * What the portfolio service reads from the taxonomy service: frameworks, their year figures and rows,
 * and FX conversions. Every call carries the caller, so the taxonomy service applies its own visibility
 * rules; an asset's framework is then read by the id stored with the asset, whatever its visibility
 * (docs/decisions.md: a visible asset's figures are made of its framework's figures).
 */
export interface FrameworkSource {
  /**
   * The caller's own framework with that identifier, else the public one when exactly one account
   * publishes it; undefined when neither exists, FAILED_PRECONDITION when several accounts publish it.
   */
  visibleFramework(caller: Caller, frameworkIdentifier: string): Promise<FrameworkSummary | undefined>;
  /** Framework summaries by id (current names); unknown ids are left out. */
  summariesByIds(caller: Caller, frameworkIds: number[]): Promise<Map<number, FrameworkSummary>>;
  /** V, L, the flag and the framework currency of a year (FAILED_PRECONDITION without year specifics). */
  yearSpecifics(caller: Caller, frameworkId: number, reportingYear: number): Promise<GetFrameworkYearSpecificsResponse>;
  /** The framework's summary and rows of a year, names in languageCode (else original language). */
  details(caller: Caller, frameworkId: number, reportingYear: number, languageCode?: string): Promise<FrameworkDetail | undefined>;
  /** Converts with the year's rates, all or nothing (FAILED_PRECONDITION naming a missing pair). */
  convert(caller: Caller, reportingYear: number, conversions: AmountConversion[]): Promise<ConvertedAmount[]>;
  /**
   * Tells the taxonomy service that the caller's asset refers to framework frameworkId (0: to none), so
   * the framework's publisher cannot change its currency under it (issue 46). exclusive: the asset refers
   * to that one only (its other references are dropped); otherwise the reference is added.
   */
  recordHolder(caller: Caller, assetIdentifier: string, frameworkId: number, exclusive: boolean): Promise<void>;
}

export class TaxonomyFrameworkSource implements FrameworkSource {
  constructor(private readonly client: TaxonomyClient) {}

  async visibleFramework(caller: Caller, frameworkIdentifier: string): Promise<FrameworkSummary | undefined> {
    const { frameworks } = await this.client.getFrameworksByIdentifiers(
      { frameworkIdentifiers: [frameworkIdentifier], frameworkIds: [], refuseAmbiguous: true },
      { caller },
    );
    return frameworks.find((f) => f.frameworkIdentifier === frameworkIdentifier) ?? frameworks[0];
  }

  async summariesByIds(caller: Caller, frameworkIds: number[]): Promise<Map<number, FrameworkSummary>> {
    if (frameworkIds.length === 0) return new Map();
    const { frameworks } = await this.client.getFrameworksByIdentifiers(
      { frameworkIdentifiers: [], frameworkIds: [...new Set(frameworkIds)] },
      { caller },
    );
    return new Map(frameworks.map((f) => [f.frameworkId, f]));
  }

  async yearSpecifics(caller: Caller, frameworkId: number, reportingYear: number): Promise<GetFrameworkYearSpecificsResponse> {
    return this.client.getFrameworkYearSpecifics({ frameworkIdentifier: '', frameworkId, reportingYear }, { caller });
  }

  async details(caller: Caller, frameworkId: number, reportingYear: number, languageCode?: string): Promise<FrameworkDetail | undefined> {
    const { frameworks } = await this.client.getFrameworkDetails(
      { frameworkIdentifier: '', frameworkId, reportingYear, ...(languageCode ? { languageCode } : {}) },
      { caller },
    );
    return frameworks[0];
  }

  async convert(caller: Caller, reportingYear: number, conversions: AmountConversion[]): Promise<ConvertedAmount[]> {
    if (conversions.length === 0) return [];
    return (await this.client.convertAmounts({ reportingYear, conversions }, { caller })).conversions;
  }

  async recordHolder(caller: Caller, assetIdentifier: string, frameworkId: number, exclusive: boolean): Promise<void> {
    await this.client.recordFrameworkHolder({ assetIdentifier, frameworkId, exclusive }, { caller });
  }
}

/**
 * A read of an asset's framework by id: NOT_FOUND from the taxonomy service means the framework was
 * removed after the asset was linked to it, which is a precondition failure of the asset, said plainly.
 */
export async function frameworkRead<T>(gone: () => string, read: () => Promise<T>): Promise<T> {
  try {
    return await read();
  } catch (err) {
    if (err instanceof DomainError && err.code === 'NOT_FOUND') throw new FailedPreconditionError(gone());
    throw err;
  }
}
