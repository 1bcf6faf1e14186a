/**
 * The suite's skip rule (docs/testing.md): a test skips only where a part it needs cannot run on this
 * machine, says which, and under CI, which provides every required part, fails instead. Every skip goes
 * through here: its reason carries SKIP_RULE_MARK, and scripts/run-tests.mjs fails a file that skips with
 * any other reason (a file that decides by itself to skip would go silent under CI).
 */
export const SKIP_RULE_MARK = '[skip rule] ';

/**
 * For node:test's `skip` option: false when the part is here; else the marked reason, or, under CI for a
 * part CI provides (`required`, the default), an error. `optional` is for parts CI does not install
 * (kubectl): the test that needs one runs where it is and says so where it is not.
 */
export function skipUnless(available: boolean, reason: string, ci: 'required' | 'optional' = 'required'): string | false {
  if (available) return false;
  if (ci === 'required' && process.env['CI']) throw new Error(`${reason} (CI must provide it)`);
  return SKIP_RULE_MARK + reason;
}
