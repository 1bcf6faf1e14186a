import type { DataSource } from 'typeorm';
import type { Visibility } from '@green-impact/proto/greenimpact/common/v1/common';
import type {
  FrameworkDetail,
  FrameworkSummary,
  GetFrameworkYearSpecificsResponse,
} from '@green-impact/proto/greenimpact/taxonomy/v1/taxonomy';
import type { Caller } from '@green-impact/shared/caller';
import { FailedPreconditionError, InvalidArgumentError } from '@green-impact/shared/errors';
import { decodePageToken, pageOf, pageSize, totalOf, type PageRequest } from '@green-impact/shared/paging';
import type { LanguageCatalog } from '../reference/language-catalog.js';
import * as v from '../validation.js';
import type { OwnedRecord } from './entities.js';
import { frameworkSummary, type YearFigures } from './figures.js';
import * as input from './inputs.js';
import { OWNED_MSG } from './messages.js';
import { accountOf, FRAMEWORK, ownedColumns, requireById, requireVisible, visibleTo } from './owned.js';
import { readRows } from './rows.js';

/** Which framework a read means: by identifier (own, else public), or by id (service-internal). */
export interface FrameworkSelector {
  identifier: string;
  frameworkId?: number | undefined;
}

export const MAX_BATCH = 1_000;

const SUMMARY_COLUMNS = `${ownedColumns('f')},
  y.value_outstanding AS "valueOutstanding", y.allocated_amount AS "allocatedAmount",
  y.value_outstanding_framework AS "valueOutstandingFramework"`;

type SummaryRecord = OwnedRecord & YearFigures;

/**
 * Framework reads (spec §4.6 and the portfolio service's reads). A caller sees its own frameworks and
 * other accounts' public ones; the `framework_id` selectors are service-internal and read whatever the
 * visibility (an asset's figures are made of its framework's).
 */
export class FrameworkReader {
  constructor(
    private readonly ds: DataSource,
    private readonly languages: LanguageCatalog,
  ) {}

  /** Every visible framework, with the year specifics of the year where it has them. */
  async list(caller: Caller, reportingYear: number, visibility?: Visibility): Promise<FrameworkSummary[]> {
    const account = accountOf(caller);
    const year = v.reportingYear(reportingYear);
    const filter = input.visibility('framework_visibility', visibility);
    const rows: SummaryRecord[] = await this.ds.query(
      `SELECT ${SUMMARY_COLUMNS} FROM taxonomy.frameworks f
       LEFT JOIN taxonomy.framework_year_specifics y ON y.framework_id = f.id AND y.reporting_year = $2
       WHERE ${visibleTo('f', filter)}
       ORDER BY f.identifier, (f.account_id = $1) DESC, f.id`,
      [account, year],
    );
    return rows.map((r) => frameworkSummary(r, account, year));
  }

  /**
   * One page of the visible frameworks, in id order after the token's framework (keyset: LIMIT size + 1
   * rows, never the whole table), with how many are visible: the same visibility rules and filter as list.
   */
  async page(caller: Caller, reportingYear: number, visibility: Visibility | undefined, page: PageRequest): Promise<{ frameworks: FrameworkSummary[]; nextPageToken: string; totalCount: number }> {
    const account = accountOf(caller);
    const year = v.reportingYear(reportingYear);
    const filter = input.visibility('framework_visibility', visibility);
    const size = pageSize(page.size);
    const after = decodePageToken(page.token);
    const rows: SummaryRecord[] = await this.ds.query(
      `SELECT ${SUMMARY_COLUMNS} FROM taxonomy.frameworks f
       LEFT JOIN taxonomy.framework_year_specifics y ON y.framework_id = f.id AND y.reporting_year = $2
       WHERE ${visibleTo('f', filter)} AND f.id > $3::bigint
       ORDER BY f.id LIMIT $4`,
      [account, year, after?.id ?? 0, size + 1],
    );
    const totalCount = await totalOf(after, rows, size, async () => {
      const [count]: { count: string | number }[] = await this.ds.query(`SELECT count(*) AS count FROM taxonomy.frameworks f WHERE ${visibleTo('f', filter)}`, [account]);
      return Number(count?.count ?? 0);
    });
    const { items, nextPageToken } = pageOf(rows, size, after, (r) => r.id);
    return { frameworks: items.map((r) => frameworkSummary(r, account, year)), nextPageToken, totalCount };
  }

