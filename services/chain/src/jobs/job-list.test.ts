import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { DataSource } from 'typeorm';
import type { Caller } from '@green-impact/shared/caller';
import { InvalidArgumentError } from '@green-impact/shared/errors';
import { listJobs } from './job-list.js';

/** A data source that must not be reached: the page is refused before anything is read. */
const untouched = new Proxy({}, { get: () => assert.fail('the data source was used') }) as unknown as DataSource;
const caller = { accountId: 'acme' } as unknown as Caller;

describe('ListJobs pages', () => {
  it('page_size: 0 is the default, at most 500, never negative; the refusal names page_size', async () => {
    for (const [pageSize, message] of [
      [501, 'page_size must be at most 500.'],
      [-1, 'page_size must not be negative.'],
    ] as const) {
      await assert.rejects(listJobs(untouched, caller, { pageSize, pageToken: '' }), (err: unknown) => {
        assert.ok(err instanceof InvalidArgumentError, String(err));
        assert.equal(err.message, message);
        assert.equal(err.field, 'page_size');
        return true;
      });
    }
  });

  it('identifier filters are at most 255 characters and a network name 64; the refusal names the filter', async () => {
    for (const [req, field, message] of [
      [{ frameworkIdentifier: 'f'.repeat(256) }, 'framework_identifier', 'framework_identifier must be at most 255 characters.'],
      [{ investorIdentifier: 'i'.repeat(256) }, 'investor_identifier', 'investor_identifier must be at most 255 characters.'],
      [{ network: 'n'.repeat(65) }, 'network', 'network must be at most 64 characters.'],
    ] as const) {
      await assert.rejects(listJobs(untouched, caller, { pageSize: 10, pageToken: '', ...req }), (err: unknown) => {
        assert.ok(err instanceof InvalidArgumentError, String(err));
        assert.equal(err.message, message);
        assert.equal(err.field, field);
        return true;
      });
    }
  });
});
