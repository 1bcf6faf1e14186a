import { test } from 'node:test';
import assert from 'node:assert/strict';
import { groupSuperIndicators } from './taxonomy-reads.js';

test('super indicator links fold into one object per super indicator, categories in link order', () => {
  const scope = { year: 2024, languageCode: undefined };
  const link = (superIndicatorId: number, categoryId: number) => ({
    superIndicatorId,
    superIndicatorName: `SI ${superIndicatorId}`,
    categoryId,
    categoryName: `C ${categoryId}`,
    language: 'English',
    languageCode: 'en',
    reportingYear: 2024,
  });
  const grouped = groupSuperIndicators(scope, [link(20, 1), link(21, 1), link(20, 2), link(20, 2)]);
  assert.deepEqual(
    grouped.map((s) => [s.superIndicatorId, s.superIndicatorName, s.categoryIds]),
    [
      [20, 'SI 20', [1, 2]],
      [21, 'SI 21', [1]],
    ],
  );
  assert.deepEqual(grouped[0]!.scope, scope);
  assert.equal(grouped[0]!.reportingYear, 2024);
});
