import type { DataSource } from 'typeorm';
import type { Visibility } from '@green-impact/proto/greenimpact/common/v1/common';
import type {
  FrameworkDetail,
  FrameworkSummary,
  GetFrameworkYearSpecificsResponse,
} from '@green-impact/proto/greenimpact/taxonomy/v1/taxonomy';
import type { Caller } from '@green-impact/shared/caller';
import { FailedPreconditionError, InvalidArgumentError } from '@green-impact/shared/errors';
import { cappedListing, type ListingOrders } from '@green-impact/shared/paging';
import type { LanguageCatalog } from '../reference/language-catalog.js';
import * as v from '../validation.js';
import type { OwnedRecord, VisibilityValue } from './entities.js';
import { frameworkSummary, type YearFigures } from './figures.js';
import * as input from './inputs.js';
import { OWNED_MSG } from './messages.js';
import { accountOf, findVisible, FRAMEWORK, ownedColumns, requireById, requireVisible, visibleTo } from './owned.js';
import { ownedPage, type OwnedPage, type OwnedPageRequest } from './owned-pages.js';
import { readRows } from './rows.js';

/** Which framework a read means: by identifier (own, else public), or by id (service-internal). */
export interface FrameworkSelector {
  identifier: string;
  frameworkId?: number | undefined;
}

export const MAX_BATCH = 1_000;

const SUMMARY_COLUMNS = `${ownedColumns('f')},
  y.value_outstanding AS "valueOutstanding", y.allocated_amount AS "allocatedAmount",
  y.value_outstanding_framework AS "valueOutstandingFramework",
  f.issuer_lei AS "issuerLei", f.external_reviewer AS "externalReviewer", f.approving_authority AS "approvingAuthority",
  to_char(y.reporting_period_start, 'YYYY-MM-DD') AS "reportingPeriodStart", to_char(y.reporting_period_end, 'YYYY-MM-DD') AS "reportingPeriodEnd",
  y.unallocated_proceeds_placement AS "unallocatedProceedsPlacement"`;

type SummaryRecord = OwnedRecord & YearFigures;

/**
 * The orders a framework page can be read in (GraphQL FrameworkOrderField), each then by id. The year's
 * figures are missing for a framework without year specifics: it sorts as PostgreSQL puts NULLs, last
 * going up, first going down.
 */
const FRAMEWORK_ORDERS: ListingOrders = {
  id: { sql: 'f.id', type: 'bigint' },
  columns: {
    identifier: { sql: 'f.identifier', type: 'text' },
    name: { sql: 'f.name', type: 'text' },
    currency_code: { sql: 'f.currency_code', type: 'text' },
    value_outstanding: { sql: "COALESCE(y.value_outstanding, 'Infinity'::float8)", type: 'float8' },
    allocated_amount: { sql: "COALESCE(y.allocated_amount, 'Infinity'::float8)", type: 'float8' },
  },
};

/**
 * Framework reads (spec §4.6 and the portfolio service's reads). A caller sees its own frameworks and
 * other accounts' public ones; the `framework_id` selectors are service-internal and read whatever the
 * visibility (an asset's figures are made of its framework's).
 */
export class FrameworkReader {
  constructor(
    private readonly ds: DataSource,
    private readonly languages: LanguageCatalog,
    /** MAX_LIST_ITEMS: the most frameworks an unpaged list answers. */
    private readonly maxListItems: number,
  ) {}

  /**
   * The visible frameworks, with the year specifics of the year where they have them, in identifier
   * order: at most MAX_LIST_ITEMS, chosen own first and then others' oldest first, so no flood of public
   * frameworks pushes the caller's own out. `totalCount` is set only when the answer was cut.
   */
  async list(caller: Caller, reportingYear: number, visibility?: Visibility): Promise<{ frameworks: FrameworkSummary[]; totalCount: number | undefined }> {
    const account = accountOf(caller);
    const year = v.reportingYear(reportingYear);
    const filter = input.visibility('framework_visibility', visibility);
    const rows: SummaryRecord[] = await this.ds.query(
      `SELECT * FROM (
         SELECT ${SUMMARY_COLUMNS} FROM taxonomy.frameworks f
         LEFT JOIN taxonomy.framework_year_specifics y ON y.framework_id = f.id AND y.reporting_year = $2
         WHERE ${visibleTo('f', filter)}
         ORDER BY (f.account_id = $1) DESC, f.id LIMIT $3) capped
       ORDER BY capped.identifier, (capped."accountId" = $1) DESC, capped.id`,
      [account, year, this.maxListItems],
    );
    const { items, totalCount } = await cappedListing(rows, this.maxListItems, () => this.count(account, filter));
    return { frameworks: items.map((r) => frameworkSummary(r, account, year)), totalCount };
  }

