import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { FailedPreconditionError } from './errors.js';
import { ConfigError, envReader, listingLimits } from './config.js';
import { resolveReference } from './public-items.js';

const ME = 'a0000000-0000-4000-8000-000000000001';
const FIRST = { accountId: 'b0000000-0000-4000-8000-000000000002', id: 1 };
const SECOND = { accountId: 'c0000000-0000-4000-8000-000000000003', id: 2 };
const OWN = { accountId: ME, id: 3 };

describe('resolveReference', () => {
  it("takes the caller's own item, else the only public one, else nothing", () => {
    assert.equal(resolveReference([OWN, FIRST], ME, 'asset', 'X'), OWN);
    assert.equal(resolveReference([OWN], ME, 'asset', 'X'), OWN);
    assert.equal(resolveReference([FIRST], ME, 'asset', 'X'), FIRST);
    assert.equal(resolveReference([], ME, 'asset', 'X'), undefined);
  });

  it("never picks a stranger's item when several accounts publish the identifier, however old", () => {
    assert.throws(
      () => resolveReference([FIRST, SECOND], ME, 'framework', 'GBF'),
      (e: unknown) =>
        e instanceof FailedPreconditionError &&
        e.message === 'Several accounts publish framework "GBF", so it is not clear which one you mean; add your own framework "GBF" to use it.',
    );
  });
});

describe('listingLimits', () => {
  it('defaults to 2,000 listed and 1,000 public items, and refuses values out of range at start', () => {
    assert.deepEqual(listingLimits(envReader({})), { maxListItems: 2_000, maxPublicItemsPerAccount: 1_000 });
    assert.deepEqual(listingLimits(envReader({ MAX_LIST_ITEMS: '50', MAX_PUBLIC_ITEMS_PER_ACCOUNT: '0' })), { maxListItems: 50, maxPublicItemsPerAccount: 0 });
    assert.throws(() => listingLimits(envReader({ MAX_LIST_ITEMS: '0' })), (e: unknown) => e instanceof ConfigError && /^MAX_LIST_ITEMS must be at least 1/.test(e.message));
    assert.throws(() => listingLimits(envReader({ MAX_LIST_ITEMS: '60000' })), (e: unknown) => e instanceof ConfigError && /^MAX_LIST_ITEMS must be at most 50000/.test(e.message));
    assert.throws(() => listingLimits(envReader({ MAX_PUBLIC_ITEMS_PER_ACCOUNT: 'many' })), (e: unknown) => e instanceof ConfigError && /^MAX_PUBLIC_ITEMS_PER_ACCOUNT must be an integer/.test(e.message));
  });
});
