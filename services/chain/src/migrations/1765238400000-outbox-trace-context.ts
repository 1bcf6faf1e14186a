import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Observability: an outbox row keeps the trace context (W3C `traceparent`) of the request that wrote it,
 * so the message the relay publishes later continues that request's trace into the worker; and queued
 * jobs get an index, so the metrics' queue depth and oldest queued job are cheap to read at every scrape.
 */
export class OutboxTraceContext1765238400000 implements MigrationInterface {
  name = 'OutboxTraceContext1765238400000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE chain.outbox ADD COLUMN headers jsonb`);
    await q.query(`CREATE INDEX jobs_queued_ix ON chain.jobs (created_at) WHERE status = 'queued'`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX chain.jobs_queued_ix`);
    await q.query(`ALTER TABLE chain.outbox DROP COLUMN headers`);
  }
}
