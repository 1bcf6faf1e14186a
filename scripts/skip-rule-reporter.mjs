// A node:test reporter for scripts/run-tests.mjs: writes one JSON line per test skipped with a reason that
// did not come through the suite's skip rule (testing/src/shared/skip-rule.ts, whose SKIP_RULE_MARK is
// repeated here because this runs before and without the build). The runner fails the run on any.
const SKIP_RULE_MARK = '[skip rule] ';

export default async function* skipRule(source) {
  for await (const event of source) {
    if (event.type !== 'test:pass' && event.type !== 'test:fail') continue;
    const { skip, name, file } = event.data;
    if (skip === undefined || (typeof skip === 'string' && skip.startsWith(SKIP_RULE_MARK))) continue;
    yield `${JSON.stringify({ file, name, reason: skip === true ? '(no reason)' : skip })}\n`;
  }
}