  /**
   * One page of the visible frameworks in the asked order (FRAMEWORK_ORDERS; default id), forward or
   * backward (owned-pages.ts), with how many are visible: the same visibility rules and filter as list.
   */
  async page(
    caller: Caller,
    reportingYear: number,
    visibility: Visibility | undefined,
    page: OwnedPageRequest,
  ): Promise<Omit<OwnedPage<SummaryRecord>, 'rows'> & { frameworks: FrameworkSummary[] }> {
    const account = accountOf(caller);
    const year = v.reportingYear(reportingYear);
    const filter = input.visibility('framework_visibility', visibility);
    const listing = {
      select: (extra: string) =>
        `SELECT ${SUMMARY_COLUMNS}${extra} FROM taxonomy.frameworks f
         LEFT JOIN taxonomy.framework_year_specifics y ON y.framework_id = f.id AND y.reporting_year = $2`,
      where: visibleTo('f', filter),
      params: [account, year],
      count: () => this.count(account, filter),
    };
    const { rows, ...paging } = await ownedPage<SummaryRecord>(this.ds, listing, FRAMEWORK_ORDERS, page);
    return { frameworks: rows.map((r) => frameworkSummary(r, account, year)), ...paging };
  }

  /** How many frameworks the caller sees under the visibility filter. */
  private async count(account: string, filter: VisibilityValue | undefined): Promise<number> {
    const [count]: { count: string | number }[] = await this.ds.query(`SELECT count(*) AS count FROM taxonomy.frameworks f WHERE ${visibleTo('f', filter)}`, [account]);
    return Number(count?.count ?? 0);
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
   * Summaries by identifier (as findVisible resolves them; unknown, invisible and ambiguous ones left
   * out, or with `refuseAmbiguous` FAILED_PRECONDITION for an ambiguous one) and by id (whatever the
   * visibility), in the order asked, each once. Year fields only when a year is given.
   */
  async byIdentifiers(caller: Caller, identifiers: string[], ids: number[], reportingYear?: number, refuseAmbiguous = false): Promise<FrameworkSummary[]> {
    const account = accountOf(caller);
    if (identifiers.length + ids.length > MAX_BATCH) {
      throw new InvalidArgumentError(`At most ${MAX_BATCH} framework identifiers and ids per call.`);
    }
    const year = reportingYear === undefined ? 0 : v.reportingYear(reportingYear);
    const wanted = identifiers.map((i) => input.identifier('framework_identifiers', i));
    const resolved: { id: number; identifier: string }[] = wanted.length
      ? await this.ds.query(
          `SELECT id, identifier FROM (
             SELECT id, identifier, account_id,
               row_number() OVER (PARTITION BY identifier ORDER BY (account_id = $1) DESC, id) AS rn,
               count(*) OVER (PARTITION BY identifier) AS n
             FROM taxonomy.frameworks
             WHERE identifier = ANY($2::varchar[]) AND (account_id = $1 OR visibility = 'public')) c
           WHERE c.rn = 1 AND (c.account_id = $1 OR c.n = 1)`,
          [account, wanted],
        )
      : [];
    const idOf = new Map(resolved.map((r) => [r.identifier, r.id]));
    if (refuseAmbiguous) {
      // findVisible throws for an identifier several accounts publish; one that is truly absent stays left out.
      for (const identifier of wanted) if (!idOf.has(identifier)) await findVisible(this.ds, FRAMEWORK, account, identifier);
    }
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
