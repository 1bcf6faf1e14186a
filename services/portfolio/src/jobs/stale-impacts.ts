import { setTimeout as sleep } from 'node:timers/promises';
import type { DataSource } from 'typeorm';
import type { EventBus, Subscription } from '@green-impact/shared/bus/event-bus';
import { parseTaxonomyEvent, TAXONOMY_EVENTS_TOPIC } from '@green-impact/shared/bus/taxonomy-events';
import type { Caller } from '@green-impact/shared/caller';
import { DomainError } from '@green-impact/shared/errors';
import type { Logger } from '@green-impact/shared/logger';
import type { ImpactCalculator } from '../impacts/impact-calculator.js';
import type { RecomputeJobRow } from './recompute-job-store.js';
import type { RecomputeJobs } from './recompute-jobs.js';

/** The taxonomy's answer says the input no longer exists (framework removed, year specifics or rate gone). */
const gone = (err: unknown) => err instanceof DomainError && (err.code === 'FAILED_PRECONDITION' || err.code === 'NOT_FOUND');

export interface StaleCheck {
  /** Computations marked stale by this check. */
  marked: number;
  /** The stale recompute jobs queued (or found queued) for the accounts concerned. */
  jobs: RecomputeJobRow[];
}

/**
 * Finds stored impacts whose inputs changed in the taxonomy service: per (framework, year) among the stored
 * computations, the framework's current V, L, flag, currency and row digest; per (position currency,
 * framework currency, year), the current FX rate. Computations that differ (or whose input is gone) get
 * stale_at, reads show them stale, and each account concerned gets a stale recompute job. Comparing with the
 * taxonomy's answers, not trusting an event's details, makes a check complete whatever changed and
 * idempotent: a second check finds nothing new.
 */
export class StaleImpactMarker {
  constructor(
    private readonly ds: DataSource,
    private readonly calculator: ImpactCalculator,
    private readonly jobs: RecomputeJobs,
    private readonly log: Logger,
  ) {}

  async check(): Promise<StaleCheck> {
    const accounts = new Set<string>();
    let marked = 0;
    const mark = async (sql: string, params: unknown[]) => {
      const rows: { accountId: string; n: number }[] = await this.ds.query(
        `WITH marked AS (
           UPDATE portfolio.impact_computations c SET stale_at = clock_timestamp()
           WHERE c.stale_at IS NULL AND ${sql} RETURNING c.position_id)
         SELECT p.account_id AS "accountId", count(*)::int AS n FROM marked JOIN portfolio.positions p ON p.id = marked.position_id
         GROUP BY p.account_id`,
        params,
      );
      for (const r of rows) {
        accounts.add(r.accountId);
        marked += r.n;
      }
    };
    const asAccount = (accountId: string): Caller => ({ accountId, role: 'user', requestId: 'stale-impacts-check' });

    const frameworkYears: { frameworkId: number; year: number; frameworkIdentifier: string; accountId: string }[] = await this.ds.query(
      `SELECT c.framework_id AS "frameworkId", c.reporting_year AS year, min(c.framework_identifier) AS "frameworkIdentifier",
         min(p.account_id::text) AS "accountId"
       FROM portfolio.impact_computations c JOIN portfolio.positions p ON p.id = c.position_id
       WHERE c.stale_at IS NULL GROUP BY c.framework_id, c.reporting_year ORDER BY 1, 2`,
    );
    for (const fy of frameworkYears) {
      const where = `c.framework_id = $1 AND c.reporting_year = $2`;
      try {
        const now = await this.calculator.frameworkYear(asAccount(fy.accountId), { ...fy, assetIdentifier: '' }, fy.year);
        const s = now.specifics;
        await mark(
          `${where} AND (c.row_set <> $3 OR c.value_outstanding <> $4 OR c.allocated_amount <> $5
             OR c.value_outstanding_framework <> $6 OR c.framework_currency_code <> $7)`,
          [fy.frameworkId, fy.year, now.rowSet, s.valueOutstanding, s.allocatedAmount, s.valueOutstandingFramework, s.frameworkCurrencyCode],
        );
      } catch (err) {
        if (!gone(err)) throw err;
        await mark(where, [fy.frameworkId, fy.year]);
      }
    }

    const pairs: { from: string; to: string; year: number; accountId: string }[] = await this.ds.query(
      `SELECT c.position_currency_code AS "from", c.framework_currency_code AS "to", c.reporting_year AS year,
         min(p.account_id::text) AS "accountId"
       FROM portfolio.impact_computations c JOIN portfolio.positions p ON p.id = c.position_id
       WHERE c.stale_at IS NULL AND c.position_currency_code <> c.framework_currency_code
       GROUP BY 1, 2, 3 ORDER BY 1, 2, 3`,
    );
    for (const pair of pairs) {
      const where = `c.position_currency_code = $1 AND c.framework_currency_code = $2 AND c.reporting_year = $3`;
      try {
        const rate = await this.calculator.fxRate(asAccount(pair.accountId), pair.year, pair.from, pair.to);
        await mark(`${where} AND c.fx_rate <> $4`, [pair.from, pair.to, pair.year, rate]);
      } catch (err) {
        if (!gone(err)) throw err;
        await mark(where, [pair.from, pair.to, pair.year]);
      }
    }
    if (marked > 0) this.log.info({ marked, accounts: accounts.size }, 'impacts marked stale after a taxonomy change');
    return { marked, jobs: await this.jobs.enqueueStale([...accounts]) };
  }
}

