import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { consolidate } from './consolidate.js';

describe('consolidate', () => {
  it('sums values per (sub category, indicator) and volumes per sub category, each project once', () => {
    const rows = consolidate([
      // project 1: sub category 10 (volume 100) with indicators 1 and 2; sub category 20 (volume 40)
      { projectId: 1, subCategoryId: 10, indicatorId: 1, volume: 100, value: 5 },
      { projectId: 1, subCategoryId: 10, indicatorId: 2, volume: 100, value: 7 },
      { projectId: 1, subCategoryId: 20, indicatorId: 3, volume: 40, value: 1 },
      // project 2: sub category 10 (volume 50) with indicator 1 only
      { projectId: 2, subCategoryId: 10, indicatorId: 1, volume: 50, value: 2.5 },
    ]);
    assert.deepEqual(rows, [
      { subCategoryId: 10, indicatorId: 1, volume: 150, value: 7.5 },
      { subCategoryId: 10, indicatorId: 2, volume: 150, value: 7 },
      { subCategoryId: 20, indicatorId: 3, volume: 40, value: 1 },
    ]);
  });

  it('gives the same result whatever the input order', () => {
    const input = [
      { projectId: 2, subCategoryId: 5, indicatorId: 9, volume: 0.1, value: 0.2 },
      { projectId: 1, subCategoryId: 5, indicatorId: 9, volume: 0.2, value: 0.1 },
      { projectId: 3, subCategoryId: 5, indicatorId: 9, volume: 0.3, value: 0.3 },
    ];
    const forward = consolidate(input);
    assert.deepEqual(consolidate([...input].reverse()), forward);
    assert.equal(forward.length, 1);
  });

  it('answers nothing for nothing', () => {
    assert.deepEqual(consolidate([]), []);
  });
});