  /** The summary and rows of one framework for the year, names in the requested language. */
  async details(caller: Caller, selector: FrameworkSelector, reportingYear: number, languageCode?: string): Promise<FrameworkDetail> {
    const account = accountOf(caller);
    const year = v.reportingYear(reportingYear);
    const lang = this.languages.optional(languageCode)?.code ?? null;
    const framework = await this.select(account, selector);
    const [summary] = await this.summaries(account, [framework.id], year);
    const rows = await readRows(this.ds, this.languages, FRAMEWORK, framework.id, year, lang);
    return {
      frameworkSummary: summary!,
      framework: rows.map((r) => ({ ...r, frameworkCurrencyCode: framework.currencyCode })),
    };
  }

  /**
   * Summaries by identifier (own, else public; unknown or invisible ones left out) and by id (whatever
   * the visibility), in the order asked, each once. Year fields only when a year is given.
   */
  async byIdentifiers(caller: Caller, identifiers: string[], ids: number[], reportingYear?: number): Promise<FrameworkSummary[]> {
    const account = accountOf(caller);
    if (identifiers.length + ids.length > MAX_BATCH) {
      throw new InvalidArgumentError(`At most ${MAX_BATCH} framework identifiers and ids per call.`);
    }
    const year = reportingYear === undefined ? 0 : v.reportingYear(reportingYear);
    const wanted = identifiers.map((i) => input.identifier('framework_identifiers', i));
    const resolved: { id: number; identifier: string }[] = wanted.length
      ? await this.ds.query(
          `SELECT DISTINCT ON (identifier) id, identifier FROM taxonomy.frameworks
           WHERE identifier = ANY($2::varchar[]) AND (account_id = $1 OR visibility = 'public')
           ORDER BY identifier, (account_id = $1) DESC, id`,
          [account, wanted],
        )
      : [];
    const idOf = new Map(resolved.map((r) => [r.identifier, r.id]));
    const order = [
      ...wanted.flatMap((i) => (idOf.has(i) ? [idOf.get(i)!] : [])),
      ...ids.map((id) => v.id('framework_ids', id)),
    ];
    const unique = [...new Set(order)];
    const byId = new Map((await this.summaries(account, unique, year)).map((s) => [s.frameworkId, s]));
    return unique.flatMap((id) => (byId.has(id) ? [byId.get(id)!] : []));
  }

  /** V, L, the flag and the currency of one framework and year; FAILED_PRECONDITION without year specifics. */
  async yearSpecifics(caller: Caller, selector: FrameworkSelector, reportingYear: number): Promise<GetFrameworkYearSpecificsResponse> {
    const account = accountOf(caller);
    const year = v.reportingYear(reportingYear);
    const framework = await this.select(account, selector);
    const [s] = await this.summaries(account, [framework.id], year);
    if (s?.frameworkValueOutstanding === undefined) {
      throw new FailedPreconditionError(OWNED_MSG.noYearSpecifics('framework', framework.identifier, year));
    }
    return {
      frameworkId: framework.id,
      frameworkIdentifier: framework.identifier,
      frameworkName: framework.name,
      frameworkCurrencyCode: framework.currencyCode,
      reportingYear: year,
      valueOutstanding: s.frameworkValueOutstanding,
      allocatedAmount: s.frameworkAllocatedAmount ?? 0,
      valueOutstandingFramework: s.valueOutstandingFramework ?? false,
    };
  }

  private async select(account: string, selector: FrameworkSelector): Promise<OwnedRecord> {
    if (selector.frameworkId !== undefined) return requireById(this.ds, FRAMEWORK, v.id('framework_id', selector.frameworkId));
    return requireVisible(this.ds, FRAMEWORK, account, input.identifier('framework_identifier', selector.identifier));
  }

  /** Summaries of frameworks by id (no visibility check: the ids were resolved already). Year 0: none. */
  private async summaries(account: string, ids: number[], year: number): Promise<FrameworkSummary[]> {
    if (ids.length === 0) return [];
    const rows: SummaryRecord[] = await this.ds.query(
      `SELECT ${SUMMARY_COLUMNS} FROM taxonomy.frameworks f
       LEFT JOIN taxonomy.framework_year_specifics y ON y.framework_id = f.id AND y.reporting_year = $2
       WHERE f.id = ANY($1::int[]) ORDER BY f.id`,
      [ids, year],
    );
    return rows.map((r) => frameworkSummary(r, account, year));
  }
}