/**
 * Runs the check after taxonomy changes: each announcement (taxonomy.changes) asks for a check, requests
 * arriving while one waits join it, and one arriving while a check runs gets the next one, so a burst of
 * writes costs a check or two. The handler does not wait for the check (the bus delivers a partition's
 * events one after another, so waiting would run one check per event); an event lost to a stop is covered
 * by the check every replica runs when it starts, since a check compares the whole stored state with the
 * taxonomy's. Replicas share one consumer group: each event is checked by one of them.
 */
export class StaleImpactFollower {
  private current: Promise<unknown> | undefined;
  private next: Promise<StaleCheck> | undefined;
  private subscription: Subscription | undefined;
  private closed = false;

  constructor(
    private readonly marker: StaleImpactMarker,
    private readonly log: Logger,
    private readonly debounceMs = 100,
  ) {}

  async follow(bus: EventBus): Promise<void> {
    this.subscription = await bus.subscribe({
      topic: TAXONOMY_EVENTS_TOPIC,
      groupId: 'portfolio-stale-impacts',
      fromBeginning: false,
      handler: async (msg) => {
        if (!parseTaxonomyEvent(msg.value)) this.log.warn({ offset: msg.offset }, 'unknown taxonomy event; checking impacts anyway');
        this.checkSoon();
      },
    });
    // Changes made while no replica listened (or whose check a stop cut short).
    this.checkSoon();
  }

  private checkSoon(): void {
    this.request().catch((err: unknown) => this.log.warn({ err }, 'stale impacts check failed; the next taxonomy change retries it'));
  }

  /** A check that starts after this call (joined with others waiting). */
  request(): Promise<StaleCheck> {
    if (this.next) return this.next;
    const before = this.current ?? Promise.resolve();
    const next: Promise<StaleCheck> = before
      .catch(() => undefined)
      .then(() => sleep(this.debounceMs))
      .then(() => {
        this.next = undefined;
        this.current = next;
        return this.closed ? { marked: 0, jobs: [] } : this.marker.check();
      })
      .finally(() => {
        if (this.current === next) this.current = undefined;
      });
    this.next = next;
    return next;
  }

  async close(): Promise<void> {
    this.closed = true;
    await this.subscription?.close();
    await this.next?.catch(() => undefined);
    await this.current?.catch(() => undefined);
  }
}
