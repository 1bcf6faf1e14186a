import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { classify, History } from './support/history.js';
import type { Outcome } from './support/outcomes.js';

/** The network fault tests' history checker (support/history.ts) on histories made up here, so each rule is seen to bite. */
describe('fault history checker', () => {
  it('classifies answers as acknowledged, refused or unknown, and flags what breaks the error model', () => {
    const unavailable = { message: 'The database is temporarily unavailable; please retry.', code: 'UNAVAILABLE' };
    const gqlError = (code: string) => ({ errors: [{ message: 'x', extensions: { code } }] });
    const cases: [Outcome, string, boolean][] = [
      [{ status: 200, body: { message: 'ok' } }, 'acknowledged', false],
      [{ status: 200, body: { data: { addInvestor: { message: 'ok' } } } }, 'acknowledged', false],
      [{ status: 503, body: unavailable }, 'unknown', false],
      [{ status: 504, body: { message: 'Deadline', code: 'DEADLINE_EXCEEDED' } }, 'unknown', false],
      [{ status: 200, body: gqlError('SERVICE_UNAVAILABLE') }, 'unknown', false],
      [{ status: 503, body: gqlError('SERVICE_UNAVAILABLE') }, 'unknown', false],
      [{ status: 200, body: gqlError('GATEWAY_TIMEOUT') }, 'unknown', false],
      [{ status: 400, body: { message: 'bad', code: 'INVALID_ARGUMENT' } }, 'refused', false],
      [{ status: 409, body: { message: 'exists', code: 'ALREADY_EXISTS' } }, 'refused', false],
      [{ status: 200, body: gqlError('BAD_USER_INPUT') }, 'refused', false],
      [{ status: 500, body: { message: 'Internal error', code: 'INTERNAL' } }, 'unknown', true],
      [{ status: 503, body: { message: 'no code' } }, 'unknown', true],
      [{ status: 200, body: gqlError('INTERNAL_SERVER_ERROR') }, 'unknown', true],
      [{ error: 'ECONNRESET' }, 'unknown', true],
      [{ error: 'cut' }, 'unknown', true],
    ];
    for (const [outcome, result, violation] of cases) {
      const c = classify(outcome);
      assert.equal(c.result, result, JSON.stringify(outcome));
      assert.equal(c.violation !== undefined, violation, JSON.stringify(outcome));
    }
  });

  it('finds lost, doubled and refused-but-present writes, and answers later than the deadline', async () => {
    const history = new History(50, 0);
    const send = (outcome: Outcome, delayMs = 0) => () => new Promise<Outcome>((r) => setTimeout(() => r(outcome), delayMs));
    const ok: Outcome = { status: 200, body: { message: 'ok' } };
    const doubt: Outcome = { status: 503, body: { message: 'retry', code: 'UNAVAILABLE' } };
    const no: Outcome = { status: 400, body: { message: 'bad', code: 'INVALID_ARGUMENT' } };
    await history.invoke({ kind: 'user', name: 'acked-once', send: send(ok) });
    await history.invoke({ kind: 'user', name: 'acked-lost', send: send(ok) });
    await history.invoke({ kind: 'user', name: 'acked-twice', send: send(ok) });
    await history.invoke({ kind: 'user', name: 'doubt-absent', send: send(doubt) });
    await history.invoke({ kind: 'user', name: 'doubt-twice', send: send(doubt) });
    await history.invoke({ kind: 'user', name: 'refused-present', send: send(no) });
    await history.invoke({ kind: 'job', name: 'late', send: send(ok, 120) });
    assert.deepEqual(history.inDoubt().sort(), ['doubt-absent', 'doubt-twice']);
    // A retry that is refused (already there) settles nothing as acknowledged, but is no longer in doubt.
    await history.invoke({ kind: 'user', name: 'doubt-absent', send: send(no) }, true);
    assert.deepEqual(history.inDoubt(), ['doubt-twice']);

    const stored: Record<string, Map<string, number>> = {
      user: new Map([['acked-once', 1], ['acked-twice', 2], ['doubt-twice', 2], ['refused-present', 1]]),
      job: new Map([['late', 1]]),
    };
    const check = await history.check(async (kind) => stored[kind]!);
    assert.deepEqual(
      { invoked: check.invoked, acknowledged: check.acknowledged, refused: check.refused, unknown: check.unknown },
      { invoked: 8, acknowledged: 4, refused: 2, unknown: 2 },
    );
    assert.deepEqual(check.lost, ['user acked-lost']);
    assert.deepEqual(check.doubled.sort(), ['user acked-twice ×2', 'user doubt-twice ×2']);
    assert.deepEqual(check.refusedPresent, ['user refused-present']);
    assert.equal(check.violations.length, 1);
    assert.match(check.violations[0]!, /^job late: answered after \d+ ms$/);
  });
});
